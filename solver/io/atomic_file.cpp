#include "io/atomic_file.h"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
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
  if (const fs::path folder = target.parent_path(); !folder.empty() && !fs::is_directory(folder))
    throw std::runtime_error(target.string() + ": cannot write it: the folder " + folder.string() + " does not exist");
  try {
    write(temporary);
    fs::rename(temporary, target);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

void write_text_atomically(const std::filesystem::path& target, const std::string& text) {
  write_atomically(target, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error(target.string() + ": cannot write (is the directory writable, the disk full?)");
  });
}

}  // namespace sphero
