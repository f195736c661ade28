#include "app/command_line.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace sphero::app {

std::optional<int> parse_command_line(const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      std::string& positional, bool positional_required, const std::string& command,
                                      const std::string& usage, boost::program_options::variables_map& vm) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()("positional", po::value(&positional));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description order;
  order.add("positional", 1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(order).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "sphero " << command << ": " << e.what() << "\n" << usage << options;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << usage << options;
    return 0;
  }
  if (positional_required && positional.empty()) {
    std::cerr << usage << options;
    return 2;
  }
  return std::nullopt;
}

bool names_a_packing_file(const std::string& argument) {
  const std::filesystem::path path(argument);
  if (path.extension() != ".vtu" && path.extension() != ".pvtu") return false;
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument(argument +
                                ": no such packing or state file (a .vtu that sphero pack or sphero run "
                                "wrote, or a .pvtu of a run on ranks)");
  return true;
}

int default_thread_count() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u)); }

}  // namespace sphero::app
