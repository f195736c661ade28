#include "app/data_directory.h"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <system_error>

namespace sphero::app {
namespace fs = std::filesystem;

fs::path data_directory() {
  const auto holds_shapes = [](const fs::path& dir) {
    std::error_code error;
    return fs::is_directory(dir / "shapes", error);
  };
  if (const char* set = std::getenv("SPHERO_DATA_DIR"); set != nullptr && *set != '\0') {
    if (!holds_shapes(set))
      throw std::runtime_error(std::string("SPHERO_DATA_DIR=") + set +
                               " has no shapes/ folder; unset it or point it "
                               "at Sphero's data (PREFIX/share/sphero)");
    return set;
  }
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path installed = program.parent_path().parent_path() / "share" / "sphero";
    if (holds_shapes(installed)) return installed;
  }
  if (holds_shapes(SPHERO_SOURCE_DATA_DIR)) return SPHERO_SOURCE_DATA_DIR;
  throw std::runtime_error(
      std::string("cannot find Sphero's data (shapes, scenes): looked in ") +
      (error ? std::string() : (program.parent_path().parent_path() / "share/sphero").string() + " and ") +
      SPHERO_SOURCE_DATA_DIR + "; set SPHERO_DATA_DIR to the folder holding shapes/");
}

}  // namespace sphero::app
