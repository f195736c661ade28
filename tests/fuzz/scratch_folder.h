// A fuzz target's scratch folder, made once per process under /tmp
// (tests/fuzz/run removes them), empty or with the files of `source`
// copied in.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

inline std::filesystem::path scratch_folder(const std::string& name) {
  const std::filesystem::path dir = "/tmp/sphero-fuzz-" + name + "-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path scratch_folder_with(const std::string& name, const std::filesystem::path& source) {
  const std::filesystem::path dir = scratch_folder(name);
  for (const auto& entry : std::filesystem::directory_iterator(source))
    std::filesystem::copy_file(
        entry.path(), dir / entry.path().filename(), std::filesystem::copy_options::overwrite_existing);
  return dir;
}
