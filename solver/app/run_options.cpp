#include "app/run_options.h"

#include <fmt/format.h>

#include "io/scene.h"

namespace sphero::app {

RunOptions parse_run_arguments(const std::vector<std::string>& args) {
  RunOptions o;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a == "--check") {
      o.check = true;
    } else if (a == "--overwrite") {
      o.overwrite = true;
    } else if (a == "--take-over") {
      o.take_over = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--restart") {
      if (k + 1 >= args.size() || args[k + 1].empty())
        throw SceneError("command line: --restart needs a checkpoint file");
      o.restart = args[++k];
    } else if (a == "--from") {
      if (k + 1 >= args.size() || args[k + 1].empty()) throw SceneError("command line: --from needs a checkpoint file");
      o.from = args[++k];
    } else if (a.rfind("--", 0) == 0) {
      o.overrides.push_back(a);
      if (k + 1 < args.size() && a.find('=') == std::string::npos) o.overrides.push_back(args[++k]);
    } else if (a.empty()) {
      throw SceneError("command line: an empty scene file name (leave it out for the built-in scene)");
    } else if (o.scene_file.empty()) {
      o.scene_file = a;
    } else {
      throw SceneError(fmt::format("command line: a second scene file '{}'; give one", a));
    }
  }
  return o;
}

}  // namespace sphero::app
