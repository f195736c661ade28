#include "bench/machine_probe.h"

#include "engine/thread_team.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace sphero::bench {

double core_round_trip_ns() {
  // On one core each hand-over would wait for the scheduler's time slice.
  if (ThreadTeam::usable_cores() < 2) return std::nan("");
  constexpr int kBatches = 5, kRounds = 4000;
  struct alignas(64) Ball {
    std::atomic<long> value{0};
  };
  Ball ball;
  // The other thread answers each odd value with the next even one.
  std::thread other([&] {
    for (long k = 0; k < long{kBatches} * kRounds; ++k) {
      while (ball.value.load(std::memory_order_acquire) != 2 * k + 1) ThreadTeam::pause();
      ball.value.store(2 * k + 2, std::memory_order_release);
    }
  });
  std::array<double, kBatches> batch{};
  long k = 0;
  for (double& ns : batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < kRounds; ++r, ++k) {
      ball.value.store(2 * k + 1, std::memory_order_release);
      while (ball.value.load(std::memory_order_acquire) != 2 * k + 2) ThreadTeam::pause();
    }
    ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / kRounds;
  }
  other.join();
  std::nth_element(batch.begin(), batch.begin() + kBatches / 2, batch.end());
  return batch[kBatches / 2];
}

}  // namespace sphero::bench
