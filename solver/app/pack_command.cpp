// `sphero pack voronoi|gas|lattice ... -o PACKING.vtu`: makes a sample and
// writes it as a state file that `sphero run` reads (`packing = FILE`).
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "app/command_line.h"
#include "app/commands.h"
#include "app/progress_line.h"
#include "io/state_vtu.h"
#include "packing/compression.h"
#include "packing/generators.h"
#include "packing/spatial_order.h"
#include "packing/voronoi_minkowski.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"
#include "text/message_text.h"

namespace sphero::app {
namespace {

namespace po = boost::program_options;

constexpr const char* kPackUsage =
    "usage: sphero pack voronoi --box X0,Y0,X1,Y1 (--count N | --sites FILE) (--radius R | --roundness A)\n"
    "                           [--gap D | --packing-fraction F] [--periodic] [--lloyd K] [--size-spread S]\n"
    "                           [--seed S] -o OUT.vtu\n"
    "       sphero pack gas --box X0,Y0,X1,Y1 --shape FILE[:FRACTION] ... --count N --packing-fraction F\n"
    "                       [--spread S] [--speed V] [--seed S] -o OUT.vtu\n"
    "       sphero pack lattice --shape FILE --columns C --rows R --spacing D [--hexagonal] [--origin X,Y] -o OUT.vtu\n"
    "       sphero pack compress --packing IN.vtu --pressure P --kn K [--kt K --mu M] [--gamma-n G]\n"
    "                            [--friction-throughout] -o OUT.vtu\n"
    "       sphero pack deposit --packing IN.vtu --kn K [--kt K --mu M] [--gamma-n G] [--gravity G] -o OUT.vtu\n"
    "       sphero pack sort --packing IN.vtu -o OUT.vtu\n"
    "(voronoi with random sites and gas list their grains along a Hilbert curve, which the engine runs fastest\n"
    " on; sort does the same to any packing or state file, the walls keeping their body numbers)\n";

Vec2 parse_vec2(const std::string& option, const std::string& text) {
  std::istringstream in(text);
  double x = 0, y = 0;
  char comma = 0;
  if (!(in >> x >> comma >> y) || comma != ',' || !in.eof())
    throw std::invalid_argument(fmt::format("--{}: expected X,Y, found '{}'", option, text));
  if (!(std::abs(x) <= kMaxCoordinate && std::abs(y) <= kMaxCoordinate))
    throw std::invalid_argument(fmt::format("--{} {}: give coordinates within ±{:g}", option, text, kMaxCoordinate));
  return {x, y};
}

Box parse_box(const std::string& text) {
  std::istringstream in(text);
  double v[4];
  char c[3];
  if (!(in >> v[0] >> c[0] >> v[1] >> c[1] >> v[2] >> c[2] >> v[3]) || c[0] != ',' || c[1] != ',' || c[2] != ',' ||
      !(v[2] > v[0] && v[3] > v[1]))
    throw std::invalid_argument(fmt::format("--box: expected X0,Y0,X1,Y1 with X1 > X0 and Y1 > Y0, found '{}'", text));
  if (!std::all_of(v, v + 4, [](double x) { return std::abs(x) <= kMaxCoordinate; }))
    throw std::invalid_argument(fmt::format("--box {}: give coordinates within ±{:g}", text, kMaxCoordinate));
  return {{v[0], v[1]}, {v[2], v[3]}};
}

// Counts a packing may ask for: beyond them a typo (a count of 10^10, 2·10^9
// Lloyd steps) would run for days or exhaust memory before saying so.
constexpr long long kMostGrains = 10'000'000;
constexpr int kMostLloydSteps = 10'000;

// 'X Y' lines, each site finite, inside the box and given once.
std::vector<Vec2> read_sites(const std::string& file, const Box& box) {
  if (std::filesystem::is_directory(file)) throw std::invalid_argument(file + ": a folder, not a sites file");
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot open the sites file");
  std::vector<Vec2> sites;
  std::map<std::pair<double, double>, int> line_of;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::istringstream split(line);
    const std::vector<std::string> words{std::istream_iterator<std::string>(split), {}};
    if (words.empty()) continue;
    const auto x = words.size() == 2 ? parse_finite(words[0]) : std::nullopt;
    const auto y = words.size() == 2 ? parse_finite(words[1]) : std::nullopt;
    if (!x || !y)
      throw std::invalid_argument(fmt::format("{}:{}: expected two finite numbers 'X Y'", file, line_number));
    if (*x < box.low.x || *x > box.high.x || *y < box.low.y || *y > box.high.y)
      throw std::invalid_argument(
          fmt::format("{}:{}: the site ({}, {}) lies outside the box", file, line_number, *x, *y));
    if (const auto [at, fresh] = line_of.emplace(std::pair{*x, *y}, line_number); !fresh)
      throw std::invalid_argument(
          fmt::format("{}:{}: the site ({}, {}) repeats line {}", file, line_number, *x, *y, at->second));
    if (static_cast<long long>(sites.size()) == kMostGrains)
      throw std::invalid_argument(fmt::format("{}: more than {} sites", file, kMostGrains));
    sites.push_back({*x, *y});
  }
  if (sites.empty()) throw std::invalid_argument(file + ": no 'X Y' lines; a sites file lists at least one site");
  return sites;
}

int count_option(const po::variables_map& vm, const char* key) {
  const int n = vm[key].as<int>();
  if (n < 1 || n > kMostGrains)
    throw std::invalid_argument(fmt::format("--{}: {} grains; give 1 to {}", key, n, kMostGrains));
  return n;
}

int run_voronoi(const po::variables_map& vm, const std::string& output) {
  VoronoiMinkowskiOptions o;
  o.box = parse_box(vm["box"].as<std::string>());
  o.periodic = vm.count("periodic") > 0;
  if (vm.count("sites")) o.sites = read_sites(vm["sites"].as<std::string>(), o.box);
  if (vm.count("count")) o.count = count_option(vm, "count");
  o.seed = vm["seed"].as<std::uint64_t>();
  o.lloyd_steps = vm["lloyd"].as<int>();
  if (o.lloyd_steps < 0 || o.lloyd_steps > kMostLloydSteps)
    throw std::invalid_argument(
        fmt::format("--lloyd: {} steps; give 0 to {} (a few suffice)", o.lloyd_steps, kMostLloydSteps));
  o.size_spread = vm["size-spread"].as<double>();
  if (vm.count("radius")) o.radius = vm["radius"].as<double>();
  if (vm.count("roundness")) o.roundness = vm["roundness"].as<double>();
  if (vm.count("gap")) o.gap = vm["gap"].as<double>();
  if (vm.count("packing-fraction")) o.packing_fraction = vm["packing-fraction"].as<double>();
  std::vector<BodySpec> bodies;
  ProgressLine line(false);
  o.progress = line.callback();
  const VoronoiMinkowskiPacking p = voronoi_minkowski(o);
  for (const Grain& g : p.grains) {
    BodySpec b;
    b.shape = g.shape;
    b.position = mass_properties(g.shape).centroid;
    bodies.push_back(b);
    report(o.progress, "centres of mass", bodies.size(), p.grains.size());
  }
  report(o.progress, "writing the packing", 0, 1, 1);
  write_packing_vtu(output, bodies);
  line.finish();
  fmt::print("Voronoi-Minkowski packing: {} grains kept of {} cells", p.grains.size(), p.cells.size());
  if (!p.dropped.empty()) {
    fmt::print("; {} cells vanished under erosion by r + Δ and were dropped (cells", p.dropped.size());
    for (int c : p.dropped) fmt::print(" {}", c);
    fmt::print(")");
  }
  fmt::print("\n  r = {:g}, Δ = {:g}{}\n  packing fraction {:.6f}, void ratio {:.6f}\n", p.radius, p.gap,
             o.periodic ? ", periodic" : "", p.packing_fraction, p.void_ratio);
  fmt::print("  vertices per grain: mean {:.2f}, min {}, max {}; roundness r / sqrt(A/π): mean {:.4f}\n",
             p.mean_vertices, p.min_vertices, p.max_vertices, p.mean_roundness);
  fmt::print("  written to {} (use it in a scene: packing = {})\n", output, output);
  return 0;
}

int run_gas(const po::variables_map& vm, const std::string& output) {
  GasOptions o;
  o.box = parse_box(vm["box"].as<std::string>());
  for (const std::string& spec : vm["shape"].as<std::vector<std::string>>()) {
    const auto colon = spec.rfind(':');
    const bool weighted = colon != std::string::npos && colon + 1 < spec.size() &&
                          spec.find_first_not_of("0123456789.eE+-", colon + 1) == std::string::npos;
    o.shapes.push_back(read_shape_file(weighted ? spec.substr(0, colon) : spec));
    double fraction = 1.0;
    if (weighted) {
      const std::string text = spec.substr(colon + 1);
      fraction = parse_finite(text).value_or(0.0);
      if (!(fraction > 0.0))
        throw std::invalid_argument(fmt::format("--shape {}: the fraction '{}' is not a positive number", spec, text));
    }
    o.fractions.push_back(fraction);
  }
  o.count = count_option(vm, "count");
  o.packing_fraction = vm["packing-fraction"].as<double>();
  o.spread = vm["spread"].as<double>();
  o.speed = vm["speed"].as<double>();
  o.seed = vm["seed"].as<std::uint64_t>();
  const GasPacking gas = gas_packing(o);
  write_packing_vtu(output, gas.bodies);
  Vec2 momentum;
  double mass = 0.0;
  for (const BodySpec& b : gas.bodies) {
    const double m = mass_properties(b.shape).mass(b.density);
    momentum += m * b.velocity;
    mass += m;
  }
  fmt::print(
      "gas: {} grains at packing fraction {:g}, size spread {:g}, each at speed {:g} in a random direction\n"
      "  total momentum ({:.4g}, {:.4g}), i.e. a drift of {:.3g} (random directions do not cancel exactly)\n"
      "  written to {}\n",
      gas.bodies.size(), gas.packing_fraction, o.spread, o.speed, momentum.x, momentum.y, norm(momentum) / mass,
      output);
  return 0;
}

int run_lattice(const po::variables_map& vm, const std::string& output) {
  LatticeOptions o;
  o.shape = read_shape_file(vm["shape"].as<std::vector<std::string>>().front());
  o.columns = vm["columns"].as<int>();
  o.rows = vm["rows"].as<int>();
  if (o.columns < 1 || o.rows < 1 || static_cast<long long>(o.columns) * o.rows > kMostGrains)
    throw std::invalid_argument(fmt::format(
        "--columns {} --rows {}: give at least 1 of each and at most {} grains", o.columns, o.rows, kMostGrains));
  o.spacing = vm["spacing"].as<double>();
  if (!(o.spacing > 0.0 && o.spacing * std::max(o.columns, o.rows) <= kMaxCoordinate))
    throw std::invalid_argument(
        fmt::format("--spacing {:g}: give a positive spacing that keeps the lattice within "
                    "±{:g}",
                    o.spacing, kMaxCoordinate));
  o.hexagonal = vm.count("hexagonal") > 0;
  if (vm.count("origin")) o.origin = parse_vec2("origin", vm["origin"].as<std::string>());
  const auto bodies = lattice_packing(o);
  write_packing_vtu(output, bodies);
  fmt::print("lattice: {} x {} {} grains of '{}', spacing {:g}; written to {}\n", o.columns, o.rows,
             o.hexagonal ? "hexagonal" : "square", o.shape.name, o.spacing, output);
  return 0;
}

ContactLaw law_from(const po::variables_map& vm) {
  ContactLaw law;
  law.kn = vm["kn"].as<double>();
  if (vm.count("kt")) law.kt = vm["kt"].as<double>();
  if (vm.count("mu")) law.mu = vm["mu"].as<double>();
  if (vm.count("gamma-n")) law.gamma_n = vm["gamma-n"].as<double>();
  validate(law);
  return law;
}

std::vector<BodySpec> grains_of(const std::string& file) {
  std::vector<BodySpec> grains;
  for (BodySpec& b : read_state_vtu(file))
    if (!b.is_wall) grains.push_back(std::move(b));  // a compaction brings its own walls
  return grains;
}

void report(const char* what, const CompactionResult& r, const std::string& output) {
  fmt::print("{}: {} after {} steps (unbalanced force ratio {:.2g}); packing fraction {:.6f}\n", what,
             r.static_reached ? "static" : "NOT static (step limit reached)", r.steps, r.unbalanced_force_ratio,
             r.packing_fraction);
  fmt::print("  written to {}\n", output);
}

int run_compress(const po::variables_map& vm, const std::string& output) {
  CompressionOptions o;
  o.grains = grains_of(vm["packing"].as<std::string>());
  o.law = law_from(vm);
  o.pressure = vm["pressure"].as<double>();
  o.frictionless_first = !vm.count("friction-throughout");
  ProgressLine line(false);
  o.progress = line.callback();
  const CompactionResult r = compress_isotropically(o);
  line.finish();
  write_packing_vtu(output, r.bodies);
  report("isotropic compression", r, output);
  fmt::print("  plate pressures: left {:.6g}, right {:.6g}, bottom {:.6g}, top {:.6g} (target {:g})\n", r.pressure[0],
             r.pressure[1], r.pressure[2], r.pressure[3], o.pressure);
  return r.static_reached ? 0 : 4;
}

int run_deposit(const po::variables_map& vm, const std::string& output) {
  DepositionOptions o;
  o.grains = grains_of(vm["packing"].as<std::string>());
  o.law = law_from(vm);
  o.gravity = vm["gravity"].as<double>();
  ProgressLine line(false);
  o.progress = line.callback();
  const CompactionResult r = deposit_under_gravity(o);
  line.finish();
  write_packing_vtu(output, r.bodies);
  report("deposition", r, output);
  return r.static_reached ? 0 : 4;
}

// The grains re-listed along a Hilbert curve; a wall keeps its body number,
// so that a scene's references to it (set_wall, span, energy.csv's wallN)
// still hold.
int run_sort(const po::variables_map& vm, const std::string& output) {
  const std::string input = vm["packing"].as<std::string>();
  std::vector<BodySpec> bodies = read_state_vtu(input);
  // How far apart consecutive grains lie (the sizes' median is what counts,
  // not their order).
  std::vector<double> sizes;
  const auto step = [&] {
    std::vector<Vec2> centres;
    for (const BodySpec& b : bodies)
      if (!b.is_wall) centres.push_back(b.position);
    return median_listing_step(centres, sizes);
  };
  for (const BodySpec& b : bodies) {
    if (b.is_wall) continue;
    // A size from the skeleton alone: the exact mass properties of a
    // non-convex grain take milliseconds, and this is only a yardstick.
    Vec2 mean;
    for (Vec2 v : b.shape.vertices) mean += v / static_cast<double>(b.shape.vertices.size());
    sizes.push_back(2.0 * bounding_radius(b.shape, mean));
  }
  const double step_before = step();
  list_grains_along_curve(bodies);
  const double step_after = step();
  write_packing_vtu(output, bodies);
  const std::size_t walls = bodies.size() - sizes.size();
  fmt::print(
      "sorted {} grains along a Hilbert curve: consecutive grains lay a median {:.3g} grain sizes apart, now "
      "{:.3g}{}\n  written to {}\n",
      sizes.size(), step_before, step_after,
      walls == 0   ? std::string()
      : walls == 1 ? " (its wall keeps its body number)"
                   : fmt::format(" (its {} walls keep their body numbers)", walls),
      output);
  return 0;
}

// The method's own work; returns the exit status.
template <class Require>
int run_method(const std::string& method, const po::variables_map& vm, const std::string& output, Require&& require) {
  if (method == "voronoi") {
    require({"box"});
    return run_voronoi(vm, output);
  }
  if (method == "gas") {
    require({"box", "shape", "count", "packing-fraction"});
    return run_gas(vm, output);
  }
  if (method == "compress") {
    require({"packing", "pressure", "kn"});
    return run_compress(vm, output);
  }
  if (method == "sort") {
    require({"packing"});
    return run_sort(vm, output);
  }
  if (method == "deposit") {
    require({"packing", "kn"});
    return run_deposit(vm, output);
  }
  require({"shape", "columns", "rows", "spacing"});
  return run_lattice(vm, output);
}

}  // namespace

