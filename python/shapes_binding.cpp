// Shapes and their exact mass properties.
#include <pybind11/stl.h>

#include <string>

#include "arrays.h"
#include "bindings.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero::python {

void bind_shapes(py::module_& m) {
  py::class_<Shape>(m, "Shape", "A spheropolygon: a skeleton (point, segment, polyline, polygon) swept by a disk.")
      .def(py::init([](std::string name, const std::string& kind, const py::object& vertices, double radius) {
             return make_shape(
                 std::move(name), skeleton_kind_from_string(kind), to_points(vertices, "vertices"), radius);
           }),
           py::arg("name"), py::arg("kind"), py::arg("vertices"), py::arg("radius"))
      .def_readonly("name", &Shape::name)
      .def_property_readonly("kind", [](const Shape& s) { return std::string(to_string(s.kind)); })
      .def_readonly("radius", &Shape::radius)
      .def_property_readonly(
          "vertices", [](py::object self) { return view_points(self.cast<const Shape&>().vertices, self); })
      .def(
          "mass_properties",
          [](const Shape& s) {
            const MassProperties p = mass_properties(s);
            py::dict d;
            d["area"] = p.area;
            d["centroid"] = copy_points({p.centroid}).attr("reshape")(2);
            d["polar_moment"] = p.polar_moment;
            d["bounding_radius"] = p.bounding_radius;
            return d;
          },
          "Exact area, centre of mass, polar second moment about it (inertia per unit density) and "
          "bounding radius.")
      .def("__repr__", [](const Shape& s) {
        return "<sphero.Shape '" + s.name + "' " + std::string(to_string(s.kind)) + ", " +
               std::to_string(s.vertices.size()) + " vertices, radius " + std::to_string(s.radius) + ">";
      });
  m.def(
      "read_shape", [](const std::string& path) { return read_shape_file(path); }, py::arg("path"),
      "A .shape file (docs/FILE-FORMATS.md).");
}

}  // namespace sphero::python
