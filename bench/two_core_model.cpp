// A model of what two threads can gain on one small step, stripped of
// everything but the way the step is shared (docs/PERFORMANCE.md, "Two
// threads at 10³: what the machine allows"): 1000 bodies in rows of 32,
// their state in arrays as the engine's World keeps it, candidate pairs
// along each row and between rows, and per step the engine's three jobs
// through its ThreadTeam:
//  1. kick and drift, each member its half of the bodies;
//  2. the pairs, each member the pairs whose lower body is its own, adding
//     forces only to its own bodies; the second member first evaluates again
//     the first member's pairs that reach into its half (Split::foreign);
//  3. kick, each member its half.
// The pairs' work is a chain of multiply-adds: 32 make a step about as long
// as one of 1000 settled disks (70–90 µs on one core), 60 about as long as
// one of 1000 hexagons or cows.
//
// Three ways to lay out the data, each with three jobs a step and with two
// (the last kick done at the start of the next step's first job):
//  - shared: one set of arrays, as the engine does; the 32 bodies on either
//    side of the border are written by one core and read by the other,
//    where and when the work reaches them;
//  - ghosts: a set each, and each member hands its 64 border bodies' state
//    to the other in one contiguous block per step (a domain decomposition);
//  - private: a set each and nothing handed over (wrong physics; what the
//    hand-offs alone cost).
// Printed per round (blocks of steps alternated between the variants, since
// this VM's speed drifts within seconds): the cores' cache-line round trip,
// one thread's step, and the speed-up of each variant.
//
// Run: build/bench/sphero_two_core_model [rounds] [steps] [work per pair]
#include <algorithm>
#include <array>
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
constexpr int kBorder = 2 * kRow;  // bodies on each side that the other half reads
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

// A member's border bodies as the other member reads them.
struct alignas(64) Outbox {
  Vec position[kBorder], orientation[kBorder], velocity[kBorder];
  double angular_velocity[kBorder];
};

int border_start(int member) { return member == 0 ? kFirstOfSecondHalf - kBorder : kFirstOfSecondHalf; }

void post(const Bodies& b, int member, Outbox& out) {
  for (int k = 0, i = border_start(member); k < kBorder; ++k, ++i) {
    out.position[k] = b.position[i], out.orientation[k] = b.orientation[i];
    out.velocity[k] = b.velocity[i], out.angular_velocity[k] = b.angular_velocity[i];
  }
}

void collect(Bodies& b, int member, const Outbox& in) {
  for (int k = 0, i = border_start(1 - member); k < kBorder; ++k, ++i) {
    b.position[i] = in.position[k], b.orientation[i] = in.orientation[k];
    b.velocity[i] = in.velocity[k], b.angular_velocity[i] = in.angular_velocity[k];
  }
}

struct Pair {
  int lower, higher;
};

