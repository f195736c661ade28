#include "bindings.h"

PYBIND11_MODULE(_sphero, m) {
  m.doc() = "Sphero: 2D spheropolygon discrete-element simulations, packings and analysis (docs/PYTHON.md)";
  sphero::python::bind_shapes(m);
  sphero::python::bind_scene(m);
  sphero::python::bind_simulation(m);
  sphero::python::bind_analysis(m);
  sphero::python::bind_fields(m);
  sphero::python::bind_commands(m);
}
