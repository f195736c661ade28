// Scenes, read from .ini text exactly as `sphero run` reads them.
#include <fmt/format.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.h"
#include "io/scene.h"

namespace sphero::python {

void bind_scene(py::module_& m) {
  py::class_<SceneConfig>(m, "Scene", "A scene (docs/SCENES.md), validated as `sphero run --check` does.")
      .def_static("from_file", &read_scene, py::arg("path"), py::arg("overrides") = std::vector<std::string>{},
                  "Reads an .ini scene; overrides are 'key=value' lines, as --key value on the command line.")
      .def_static(
          "from_text",
          [](const std::string& text, const std::filesystem::path& base, const std::string& name) {
            return parse_scene(text, name, base);
          },
          py::arg("text"), py::arg("base") = std::filesystem::path("."), py::arg("name") = "python scene",
          "Parses scene text; shape and packing paths are relative to `base`.")
      .def_readonly("duration", &SceneConfig::duration)
      .def_readonly("output_interval", &SceneConfig::output_interval)
      .def_property_readonly("output_directory", [](const SceneConfig& s) { return s.output_directory.string(); })
      .def("__repr__", [](const SceneConfig& s) {
        std::size_t grains = 0;
        for (const GrainsSpec& g : s.grains) grains += static_cast<std::size_t>(g.count);
        return fmt::format(
            "<sphero.Scene '{}': {} model, {:g} s{}, {} wall lines, {} packings, {} grains lines ({} grains)>",
            s.source, to_string(s.engine.model), s.duration,
            s.stages.empty() ? "" : fmt::format(" then {} stages", s.stages.size()), s.walls.size(), s.packings.size(),
            s.grains.size(), grains);
      });
}

}  // namespace sphero::python
