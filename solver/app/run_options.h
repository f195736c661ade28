// `sphero run`'s own options; every other `--KEY VALUE` overrides a scene key.
#pragma once

#include <string>
#include <vector>

namespace sphero::app {

struct RunOptions {
  std::string scene_file;
  bool check = false, overwrite = false, quiet = false;
  bool take_over = false;  // a folder another host's process claims (io/folder_lock.h)
  std::string restart, from;
  std::vector<std::string> overrides;
};

// Throws SceneError naming the argument.
RunOptions parse_run_arguments(const std::vector<std::string>& args);

}  // namespace sphero::app
