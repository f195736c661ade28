#include "io/atomic_file.h"

#include <unistd.h>

#include <string>
#include <system_error>

namespace sphero {

void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path&)>& write) {
  namespace fs = std::filesystem;
  // Hidden, and unique per process, so that concurrent runs never share it.
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp";
  name += std::to_string(::getpid());
  const fs::path temporary = target.parent_path() / name;
  try {
    write(temporary);
    fs::rename(temporary, target);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace sphero
