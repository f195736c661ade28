// What `sphero run` tells its user while and after it runs: a progress
// line (an observer of the run, run/run_observer.h), the summary, and what
// to do after a run that ended early.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

#include "engine/engine.h"
#include "io/run_output.h"
#include "run/run_driver.h"
#include "run/stepped_run.h"

namespace sphero::app {

// A progress line, every quarter second on a terminal, every ten seconds
// into a log.
class ProgressReport final : public RunObserver {
 public:
  ProgressReport(bool quiet, std::size_t grains, long first_step, long total_steps);
  void stepped(const RunPoint& at) override;
  // Ends the line on a terminal.
  void finish() const;
  double wall_seconds() const;
  double cpu_seconds_used() const;

 private:
  bool quiet_, terminal_;
  std::size_t grains_;
  long first_step_, total_;
  std::chrono::steady_clock::time_point wall_start_, last_;
  double cpu_start_;
};

// The summary of a run that reached its end. `engine`, where the run has
// one (not on ranks), adds what its model and neighbour strategy counted.
void print_summary(const RunTotals& totals, const Engine* engine, const RunOutput& output,
                   const std::filesystem::path& out, long steps, std::size_t grains, double wall, double cpu);

// For a run stopped by a signal or by an instability: what happened and
// how to go on (`continue_with`, the command that continues it;
// `frames_written` and `last_frame`, the frames in the folder and the
// number the last one's files carry). Returns the exit status: 128 + the
// signal, or 3.
int report_early_end(const RunOutcome& outcome, double time, const std::string& continue_with, double last_good_time,
                     int frames_written, int last_frame, const std::filesystem::path& out);

}  // namespace sphero::app
