#include "app/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace sphero::app {

ProgressLine::ProgressLine(bool quiet)
    : quiet_(quiet), terminal_(isatty(STDOUT_FILENO) != 0), start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::finish() {
  if (shown_ && terminal_) fmt::print("\n");
  shown_ = false;
}

Progress ProgressLine::callback() {
  if (quiet_) return {};
  return [this](std::string_view stage, std::size_t done, std::size_t total) { show(stage, done, total); };
}

void ProgressLine::show(std::string_view stage, std::size_t done, std::size_t total) {
  const auto now = std::chrono::steady_clock::now();
  const std::chrono::milliseconds quiet_start(2000), interval(terminal_ ? 250 : 10000);
  if (now - start_ < quiet_start || (shown_ && now - last_ < interval)) return;
  last_ = now;
  shown_ = true;
  const std::string line = total > 1 ? fmt::format("  {}: {} of {} ({:.0f}%)", stage, done, total,
                                                   100.0 * static_cast<double>(done) / static_cast<double>(total))
                                     : fmt::format("  {} ...", stage);
  if (terminal_) fmt::print("\r{:<78}", line);
  else fmt::print("{}\n", line);
  std::fflush(stdout);
}

}  // namespace sphero::app
