// The parsing every subcommand with one positional argument shares, and
// what that argument names.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sphero::app {

// Parses `args` against `options` plus one positional argument stored in
// `positional`. Returns an exit status when the command should stop here:
// 0 after printing help for --help, 2 after a usage error (printed to
// stderr with `usage`), or when the positional argument is required and
// missing. Otherwise returns nothing and fills `vm`.
std::optional<int> parse_command_line(const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      std::string& positional, bool positional_required, const std::string& command,
                                      const std::string& usage, boost::program_options::variables_map& vm);

// Whether a command's argument names a packing or state file (FILE.vtu)
// rather than a run's directory; throws std::invalid_argument naming it
// when such a file does not exist.
bool names_a_packing_file(const std::string& argument);

// How many frames a command works on at once when --threads is 0: one per
// core, 1 to 64.
int default_thread_count();

}  // namespace sphero::app
