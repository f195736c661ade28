// What `sphero bench` prints and times with, shared by the soft scenes'
// cases and the rigid model's heap: a record is (key, value) pairs, the
// values already formatted (strings quoted for JSON).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sphero::app {

using BenchRecord = std::vector<std::pair<const char*, std::string>>;

// One JSON object per line, or CSV rows after a header printed once
// (`header_printed` says whether it was; quotes are dropped in CSV).
void print_bench_record(const BenchRecord& record, bool csv, bool& header_printed);

double cpu_now();   // process CPU seconds
double wall_now();  // steady-clock seconds

}  // namespace sphero::app