struct Pairs {
  std::vector<Pair> all;
  int first_of_second_run = 0;       // pairs are sorted by their lower body
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

void evaluate(Bodies& b, const Pair& p, int run, bool alone, int work) {
  const int i = p.lower, j = p.higher;
  const Vec d{b.position[j].x - b.position[i].x + 0.01 * b.orientation[j].x,
              b.position[j].y - b.position[i].y + 0.01 * b.orientation[i].y};
  const double r = std::sqrt(d.x * d.x + d.y * d.y + 1e-12);
  const double approach = (b.velocity[j].x - b.velocity[i].x) * d.x + (b.velocity[j].y - b.velocity[i].y) * d.y +
                          b.angular_velocity[i] - b.angular_velocity[j];
  double f = (1.0 - r) * 1e3 - 0.1 * approach;
  for (int k = 0; k < work; ++k) f = f * 0.999999 + 1e-9;
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

struct Variant {
  std::array<Bodies*, 2> sets;  // the arrays member 0 and member 1 work on
  bool ghosts = false;          // border bodies handed over in one block a step
  bool two_jobs = false;        // the last kick in the next step's first job
};

class Model {
 public:
  Model(const Pairs& pairs, int work) : pairs_(pairs), work_(work) {}

  // One step of the variant with `threads` threads (one: the plain step).
  void step(const Variant& v, int threads) {
    const bool alone = threads == 1, fused = v.two_jobs && !alone, ghosts = v.ghosts && !alone;
    ThreadTeam::run(threads, [&](int member, int) {
      Bodies& b = *v.sets[static_cast<std::size_t>(member)];
      if (fused) last_kick(b, member, alone);
      first_kick_and_drift(b, member, alone);
      if (ghosts) post(b, member, outbox_[member]);
    });
    ThreadTeam::run(threads, [&](int member, int) {
      Bodies& b = *v.sets[static_cast<std::size_t>(member)];
      if (ghosts) collect(b, member, outbox_[1 - member]);
      if (!alone && member == 1)
        for (int k : pairs_.reaching_across) evaluate(b, pairs_.all[static_cast<std::size_t>(k)], 1, false, work_);
      const int count = static_cast<int>(pairs_.all.size());
      const int first = alone || member == 0 ? 0 : pairs_.first_of_second_run;
      const int end = alone || member == 1 ? count : pairs_.first_of_second_run;
      for (int k = first; k < end; ++k) evaluate(b, pairs_.all[static_cast<std::size_t>(k)], member, alone, work_);
    });
    if (!fused)
      ThreadTeam::run(threads, [&](int member, int) { last_kick(*v.sets[static_cast<std::size_t>(member)], member, alone); });
  }

  double microseconds_per_step(const Variant& v, int threads, int steps) {
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; ++s) step(v, threads);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / steps;
  }

 private:
  static std::pair<int, int> half(int member, bool alone) {
    if (alone) return {0, kBodies};
    return member == 0 ? std::pair{0, kFirstOfSecondHalf} : std::pair{kFirstOfSecondHalf, kBodies};
  }

  static void first_kick_and_drift(Bodies& b, int member, bool alone) {
    const auto [first, end] = half(member, alone);
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
  }

  static void last_kick(Bodies& b, int member, bool alone) {
    const auto [first, end] = half(member, alone);
    double kinetic = 0.0;
    for (int i = first; i < end; ++i) {
      b.velocity[i].x += 0.5 * kDt * b.force[i].x, b.velocity[i].y += 0.5 * kDt * b.force[i].y;
      b.angular_velocity[i] += 0.5 * kDt * b.torque[i];
      kinetic += b.velocity[i].x * b.velocity[i].x + b.velocity[i].y * b.velocity[i].y;
    }
    b.books[member][0] = kinetic;
  }

  const Pairs& pairs_;
  const int work_;
  Outbox outbox_[2];
};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
  const int work = argc > 3 ? std::max(0, std::atoi(argv[3])) : 32;
  const Pairs pairs;
  const auto model = std::make_unique<Model>(pairs, work);
  std::printf(
      "round_trip_ns,one_thread_us,shared_3_jobs,ghosts_3_jobs,private_3_jobs,shared_2_jobs,ghosts_2_jobs,"
      "private_2_jobs\n");
  for (int round = 0; round < rounds; ++round) {
    const double round_trip = sphero::bench::core_round_trip_ns();
    // Fresh arrays each round; the shared set is stepped by one thread and
    // by two in turn.
    std::array<std::unique_ptr<Bodies>, 5> arrays;
    for (auto& a : arrays) a = std::make_unique<Bodies>();
    const Variant one{{arrays[0].get(), arrays[0].get()}};
    std::vector<Variant> variants;
    for (const bool two_jobs : {false, true}) {
      variants.push_back({{arrays[0].get(), arrays[0].get()}, false, two_jobs});
      variants.push_back({{arrays[1].get(), arrays[2].get()}, true, two_jobs});
      variants.push_back({{arrays[3].get(), arrays[4].get()}, false, two_jobs});
    }
    constexpr int kBlocks = 10;
    const int block = std::max(1, steps / kBlocks);
    double one_thread = 0.0;
    std::vector<double> two_threads(variants.size(), 0.0);
    for (int k = 0; k < kBlocks; ++k) {
      one_thread += model->microseconds_per_step(one, 1, block);
      for (std::size_t v = 0; v < variants.size(); ++v) two_threads[v] += model->microseconds_per_step(variants[v], 2, block);
    }
    std::printf("%.0f,%.1f", round_trip, one_thread / kBlocks);
    for (const double t : two_threads) std::printf(",%.3f", one_thread / t);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
