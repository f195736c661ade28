// NumPy arrays in and out: points (N × 2 float64) and plain vectors.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

#include "geometry/vec2.h"

namespace sphero::python {

namespace py = pybind11;

// A read-only view of `points` (no copy), kept alive by `owner`.
py::array_t<double> view_points(const std::vector<Vec2>& points, py::handle owner);
// The same for a vector of numbers.
py::array_t<double> view_values(const std::vector<double>& values, py::handle owner);
// Copies, for data made on the fly.
py::array_t<double> copy_points(const std::vector<Vec2>& points);
template <typename T>
py::array_t<T> copy_values(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}
// An (N, 2) array (or a list of pairs) as points; throws std::invalid_argument
// naming `what` for another shape.
std::vector<Vec2> to_points(const py::handle& array, const char* what);

}  // namespace sphero::python
