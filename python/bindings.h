// The parts of the `sphero` Python module, each in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace sphero::python {

namespace py = pybind11;

void bind_shapes(py::module_& m);
void bind_scene(py::module_& m);
void bind_simulation(py::module_& m);
void bind_analysis(py::module_& m);
void bind_fields(py::module_& m);
void bind_commands(py::module_& m);

}  // namespace sphero::python
