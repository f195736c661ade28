// A model of what two threads can gain on one small step, stripped of
// everything but the engine's way of sharing it (docs/PERFORMANCE.md, "Two
// threads at 10³: what the machine allows"): 1000 bodies in rows of 32,
// their state in arrays as the engine's World keeps it, candidate pairs
// along each row and between rows, and per step the engine's three jobs
// through its ThreadTeam:
//  1. kick and drift, each member its half of the bodies;
//  2. the pairs, each member the pairs whose lower body is its own, adding
//     forces only to its own bodies; the second member first evaluates again
//     the first member's pairs that reach into its half (Split::foreign);
//  3. kick, each member its half.
// The pairs' work is a chain of multiply-adds sized so that a step takes
// about as long as one of 1000 settled disks (70–90 µs on one core).
//
// Printed per round: the cores' cache-line round trip, then one thread's
// step and the speed-up of two threads (blocks of steps alternated), on one
// shared set of arrays (what the engine does: the 32 bodies on either side
// of the border are written by one core and read by the other every step)
// and on a private copy each (the same work, no line shared: only the
// hand-offs remain).
//
// Run: build/bench/sphero_two_core_model [rounds] [steps]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "bench/machine_probe.h"
#include "engine/thread_team.h"

namespace {

using sphero::ThreadTeam;

constexpr int kBodies = 1000, kRow = 32, kFirstOfSecondHalf = 512;
constexpr int kWorkPerPair = 32;  // multiply-adds in a chain
constexpr double kDt = 1e-5;

struct Vec {
  double x, y;
};

struct alignas(64) Bodies {
  alignas(64) Vec position[kBodies];
  alignas(64) Vec orientation[kBodies];
  alignas(64) Vec velocity[kBodies];
  alignas(64) double angular_velocity[kBodies];
  alignas(64) double angle[kBodies];
  alignas(64) Vec force[kBodies];
  alignas(64) double torque[kBodies];
  alignas(64) Vec previous_position[kBodies];
  alignas(64) double books[2][8];

  Bodies() {
    for (int i = 0; i < kBodies; ++i) {
      position[i] = {static_cast<double>(i % kRow), static_cast<double>(i / kRow)};
      orientation[i] = {1.0, 0.0};
      velocity[i] = force[i] = previous_position[i] = {0.0, 0.0};
      angular_velocity[i] = angle[i] = torque[i] = 0.0;
    }
  }
};

struct Pair {
  int lower, higher;
};

struct Pairs {
  std::vector<Pair> all;
  int first_of_second_run = 0;      // pairs are sorted by their lower body
  std::vector<int> reaching_across;  // first run's pairs with a body in the second half

