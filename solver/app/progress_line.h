// A progress line for a slow step before or instead of a run (placing 10^6
// grains, a large Voronoi-Minkowski packing): silent for the first two
// seconds, then the stage and how far it is, every quarter second on a
// terminal (one line, rewritten) or every ten seconds into a log.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "packing/progress.h"

namespace sphero::app {

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet);
  ~ProgressLine();  // finish()
  // Ends a rewritten line on a terminal, before other output follows.
  void finish();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Reports into this line; it must outlive the callback's use.
  Progress callback();

 private:
  void show(std::string_view stage, std::size_t done, std::size_t total);

  bool quiet_, terminal_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sphero::app
