// Files are written whole or not at all: write beside the target under a
// temporary name, then rename over it (atomic on POSIX file systems).
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace sphero {

// Calls write(temporary_path); on success renames the temporary file to
// `target`; on any exception removes it and rethrows. The temporary file
// lives in the target's directory so that the rename never crosses devices.
void write_atomically(const std::filesystem::path& target,
                      const std::function<void(const std::filesystem::path&)>& write);

// A whole text file, the same way.
void write_text_atomically(const std::filesystem::path& target, const std::string& text);

}  // namespace sphero
