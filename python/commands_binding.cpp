// The command line's commands, run in-process: packings are made and runs
// analysed by the very code `sphero pack` and `sphero analyze` run.
#include <pybind11/stl.h>

#include <stdexcept>

#include "app/commands.h"
#include "bindings.h"

namespace sphero::python {

void bind_commands(py::module_& m) {
  m.def(
      "command",
      [](const std::string& name, const std::vector<std::string>& args) {
        int status = 0;
        {
          py::gil_scoped_release release;
          if (name == "pack") status = app::run_pack_command(args);
          else if (name == "analyze") status = app::run_analyze_command(args);
          else if (name == "figure") status = app::run_figure_command(args);
          else if (name == "run") status = app::run_run_command(args);
          else if (name == "shape") status = app::run_shape_command(args);
          else
            throw std::invalid_argument("command: unknown command '" + name +
                                        "'; use pack, analyze, figure, run or shape");
        }
        if (status != 0) throw std::runtime_error("sphero " + name + " stopped with status " + std::to_string(status));
      },
      py::arg("name"), py::arg("args"),
      "Runs `sphero NAME ARGS...` in this process; its errors raise with the command line's messages.");
}

}  // namespace sphero::python
