#include "app/bench_record.h"

#include "text/csv_row.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace sphero::app {

void print_bench_record(const BenchRecord& record, bool csv, bool& header_printed) {
  std::string line;
  if (csv) {
    if (!header_printed) {
      for (const auto& [key, value] : record) line += fmt::format("{}{}", line.empty() ? "" : ",", key);
      fmt::print("{}\n", line);
      line.clear();
      header_printed = true;
    }
    for (const auto& [key, value] : record) {
      std::string bare = value;
      bare.erase(std::remove(bare.begin(), bare.end(), '"'), bare.end());
      line += fmt::format("{}{}", line.empty() ? "" : ",", csv_field(bare));
    }
  } else {
    for (const auto& [key, value] : record) line += fmt::format("{}\"{}\": {}", line.empty() ? "{" : ", ", key, value);
    line += "}";
  }
  fmt::print("{}\n", line);
  std::fflush(stdout);
}

double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace sphero::app
