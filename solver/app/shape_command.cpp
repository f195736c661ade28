// `sphero shape info FILE...` and `sphero shape outline FILE... -o OUT.vtu`.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "io/shape_outlines_vtu.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero::app {
namespace {

namespace po = boost::program_options;

constexpr const char* kShapeUsage =
    "usage: sphero shape info [--density SIGMA] FILE...\n"
    "       sphero shape outline [--resolution N] -o OUT.vtu FILE...\n";

std::vector<Shape> read_all(const std::vector<std::string>& files) {
  std::vector<Shape> shapes;
  for (const std::string& file : files) shapes.push_back(read_shape_file(file));
  return shapes;
}

// Round-off far below the shape's size prints as 0 rather than 1e-18.
double tidy(double value, double scale) { return std::abs(value) < 1e-12 * scale ? 0.0 : value; }

void print_table(const std::vector<Shape>& shapes, double density) {
  fmt::print("{:<14} {:<8} {:>5} {:>8} {:>11} {:>10} {:>10} {:>11} {:>11} {:>9} {:<6} {}\n", "name", "kind", "verts",
             "radius", "area", "com_x", "com_y", "mass", "inertia", "R", "convex", "method");
  for (const Shape& shape : shapes) {
    const bool convex = shape.has_convex_skeleton();
    const MassProperties p = mass_properties(shape);
    fmt::print("{:<14} {:<8} {:>5} {:>8.4g} {:>11.6g} {:>10.4g} {:>10.4g} {:>11.6g} {:>11.6g} {:>9.6g} {:<6} {}\n",
               shape.name, to_string(shape.kind), shape.vertices.size(), shape.radius, p.area,
               tidy(p.centroid.x, p.bounding_radius), tidy(p.centroid.y, p.bounding_radius), p.mass(density),
               p.inertia(density), p.bounding_radius, convex ? "yes" : "no", mass_properties_method(shape));
  }
  fmt::print(
      "\narea of skeleton + disk; com in the file's coordinates; mass = density * area and inertia about the\n"
      "centre of mass for density {} per unit area; R = largest distance from the centre of mass to the outline.\n",
      density);
}

}  // namespace

int run_shape_command(const std::vector<std::string>& args) {
  std::string action;
  std::vector<std::string> files;
  std::string output;
  double density = 1.0;
  int resolution = 64;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "density", po::value(&density), "areal density for mass and inertia (default 1)")(
      "output,o", po::value(&output), "output file (outline)")(
      "resolution", po::value(&resolution), "segments per full circle for arcs (outline, default 64)");
  po::options_description hidden;
  hidden.add_options()("action", po::value(&action))("files", po::value(&files));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("action", 1).add("files", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "sphero shape: " << e.what() << "\n" << kShapeUsage << options;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << kShapeUsage << options;
    return 0;
  }
  if (action != "info" && action != "outline") {
    std::cerr << "sphero shape: " << (action.empty() ? "missing action" : "unknown action '" + action + "'")
              << "; use 'info' or 'outline'\n"
              << kShapeUsage;
    return 2;
  }
  if (files.empty()) {
    std::cerr << "sphero shape " << action << ": give at least one shape file (e.g. data/shapes/*.shape)\n";
    return 2;
  }
  if (!(density > 0.0)) {
    std::cerr << "sphero shape: --density must be positive, got " << density << "\n";
    return 2;
  }
  const std::vector<Shape> shapes = read_all(files);
  if (action == "info") {
    print_table(shapes, density);
    return 0;
  }
  if (output.empty()) {
    std::cerr << "sphero shape outline: give the output file with -o OUT.vtu\n";
    return 2;
  }
  write_shape_outlines_vtu(output, shapes, resolution);
  fmt::print("wrote {} shape(s) to {}\n", shapes.size(), output);
  return 0;
}

}  // namespace sphero::app