  Pairs() {
    for (int i = 0; i < kBodies; ++i) {
      if (i + 1 < kBodies && (i + 1) % kRow != 0) all.push_back({i, i + 1});
      if (i + kRow < kBodies) all.push_back({i, i + kRow});
    }
    while (all[static_cast<std::size_t>(first_of_second_run)].lower < kFirstOfSecondHalf) ++first_of_second_run;
    for (int k = 0; k < first_of_second_run; ++k)
      if (all[static_cast<std::size_t>(k)].higher >= kFirstOfSecondHalf) reaching_across.push_back(k);
  }
};

int half_of(int body) { return body < kFirstOfSecondHalf ? 0 : 1; }

void evaluate(Bodies& b, const Pair& p, int run, bool alone) {
  const int i = p.lower, j = p.higher;
  const Vec d{b.position[j].x - b.position[i].x + 0.01 * b.orientation[j].x,
              b.position[j].y - b.position[i].y + 0.01 * b.orientation[i].y};
  const double r = std::sqrt(d.x * d.x + d.y * d.y + 1e-12);
  const double approach = (b.velocity[j].x - b.velocity[i].x) * d.x + (b.velocity[j].y - b.velocity[i].y) * d.y +
                          b.angular_velocity[i] - b.angular_velocity[j];
  double f = (1.0 - r) * 1e3 - 0.1 * approach;
  for (int k = 0; k < kWorkPerPair; ++k) f = f * 0.999999 + 1e-9;
  const Vec on_higher{f * d.x / r, f * d.y / r};
  if (alone || half_of(i) == run) {
    b.force[i].x -= on_higher.x, b.force[i].y -= on_higher.y;
    b.torque[i] += 1e-3 * f;
  }
  if (alone || half_of(j) == run) {
    b.force[j].x += on_higher.x, b.force[j].y += on_higher.y;
    b.torque[j] -= 1e-3 * f;
  }
}

// One step; members[m] is the set of arrays member m works on.
void step(const Pairs& pairs, Bodies* const members[2], int threads) {
  const bool alone = threads == 1;
  const auto half = [&](int member) {
    return alone ? std::pair{0, kBodies} : std::pair{member == 0 ? 0 : kFirstOfSecondHalf, member == 0 ? kFirstOfSecondHalf : kBodies};
  };
  ThreadTeam::run(threads, [&](int member, int) {
    Bodies& b = *members[member];
    const auto [first, end] = half(member);
    for (int i = first; i < end; ++i) {
      b.previous_position[i] = b.position[i];
      b.velocity[i].x += 0.5 * kDt * b.force[i].x, b.velocity[i].y += 0.5 * kDt * b.force[i].y;
      b.angular_velocity[i] += 0.5 * kDt * b.torque[i];
      b.position[i].x += kDt * b.velocity[i].x, b.position[i].y += kDt * b.velocity[i].y;
      b.angle[i] += kDt * b.angular_velocity[i];
      const double a = b.angle[i], a2 = a * a;
      b.orientation[i] = {1.0 - a2 / 2.0 + a2 * a2 / 24.0, a - a * a2 / 6.0};
      b.force[i] = {0.0, -9.81};
      b.torque[i] = 0.0;
    }
  });
  ThreadTeam::run(threads, [&](int member, int) {
    Bodies& b = *members[member];
    if (!alone && member == 1)
      for (int k : pairs.reaching_across) evaluate(b, pairs.all[static_cast<std::size_t>(k)], 1, false);
    const int count = static_cast<int>(pairs.all.size());
    const int first = alone || member == 0 ? 0 : pairs.first_of_second_run;
    const int end = alone || member == 1 ? count : pairs.first_of_second_run;
    for (int k = first; k < end; ++k) evaluate(b, pairs.all[static_cast<std::size_t>(k)], member, alone);
  });
  ThreadTeam::run(threads, [&](int member, int) {
    Bodies& b = *members[member];
    const auto [first, end] = half(member);
    double kinetic = 0.0;
    for (int i = first; i < end; ++i) {
      b.velocity[i].x += 0.5 * kDt * b.force[i].x, b.velocity[i].y += 0.5 * kDt * b.force[i].y;
      b.angular_velocity[i] += 0.5 * kDt * b.torque[i];
      kinetic += b.velocity[i].x * b.velocity[i].x + b.velocity[i].y * b.velocity[i].y;
    }
    b.books[member][0] = kinetic;
  });
}

double microseconds_per_step(const Pairs& pairs, Bodies* const members[2], int threads, int steps) {
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) step(pairs, members, threads);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / steps;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
  const Pairs pairs;
  std::printf("round_trip_ns,one_thread_us,shared_speedup,private_speedup\n");
  for (int round = 0; round < rounds; ++round) {
    const double round_trip = sphero::bench::core_round_trip_ns();
    // Fresh arrays each round, so that every round times the same numbers.
    const auto shared = std::make_unique<Bodies>();  // stepped by one thread and by two in turn
    const auto first = std::make_unique<Bodies>(), second = std::make_unique<Bodies>();
    Bodies* const one_set[2] = {shared.get(), shared.get()};
    Bodies* const own_sets[2] = {first.get(), second.get()};
    // Interleaved blocks, so that the three are timed in the same moments
    // (this VM's speed drifts within seconds).
    constexpr int kBlocks = 10;
    const int block = std::max(1, steps / kBlocks);
    double one = 0.0, two_shared = 0.0, two_private = 0.0;
    for (int k = 0; k < kBlocks; ++k) {
      one += microseconds_per_step(pairs, one_set, 1, block);
      two_shared += microseconds_per_step(pairs, one_set, 2, block);
      two_private += microseconds_per_step(pairs, own_sets, 2, block);
    }
    std::printf("%.0f,%.1f,%.3f,%.3f\n", round_trip, one / kBlocks, one / two_shared, one / two_private);
    std::fflush(stdout);
  }
  return 0;
}
