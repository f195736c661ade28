#include "arrays.h"

#include <stdexcept>
#include <string>

namespace sphero::python {

static_assert(sizeof(Vec2) == 2 * sizeof(double), "Vec2 must be two packed doubles to be seen as an N × 2 array");

namespace {

py::array_t<double> read_only(py::array_t<double> a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

}  // namespace

py::array_t<double> view_points(const std::vector<Vec2>& points, py::handle owner) {
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(points.size()), 2};
  const std::vector<py::ssize_t> strides{sizeof(Vec2), sizeof(double)};
  return read_only(py::array_t<double>(shape, strides, reinterpret_cast<const double*>(points.data()), owner));
}

py::array_t<double> view_values(const std::vector<double>& values, py::handle owner) {
  return read_only(
      py::array_t<double>({static_cast<py::ssize_t>(values.size())}, {sizeof(double)}, values.data(), owner));
}

py::array_t<double> copy_points(const std::vector<Vec2>& points) {
  py::array_t<double> a({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
  auto out = a.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    out(static_cast<py::ssize_t>(i), 0) = points[i].x;
    out(static_cast<py::ssize_t>(i), 1) = points[i].y;
  }
  return a;
}

std::vector<Vec2> to_points(const py::handle& object, const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(object);
  if (!a || a.ndim() != 2 || a.shape(1) != 2)
    throw std::invalid_argument(std::string(what) + ": expected an N x 2 array of points");
  std::vector<Vec2> points;
  const auto in = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i) points.push_back({in(i, 0), in(i, 1)});
  return points;
}

}  // namespace sphero::python