int run_pack_command(const std::vector<std::string>& args) {
  std::string method, output;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("output,o", po::value(&output), "the packing file to write (.vtu)")(
      "box", po::value<std::string>(), "X0,Y0,X1,Y1")("count", po::value<int>(), "number of sites / grains")(
      "sites", po::value<std::string>(), "file of 'X Y' lines: the Voronoi sites")(
      "radius", po::value<double>(), "sphero-radius r")("roundness", po::value<double>(), "target mean r / sqrt(A/π)")(
      "gap", po::value<double>(), "Δ: erosion beyond r (default 0: touching)")(
      "packing-fraction", po::value<double>(), "target packing fraction")(
      "periodic", "periodic tessellation (voronoi)")(
      "size-spread", po::value<double>()->default_value(0.0), "cell size spread in [0, 1): power cells (voronoi)")(
      "lloyd", po::value<int>()->default_value(0), "Lloyd steps")(
      "seed", po::value<std::uint64_t>()->default_value(1), "random seed")(
      "shape", po::value<std::vector<std::string>>(), "shape file (gas: FILE[:FRACTION], repeatable)")(
      "spread", po::value<double>()->default_value(0.0), "(A_max − A_min)/(A_max + A_min) of the areas (gas)")(
      "speed", po::value<double>()->default_value(0.0), "initial speed, random directions (gas)")(
      "columns", po::value<int>(), "lattice columns")("rows", po::value<int>(), "lattice rows")(
      "spacing", po::value<double>(), "lattice spacing")("hexagonal", "hexagonal lattice")(
      "origin", po::value<std::string>(), "X,Y of the first lattice grain")(
      "packing", po::value<std::string>(), "packing file to compact (compress, deposit) or re-list (sort)")(
      "pressure", po::value<double>(), "target pressure of the four plates (compress)")(
      "kn", po::value<double>(), "normal stiffness")("kt", po::value<double>(), "tangential stiffness")(
      "mu", po::value<double>(), "friction coefficient")(
      "gamma-n", po::value<double>(), "normal damping (default: half critical)")(
      "friction-throughout", "keep friction on while compressing (default: off, then on)")(
      "gravity", po::value<double>()->default_value(9.81), "gravity for deposition");
  po::variables_map vm;
  if (const auto stop = parse_command_line(args, options, method, false, "pack", kPackUsage, vm)) return *stop;
  const auto require = [&](std::initializer_list<const char*> keys) {
    for (const char* key : keys)
      if (!vm.count(key)) throw std::invalid_argument(fmt::format("sphero pack {}: --{} is needed", method, key));
  };
  if (method != "voronoi" && method != "gas" && method != "lattice" && method != "compress" && method != "deposit" &&
      method != "sort") {
    std::cerr << "sphero pack: " << (method.empty() ? "missing method" : "unknown method '" + method + "'")
              << "; use voronoi, gas, lattice, compress, deposit or sort\n"
              << kPackUsage;
    return 2;
  }
  if (output.empty())
    throw std::invalid_argument(fmt::format("sphero pack {}: give the output file with -o OUT.vtu", method));
  if (std::filesystem::path(output).extension() != ".vtu")
    throw std::invalid_argument(
        fmt::format("-o {}: a packing is a .vtu file (a scene's packing = reads it); name it OUT.vtu", output));
  const int status = run_method(method, vm, output, require);
  // How to look at what it wrote.
  if (status == 0)
    fmt::print(
        "  look at it: sphero figure {} (grains coloured by size; --plot packing-map for the local "
        "packing fraction)\n",
        output);
  return status;
}

}  // namespace sphero::app
