// Reproducibility across thread counts: the same scene run with 1, 2 and 3
// threads gives bit-identical states, energy ledgers and contact lists.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

#include "engine/engine.h"
#include "engine/thread_team.h"
#include "physics/reproducibility.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using namespace test;

TEST(Threads, OneTwoAndThreeThreadsGiveBitIdenticalRuns) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    Engine one = falling_mixture(1, integrator), two = falling_mixture(2, integrator);
    for (int chunk = 0; chunk < 4; ++chunk) {
      one.run(2500), two.run(2500);
      expect_identical(one, two);
    }
    // An odd split of the work too (more threads than this machine's cores
    // is slow, so briefly).
    Engine three{one.snapshot()};
    three.set_threads(3);
    one.run(300), three.run(300);
    expect_identical(one, three);
    expect_not_trivial(one);
  }
}

// Above Engine::kParallelBodies the integrator's body passes are shared
// out too (below, they run on one thread whatever the count).
TEST(Threads, TwoThreadsShareTheBodyPassesOfManyGrainsWithTheSameBits) {
  Engine one = falling_mixture(1, Integrator::velocity_verlet, 40),
         two = falling_mixture(2, Integrator::velocity_verlet, 40);
  ASSERT_GE(one.world().size(), 600u);
  for (int chunk = 0; chunk < 4; ++chunk) {
    one.run(2500), two.run(2500);
    expect_identical(one, two);
  }
  expect_not_trivial(one);
}

// With two threads over that many grains the body passes are shared out
// too, constrained bodies among them: the same bits as one thread, and
// run() as step() called in a loop, work of the driven lid and of the
// pushed grain included.
TEST(Threads, DrivenBodiesAndTheirWorkKeepTheirBitsWithTwoThreads) {
  Engine one = falling_mixture(1, Integrator::velocity_verlet, 40, true);
  Engine fused = falling_mixture(2, Integrator::velocity_verlet, 40, true);
  Engine stepped = falling_mixture(2, Integrator::velocity_verlet, 40, true);
  ASSERT_GE(one.world().size(), 600u);
  for (int chunk = 0; chunk < 3; ++chunk) {
    one.run(2000), fused.run(2000);
    for (int k = 0; k < 2000; ++k) stepped.step();
    expect_identical(one, fused);
    expect_identical(one, stepped);
  }
  expect_not_trivial(one);
  EXPECT_GT(std::abs(one.ledger().external_work), 1.0);
  EXPECT_LT(one.world().position[1].y, 4.0 * 40 + 3.0 - 0.5);  // the lid came down
}

// An unstable run stops at the same step with the same message whatever the
// threads.
TEST(Threads, AnUnstableRunStopsWithTheSameMessageWhateverTheThreads) {
  const auto message = [](int threads) {
    std::vector<BodySpec> bodies;
    for (int k = 0; k < 600; ++k)
      bodies.push_back(disk({1.0 * (k % 30), 0.98 * (k / 30)}, 0.5, {k % 7 == 0 ? 2.0 : 0.0, 0.0}));
    EngineSettings s;
    s.dt = 0.1;  // the stable limit is about 0.0056
    s.verlet_distance = 0.05;
    s.allow_large_time_step = true;
    s.threads = threads;
    Engine e(world_of(bodies, linear_law(1e4)), s);
    try {
      e.run(1000);
    } catch (const InstabilityError& err) {
      return std::string(err.what());
    }
    return std::string("no instability");
  };
  const std::string one = message(1);
  EXPECT_NE(one.find("unstable at step"), std::string::npos) << one;
  EXPECT_EQ(message(2), one);
  EXPECT_EQ(message(3), one);
}

TEST(Threads, AThreadCountChangedMidRunChangesNothing) {
  Engine steady = falling_mixture(1, Integrator::velocity_verlet),
         switched = falling_mixture(2, Integrator::velocity_verlet);
  steady.run(3000), switched.run(3000);
  switched.set_threads(1);
  steady.run(2000), switched.run(2000);
  expect_identical(steady, switched);
  EXPECT_THROW(switched.set_threads(0), std::invalid_argument);
}

// Two engines stepped at once from two user threads: one of them finds the
// team busy and runs its passes alone, with the same bits.
TEST(Threads, TwoEnginesSteppedAtOnceGiveTheBitsOfEachAlone) {
  Engine alone = falling_mixture(2, Integrator::velocity_verlet);
  alone.run(1500);
  Engine first = falling_mixture(2, Integrator::velocity_verlet),
         second = falling_mixture(2, Integrator::velocity_verlet);
  std::thread other([&] { second.run(1500); });
  first.run(1500);
  other.join();
  expect_identical(alone, first);
  expect_identical(alone, second);
}

