// One function per `sphero` subcommand. Each gets the arguments after its
// name and returns the process exit status; errors in the arguments or the
// inputs are reported on stderr with what to do about them.
#pragma once

#include <string>
#include <vector>

namespace sphero::app {

int run_shape_command(const std::vector<std::string>& args);
int run_run_command(const std::vector<std::string>& args);
int run_pack_command(const std::vector<std::string>& args);
int run_figure_command(const std::vector<std::string>& args);
int run_analyze_command(const std::vector<std::string>& args);
int run_bench_command(const std::vector<std::string>& args);
int run_plot_command(const std::vector<std::string>& args);
int run_coarse_grain_command(const std::vector<std::string>& args);

}  // namespace sphero::app