TEST(ThreadTeam, EveryMemberRunsOnceAndMemberZeroOnTheCaller) {
  for (int threads : {1, 2, 3, 5}) {
    std::vector<int> calls(static_cast<std::size_t>(threads), 0);
    std::atomic<int> seen_members{0};
    std::thread::id zero;
    ThreadTeam::run(threads, [&](int member, int members) {
      ++calls[static_cast<std::size_t>(member)];
      seen_members = members;
      if (member == 0) zero = std::this_thread::get_id();
    });
    // Nothing else runs a job: the team is not busy, every member comes.
    ASSERT_EQ(seen_members.load(), threads);
    for (int m = 0; m < threads; ++m) EXPECT_EQ(calls[static_cast<std::size_t>(m)], 1) << "member " << m;
    EXPECT_EQ(zero, std::this_thread::get_id());
  }
}

TEST(ThreadTeam, ForEachVisitsEveryIndexOnceAndReduceFindsTheExtremes) {
  for (int threads : {1, 2, 3, 7})
    for (std::size_t count : {0, 1, 2, 5, 1000, 4099}) {
      std::vector<int> visits(count, 0);
      ThreadTeam::for_each(threads, count, [&](std::size_t i) { ++visits[i]; });
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(visits[i], 1) << "index " << i << " of " << count;
      // A value peaked at an index the even split does not favour.
      const auto value = [&](std::size_t i) {
        return -std::abs(static_cast<double>(i) - 0.37 * static_cast<double>(count));
      };
      double best = -1e300;
      for (std::size_t i = 0; i < count; ++i) best = std::max(best, value(i));
      EXPECT_EQ(ThreadTeam::reduce(threads, count, -1e300, value, std::greater<>()), best);
      const std::size_t first_odd = ThreadTeam::reduce(
          threads, count, count, [](std::size_t i) { return i % 2 == 1 ? i : ~std::size_t{0}; }, std::less<>());
      EXPECT_EQ(first_odd, count > 1 ? 1u : count);
    }
}

TEST(ThreadTeam, AFailingMemberIsReportedToTheCallerAndTheTeamGoesOn) {
  for (int thrower : {0, 1}) {
    EXPECT_THROW(ThreadTeam::run(2,
                                 [&](int member, int members) {
                                   if (member == thrower % members) throw std::runtime_error("member failed");
                                 }),
                 std::runtime_error);
  }
  std::atomic<int> ran{0};
  ThreadTeam::run(2, [&](int, int) { ++ran; });
  EXPECT_EQ(ran.load(), 2);
}

TEST(ThreadTeam, AJobStartedInsideAJobRunsAlone) {
  std::atomic<int> inner_members{0}, inner_calls{0};
  ThreadTeam::run(2, [&](int member, int) {
    if (member != 0) return;
    ThreadTeam::run(2, [&](int, int members) {
      inner_members = members;
      ++inner_calls;
    });
  });
  EXPECT_EQ(inner_members.load(), 1);
  EXPECT_EQ(inner_calls.load(), 1);
}

// The bench's serial and wait shares: only the time of jobs shared among
// members counts, on the thread that started them, and the members' mean
// idle time within them.
TEST(ThreadTeam, CountsTheTimeInSharedJobsOnTheCallingThread) {
  using namespace std::chrono_literals;
  const double before = ThreadTeam::seconds_in_shared_jobs();
  const double waited_before = ThreadTeam::seconds_waiting_in_shared_jobs();
  ThreadTeam::run(1, [&](int, int) { std::this_thread::sleep_for(30ms); });
  EXPECT_EQ(ThreadTeam::seconds_in_shared_jobs(), before) << "a job on one thread is serial time";
  ThreadTeam::run(2, [&](int member, int) {
    if (member == 0) std::this_thread::sleep_for(30ms);
  });
  const double shared = ThreadTeam::seconds_in_shared_jobs() - before;
  EXPECT_GE(shared, 0.029);
  EXPECT_LT(shared, 10.0);
  // Member 1 waited while member 0 slept: half the job on average.
  const double waited = ThreadTeam::seconds_waiting_in_shared_jobs() - waited_before;
  EXPECT_GE(waited, 0.0145);
  EXPECT_LE(waited, shared);
  double on_other_thread = -1.0;
  std::thread([&] { on_other_thread = ThreadTeam::seconds_in_shared_jobs(); }).join();
  EXPECT_EQ(on_other_thread, 0.0) << "each thread counts its own jobs";
}

// Members that went to sleep (nothing to do for a while) wake for the next job.
TEST(ThreadTeam, MembersWakeAfterAPause) {
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::atomic<int> ran{0};
    ThreadTeam::run(2, [&](int, int) { ++ran; });
    EXPECT_EQ(ran.load(), 2);
  }
}

#if defined(__linux__)
// The team counts the cores this process may use (taskset, a batch
// system's allocation), not the machine's: two members spinning on one
// core wait a time slice for every hand-off (10³ disks, two threads under
// `taskset -c 0`: 0.8 s for 200 steps against 0.0017 s since).
TEST(ThreadTeam, CountsTheCoresItMayRunOn) {
  cpu_set_t all, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  const int allowed = CPU_COUNT(&all);
  EXPECT_EQ(ThreadTeam::usable_cores(), allowed);
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  EXPECT_EQ(ThreadTeam::usable_cores(), 1);
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(ThreadTeam::usable_cores(), allowed);
}
#endif

}  // namespace
}  // namespace sphero
