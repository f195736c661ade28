#include "io/scene.h"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <sstream>

#include "geometry/segment.h"
#include "geometry/uniform.h"
#include "packing/random_placement.h"
#include "io/state_vtu.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

namespace po = boost::program_options;

// Keys that take one value, and keys that may be given many times.
const std::vector<std::pair<const char*, const char*>> kScalarKeys{
    {"duration", "simulated time to run, s (required)"},
    {"dt", "time step, s, or 'auto' (default: 1/50 of the shortest contact period)"},
    {"integrator", "verlet | gear (default verlet)"},
    {"verlet_distance", "neighbour-list skin per body, m, or 'auto' (default: 5% of the smallest grain size)"},
    {"allow_large_time_step", "true to accept dt above a tenth of the contact period (default false)"},
    {"gravity", "gx,gy in m/s² (default 0,0)"},
    {"seed", "random seed of the generators (default 1)"},
    {"threads", "worker threads (default 1); results are bit-identical whatever the number"},
    {"periodic", "none | x | y | xy (default none)"},
    {"cell", "x0,y0,x1,y1: the periodic cell"},
    {"output", "output directory (default sphero-output)"},
    {"output_interval", "simulated time between frames, s (default duration/100)"},
    {"fields", "what each frame holds: particles,contacts,walls,state (default all four)"},
    {"arc_resolution", "chords per full circle in drawn outlines (default 24)"},
    {"checkpoint_interval", "simulated time between checkpoints, s (default 0: at the end and on Ctrl-C)"},
    {"contact_lists", "false: evaluate every vertex pair of neighbouring particles each step, not only those "
                      "within reach (the same forces, for timing; default true)"},
};
const std::vector<std::pair<const char*, const char*>> kListKeys{
    {"law", "A B linear|hertz kn=.. [kt=..] [mu=..] [gamma_n=..] [gamma_t=..] [cohesion=..]: the law between materials A and B"},
    {"wall", "points=x,y;x,y;.. radius=.. [material=..] [density=..] [velocity=vx,vy | pressure=p inward=ix,iy "
             "[velocity=..] [span=A,B]]"},
    {"set_wall", "N remove | N fixed | N velocity=vx,vy | N pressure=p inward=ix,iy [velocity=..] [span=A,B] [material=M]: "
                 "change wall N (its body number, as energy.csv's wallN), e.g. one that came with a packing"},
    {"packing", "FILE.vtu: bodies from a state file written by sphero run (state_NNNNN.vtu)"},
    {"grains", "shape=FILE count=N region=x0,y0,x1,y1 [generator=lattice|random] [material=..] [density=..] "
               "[speed=..] [angle=random|DEGREES]"},
};

// Where each key appears in the scene file, in order.
std::map<std::string, std::vector<int>> scan_lines(const std::string& text, const std::string& source) {
  std::map<std::string, std::vector<int>> lines;
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = line.substr(0, line.find('#'));
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '[')
      throw SceneError(fmt::format("{}:{}: sections are not used in Sphero scenes; write 'key = value' lines",
                                   source, number));
    const auto equals = line.find('=');
    if (equals == std::string::npos)
      throw SceneError(fmt::format("{}:{}: expected 'key = value'", source, number));
    std::string key = line.substr(first, equals - first);
    key.erase(key.find_last_not_of(" \t") + 1);
    lines[key].push_back(number);
  }
  return lines;
}

struct Value {
  std::string text;
  SceneLocation at;
};

[[noreturn]] void fail(const SceneLocation& at, const std::string& key, const std::string& message) {
  throw SceneError(fmt::format("{}: {}: {}", at.where, key, message));
}

double number(const Value& v, const std::string& key, std::string_view text) {
  double x = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(x))
    fail(v.at, key, fmt::format("expected a number, found '{}'", text));
  return x;
}

double positive(const Value& v, const std::string& key, std::string_view text) {
  const double x = number(v, key, text);
  if (!(x > 0.0)) fail(v.at, key, fmt::format("must be positive, found {}", text));
  return x;
}

int whole(const Value& v, const std::string& key, std::string_view text, int low) {
  const double x = number(v, key, text);
  if (x != std::floor(x) || x < low || x > 1e9)
    fail(v.at, key, fmt::format("expected a whole number >= {}, found '{}'", low, text));
  return static_cast<int>(x);
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text) {
    if (c == separator) {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  return parts;
}

std::vector<double> numbers(const Value& v, const std::string& key, std::string_view text, std::size_t count) {
  const auto parts = split(text, ',');
  if (parts.size() != count) fail(v.at, key, fmt::format("expected {} comma-separated numbers, found '{}'", count, text));
  std::vector<double> out;
  for (const auto& p : parts) out.push_back(number(v, key, p));
  return out;
}

Vec2 vec2(const Value& v, const std::string& key, std::string_view text) {
  const auto xy = numbers(v, key, text, 2);
  return {xy[0], xy[1]};
}

bool boolean(const Value& v, const std::string& key) {
  if (v.text == "true" || v.text == "yes" || v.text == "1") return true;
  if (v.text == "false" || v.text == "no" || v.text == "0") return false;
  fail(v.at, key, fmt::format("expected true or false, found '{}'", v.text));
}

// "k=v k=v ..." with the allowed keys; positional words before them.
std::map<std::string, std::string> tokens(const Value& v, const std::string& key, const std::vector<std::string>& allowed,
                                          std::vector<std::string>* positional = nullptr) {
  std::map<std::string, std::string> out;
  std::istringstream words(v.text);
  for (std::string word; words >> word;) {
    const auto equals = word.find('=');
    if (equals == std::string::npos) {
      if (positional && out.empty()) {
        positional->push_back(word);
        continue;
      }
      fail(v.at, key, fmt::format("expected name=value, found '{}'", word));
    }
    const std::string name = word.substr(0, equals);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(v.at, key, fmt::format("unknown setting '{}'; the settings are {}", name, list));
    }
    if (out.count(name)) fail(v.at, key, fmt::format("'{}' is given twice", name));
    out[name] = word.substr(equals + 1);
  }
  return out;
}

LawSpec parse_law(const Value& v) {
  std::vector<std::string> words;
  const auto t = tokens(v, "law", {"kn", "kt", "mu", "gamma_n", "gamma_t", "cohesion"}, &words);
  if (words.size() != 3) fail(v.at, "law", "expected 'A B linear|hertz kn=...' (two materials, then the law's name)");
  LawSpec spec{v.at, whole(v, "law", words[0], 0), whole(v, "law", words[1], 0), {}};
  try {
    spec.law.normal = normal_law_from_string(words[2]);
  } catch (const std::invalid_argument& e) {
    fail(v.at, "law", e.what());
  }
  if (!t.count("kn")) fail(v.at, "law", "missing kn=... (the normal stiffness)");
  const auto get = [&](const char* name, double fallback) { return t.count(name) ? number(v, "law", t.at(name)) : fallback; };
  spec.law.kn = get("kn", 0.0);
  spec.law.kt = get("kt", 0.0);
  spec.law.mu = get("mu", 0.0);
  spec.law.gamma_n = get("gamma_n", 0.0);
  spec.law.gamma_t = get("gamma_t", 0.0);
  spec.law.cohesion = get("cohesion", 0.0);
  if (spec.law.kt > 0.0 && !t.count("mu")) fail(v.at, "law", "kt > 0 needs a friction coefficient mu=...");
  try {
    validate(spec.law);
  } catch (const std::invalid_argument& e) {
    fail(v.at, "law", e.what());
  }
  return spec;
}

// The motion settings shared by `wall` and `set_wall`.
WallMotion parse_motion(const Value& v, const std::string& key, const std::map<std::string, std::string>& t) {
  WallMotion m;
  if (t.count("velocity")) m.velocity = vec2(v, key, t.at("velocity"));
  if (t.count("inward") && !t.count("pressure")) fail(v.at, key, "inward= goes with pressure=");
  if (t.count("span") && !t.count("pressure")) fail(v.at, key, "span= goes with pressure=");
  if (!t.count("pressure")) return m;
  if (!t.count("inward")) fail(v.at, key, "a pressure plate needs inward=ix,iy (the direction it pushes)");
  m.pressure = number(v, key, t.at("pressure"));
  m.inward = vec2(v, key, t.at("inward"));
  // The plate moves freely along inward; a velocity may only slide it across.
  if (m.velocity && dot(*m.velocity, m.inward) != 0.0)
    fail(v.at, key, "a pressure plate moves freely along inward=; its velocity= must be across it (a shear plate)");
  if (t.count("span")) {
    const auto ab = split(t.at("span"), ',');
    if (ab.size() != 2) fail(v.at, key, fmt::format("span= takes two wall numbers A,B, found '{}'", t.at("span")));
    m.span = std::array<int, 2>{whole(v, key, ab[0], 0), whole(v, key, ab[1], 0)};
  }
  return m;
}

const std::vector<std::string> kMotionSettings{"velocity", "pressure", "inward", "span"};

WallSpec parse_wall(const Value& v) {
  std::vector<std::string> allowed{"points", "radius", "material", "density"};
  allowed.insert(allowed.end(), kMotionSettings.begin(), kMotionSettings.end());
  const auto t = tokens(v, "wall", allowed);
  WallSpec w;
  w.at = v.at;
  if (!t.count("points")) fail(v.at, "wall", "missing points=x,y;x,y;...");
  if (!t.count("radius")) fail(v.at, "wall", "missing radius=...");
  for (const auto& p : split(t.at("points"), ';')) w.points.push_back(vec2(v, "wall", p));
  if (w.points.size() < 2) fail(v.at, "wall", "a wall needs at least two points");
  w.radius = positive(v, "wall", t.at("radius"));
  if (t.count("material")) w.material = whole(v, "wall", t.at("material"), 0);
  if (t.count("density")) w.density = positive(v, "wall", t.at("density"));
  w.motion = parse_motion(v, "wall", t);
  return w;
}

WallChange parse_wall_change(const Value& v) {
  std::vector<std::string> words;
  std::vector<std::string> allowed = kMotionSettings;
  allowed.push_back("material");
  auto t = tokens(v, "set_wall", allowed, &words);
  const bool keyword = words.size() == 2 && (words[1] == "remove" || words[1] == "fixed");
  if (words.empty() || words.size() > 2 || (words.size() == 2 && !keyword))
    fail(v.at, "set_wall", "expected 'N remove', 'N fixed' or 'N velocity=.. | pressure=.. inward=..' (N: the wall's number)");
  WallChange c;
  c.at = v.at;
  c.wall = whole(v, "set_wall", words[0], 0);
  c.remove = keyword && words[1] == "remove";
  if (t.count("material")) {
    if (c.remove) fail(v.at, "set_wall", "a removed wall takes no settings");
    c.material = whole(v, "set_wall", t.at("material"), 0);
    t.erase("material");
  }
  if (keyword && !t.empty()) fail(v.at, "set_wall", fmt::format("'{}' takes no settings", words[1]));
  if (!keyword && t.empty() && !c.material)
    fail(v.at, "set_wall", "say how the wall moves: velocity=, pressure= inward=, fixed or remove");
  c.motion = parse_motion(v, "set_wall", t);
  return c;
}

GrainsSpec parse_grains(const Value& v, const std::filesystem::path& base) {
  const auto t = tokens(v, "grains", {"shape", "count", "generator", "region", "material", "density", "speed", "angle"});
  GrainsSpec g;
  g.at = v.at;
  for (const char* needed : {"shape", "count", "region"})
    if (!t.count(needed)) fail(v.at, "grains", fmt::format("missing {}=...", needed));
  g.shape_file = base / t.at("shape");
  g.count = whole(v, "grains", t.at("count"), 1);
  const auto r = numbers(v, "grains", t.at("region"), 4);
  if (!(r[2] > r[0] && r[3] > r[1])) fail(v.at, "grains", "region=x0,y0,x1,y1 needs x1 > x0 and y1 > y0");
  std::copy(r.begin(), r.end(), g.region);
  if (t.count("generator")) {
    g.generator = t.at("generator");
    if (g.generator != "lattice" && g.generator != "random")
      fail(v.at, "grains", fmt::format("unknown generator '{}'; use lattice or random", g.generator));
  }
  if (t.count("material")) g.material = whole(v, "grains", t.at("material"), 0);
  if (t.count("density")) g.density = positive(v, "grains", t.at("density"));
  if (t.count("speed")) g.speed = number(v, "grains", t.at("speed"));
  if (t.count("angle") && t.at("angle") != "random") {
    g.random_angle = false;
    g.angle = number(v, "grains", t.at("angle"));
  }
  return g;
}

po::options_description scene_options() {
  po::options_description options("scene keys");
  for (const auto& [key, help] : kScalarKeys) options.add_options()(key, po::value<std::string>(), help);
  for (const auto& [key, help] : kListKeys) options.add_options()(key, po::value<std::vector<std::string>>(), help);
  return options;
}

}  // namespace

std::string scene_keys_help() {
  std::ostringstream out;
  out << scene_options();
  return out.str();
}

SceneConfig parse_scene(const std::string& text, const std::string& source, const std::filesystem::path& base,
                        const std::vector<std::string>& overrides) {
  const auto lines = scan_lines(text, source);
  const po::options_description options = scene_options();
  po::variables_map from_file, from_command_line;
  try {
    std::istringstream in(text);
    po::store(po::parse_config_file(in, options, false), from_file);
  } catch (const po::unknown_option& e) {
    std::string key = e.get_option_name();
    const auto at = lines.find(key);
    throw SceneError(fmt::format("{}:{}: unknown key '{}'; `sphero run --help` lists the keys", source,
                                 at != lines.end() ? at->second.front() : 0, key));
  } catch (const po::multiple_occurrences& e) {
    const std::string key = e.get_option_name();
    const auto at = lines.find(key);
    throw SceneError(fmt::format("{}:{}: '{}' is given more than once; it takes one value", source,
                                 at != lines.end() ? at->second.back() : 0, key));
  } catch (const po::error& e) {
    throw SceneError(fmt::format("{}: {}", source, e.what()));
  }
  try {
    po::store(po::command_line_parser(overrides).options(options).run(), from_command_line);
  } catch (const po::error& e) {
    throw SceneError(fmt::format("command line: {}; `sphero run --help` lists the keys", e.what()));
  }

  // A scalar from the command line wins over the file.
  const auto scalar = [&](const std::string& key) -> std::optional<Value> {
    if (from_command_line.count(key))
      return Value{from_command_line[key].as<std::string>(), {"command line --" + key}};
    if (from_file.count(key))
      return Value{from_file[key].as<std::string>(), {fmt::format("{}:{}", source, lines.at(key).front())}};
    return std::nullopt;
  };
  // Lists: the file's entries, then the command line's.
  const auto list = [&](const std::string& key) {
    std::vector<Value> values;
    if (from_file.count(key)) {
      const auto& items = from_file[key].as<std::vector<std::string>>();
      for (std::size_t i = 0; i < items.size(); ++i)
        values.push_back({items[i], {fmt::format("{}:{}", source, lines.at(key)[i])}});
    }
    if (from_command_line.count(key))
      for (const auto& item : from_command_line[key].as<std::vector<std::string>>())
        values.push_back({item, {"command line --" + key}});
    return values;
  };

  SceneConfig scene;
  scene.source = source;
  const auto duration = scalar("duration");
  if (!duration) throw SceneError(fmt::format("{}: missing 'duration = SECONDS' (how much time to simulate)", source));
  scene.duration = positive(*duration, "duration", duration->text);
  if (const auto v = scalar("dt"); v && v->text != "auto") scene.engine.dt = positive(*v, "dt", v->text);
  if (const auto v = scalar("integrator")) {
    try {
      scene.engine.integrator = integrator_from_string(v->text);
    } catch (const std::invalid_argument& e) {
      fail(v->at, "integrator", e.what());
    }
  }
  if (const auto v = scalar("verlet_distance"); v && v->text != "auto")
    scene.engine.verlet_distance = positive(*v, "verlet_distance", v->text);
  if (const auto v = scalar("allow_large_time_step")) scene.engine.allow_large_time_step = boolean(*v, "allow_large_time_step");
  if (const auto v = scalar("contact_lists")) scene.engine.contact_lists = boolean(*v, "contact_lists");
  if (const auto v = scalar("gravity")) scene.gravity = vec2(*v, "gravity", v->text);
  if (const auto v = scalar("seed")) scene.seed = static_cast<std::uint64_t>(whole(*v, "seed", v->text, 0));
  if (const auto v = scalar("threads")) {
    scene.threads = whole(*v, "threads", v->text, 1);
    if (scene.threads > 256) fail(v->at, "threads", "at most 256 threads");
  }
  if (const auto v = scalar("periodic")) {
    if (v->text == "x" || v->text == "xy") scene.cell.periodic[0] = true;
    if (v->text == "y" || v->text == "xy") scene.cell.periodic[1] = true;
    if (v->text != "none" && v->text != "x" && v->text != "y" && v->text != "xy")
      fail(v->at, "periodic", fmt::format("expected none, x, y or xy, found '{}'", v->text));
    const auto cell = scalar("cell");
    if (v->text != "none") {
      if (!cell) fail(v->at, "periodic", "a periodic scene needs 'cell = x0,y0,x1,y1'");
      const auto c = numbers(*cell, "cell", cell->text, 4);
      if (!(c[2] > c[0] && c[3] > c[1])) fail(cell->at, "cell", "needs x1 > x0 and y1 > y0");
      scene.cell.low = {c[0], c[1]};
      scene.cell.size = {c[2] - c[0], c[3] - c[1]};
    }
  }
  if (const auto v = scalar("output")) scene.output_directory = v->text;
  scene.output_interval = scene.duration / 100.0;
  if (const auto v = scalar("output_interval")) scene.output_interval = positive(*v, "output_interval", v->text);
  if (const auto v = scalar("arc_resolution")) scene.arc_resolution = whole(*v, "arc_resolution", v->text, 3);
  if (const auto v = scalar("checkpoint_interval")) scene.checkpoint_interval = number(*v, "checkpoint_interval", v->text);
  if (const auto v = scalar("fields")) {
    scene.fields = split(v->text, ',');
    for (const auto& f : scene.fields)
      if (f != "particles" && f != "contacts" && f != "walls" && f != "state")
        fail(v->at, "fields", fmt::format("unknown field '{}'; use particles, contacts, walls, state", f));
  }
  for (const Value& v : list("law")) scene.laws.push_back(parse_law(v));
  for (const Value& v : list("wall")) scene.walls.push_back(parse_wall(v));
  for (const Value& v : list("set_wall")) scene.wall_changes.push_back(parse_wall_change(v));
  for (const Value& v : list("grains")) scene.grains.push_back(parse_grains(v, base));
  for (const Value& v : list("packing")) scene.packings.push_back({base / v.text, v.at});
  if (scene.laws.empty()) throw SceneError(fmt::format("{}: no 'law = 0 0 linear kn=...' line: grains need a contact law", source));
  if (scene.grains.empty() && scene.packings.empty())
    throw SceneError(fmt::format("{}: no 'grains = ...' or 'packing = ...' line: nothing to simulate", source));
  return scene;
}

SceneConfig read_scene(const std::filesystem::path& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw SceneError(fmt::format("{}: cannot open the scene file (does it exist?)", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  return parse_scene(text.str(), path.string(), path.parent_path(), overrides);
}

namespace {

double distance_to_path(const std::vector<Vec2>& path, Vec2 p) {
  double d = INFINITY;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) d = std::min(d, distance_to_segment(p, path[i], path[i + 1]));
  return d;
}

// The number of materials the scene names (laws, walls, grains, changes).
int materials_named(const SceneConfig& scene) {
  int materials = 1;
  for (const auto& l : scene.laws) materials = std::max({materials, l.a + 1, l.b + 1});
  for (const auto& w : scene.walls) materials = std::max(materials, w.material + 1);
  for (const auto& g : scene.grains) materials = std::max(materials, g.material + 1);
  for (const auto& c : scene.wall_changes)
    if (c.material) materials = std::max(materials, *c.material + 1);
  return materials;
}

// Laws: every pair of materials in use needs one, given once.
std::vector<ContactLaw> law_table(const SceneConfig& scene, int materials) {
  std::vector<std::optional<LawSpec>> table(static_cast<std::size_t>(materials * materials));
  for (const auto& l : scene.laws) {
    for (auto [a, b] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      auto& slot = table[static_cast<std::size_t>(a * materials + b)];
      if (slot && slot->at.where != l.at.where)
        fail(l.at, "law", fmt::format("materials {} and {} already have a law ({})", l.a, l.b, slot->at.where));
      slot = l;
    }
  }
  std::vector<ContactLaw> laws;
  for (int a = 0; a < materials; ++a)
    for (int b = 0; b < materials; ++b) {
      const auto& slot = table[static_cast<std::size_t>(a * materials + b)];
      if (!slot)
        throw SceneError(fmt::format("{}: no contact law between materials {} and {}; add 'law = {} {} linear kn=...'",
                                     scene.source, a, b, a, b));
      laws.push_back(slot->law);
    }
  return laws;
}

// The scene's walls, then the bodies of its packings (raising `materials`
// to what the packings use).
std::vector<BodySpec> wall_and_packing_bodies(const SceneConfig& scene, int& materials) {
  std::vector<BodySpec> bodies;
  for (const WallSpec& w : scene.walls) {
    BodySpec b;
    b.shape = make_shape("wall", w.points.size() == 2 ? SkeletonKind::segment : SkeletonKind::polyline, w.points, w.radius);
    b.position = mass_properties(b.shape).centroid;
    b.is_wall = true;
    b.material = w.material;
    b.density = w.density;
    bodies.push_back(b);
  }
  for (const auto& [file, at] : scene.packings) {
    try {
      for (BodySpec& b : read_state_vtu(file)) {
        materials = std::max(materials, b.material + 1);
        bodies.push_back(std::move(b));
      }
    } catch (const std::runtime_error& e) {
      fail(at, "packing", e.what());
    }
  }
  return bodies;
}

// Motions of walls, set once all bodies are known, since a plate's span may
// name walls of a packing. Walls are named by their body number, as
// energy.csv and the walls' frames name them (wallN): the scene's walls are
// bodies 0, 1, ..., a packing's follow in its order.
class WallMotions {
 public:
  explicit WallMotions(std::vector<BodySpec>& bodies) : bodies_(bodies) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (!bodies[i].is_wall || (i > 0 && bodies[i - 1].is_wall)) continue;
      std::size_t last = i;
      while (last + 1 < bodies.size() && bodies[last + 1].is_wall) ++last;
      wall_numbers_ += (wall_numbers_.empty() ? "" : ", ") + (last == i ? fmt::format("{}", i) : fmt::format("{} to {}", i, last));
    }
  }

  std::size_t need_wall(int number, const SceneLocation& at, const std::string& key) const {
    if (number >= static_cast<int>(bodies_.size()) || !bodies_[static_cast<std::size_t>(number)].is_wall)
      fail(at, key, fmt::format("body {} is not a wall; the walls are {} (numbered as in energy.csv)", number,
                                wall_numbers_.empty() ? "none" : wall_numbers_));
    return static_cast<std::size_t>(number);
  }

  void apply(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key) {
    BodySpec& b = bodies_[wall];
    if (!m.pressure) {
      b.constraint = BodyConstraint{};
      b.constraint.held = {true, true, true};
      if (m.velocity) b.constraint.imposed_velocity = {m.velocity->x, m.velocity->y, 0.0};
      return;
    }
    double length = 0.0;
    for (int e = 0; e < b.shape.edge_count(); ++e) length += norm(b.shape.edge_end(e) - b.shape.edge_start(e));
    try {
      const double sliding = m.velocity ? (m.inward.x != 0.0 ? m.velocity->y : m.velocity->x) : 0.0;
      b.constraint = pressure_plate(*m.pressure, length, m.inward, sliding);
    } catch (const std::invalid_argument& e) {
      fail(at, key, e.what());
    }
    if (!m.span) return;
    for (int end : *m.span) {
      need_wall(end, at, key);
      if (static_cast<std::size_t>(end) == wall)
        fail(at, key, fmt::format("span={},{}: a plate's span is between two other walls", (*m.span)[0], (*m.span)[1]));
    }
    b.constraint.span_bodies = *m.span;
  }

 private:
  std::vector<BodySpec>& bodies_;
  std::string wall_numbers_;  // "0, 100 to 103", for messages
};

// Removing shifts the bodies behind: renumber the spans that survive.
void remove_bodies(std::vector<BodySpec>& bodies, const std::vector<bool>& removed, const std::string& source) {
  std::vector<int> renumbered(bodies.size(), -1);
  std::vector<BodySpec> kept;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!removed[i]) renumbered[i] = static_cast<int>(kept.size()), kept.push_back(std::move(bodies[i]));
  for (BodySpec& b : kept)
    for (int& end : b.constraint.span_bodies)
      if (end >= 0) {
        if (renumbered[static_cast<std::size_t>(end)] < 0)
          throw SceneError(fmt::format("{}: a plate's span names a wall that set_wall removes", source));
        end = renumbered[static_cast<std::size_t>(end)];
      }
  bodies = std::move(kept);
}

void apply_wall_motions_and_changes(const SceneConfig& scene, std::vector<BodySpec>& bodies) {
  WallMotions motions(bodies);
  for (std::size_t k = 0; k < scene.walls.size(); ++k) motions.apply(k, scene.walls[k].motion, scene.walls[k].at, "wall");
  std::vector<bool> removed(bodies.size(), false);
  for (const WallChange& c : scene.wall_changes) {
    const std::size_t wall = motions.need_wall(c.wall, c.at, "set_wall");
    if (c.remove) {
      removed[wall] = true;
      continue;
    }
    motions.apply(wall, c.motion, c.at, "set_wall");
    if (c.material) bodies[wall].material = *c.material;
  }
  if (std::find(removed.begin(), removed.end(), true) != removed.end()) remove_bodies(bodies, removed, scene.source);
}

// A grain of `g` at c must not overlap grains placed before, nor a wall, and
// must lie in the periodic cell.
void check_grain_centre(const SceneConfig& scene, const GrainsSpec& g, Vec2 c, double R,
                        const std::vector<Circle>& placed, const std::vector<const GrainsSpec*>& placed_from) {
  for (std::size_t k = 0; k < placed.size(); ++k)
    if (norm(placed[k].centre - c) < placed[k].radius + R)
      fail(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) overlaps grains from {}; move the regions apart", c.x, c.y,
                                       placed_from[k]->at.where));
  for (const WallSpec& w : scene.walls)
    if (distance_to_path(w.points, c) < R + w.radius)
      fail(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) overlaps the wall of {}; keep the region {:g} away from walls",
                                       c.x, c.y, w.at.where, R + w.radius));
  for (int axis = 0; axis < 2; ++axis) {
    if (!scene.cell.periodic[axis]) continue;
    const double low = axis ? scene.cell.low.y : scene.cell.low.x, size = axis ? scene.cell.size.y : scene.cell.size.x;
    const double coordinate = axis ? c.y : c.x;
    if (coordinate < low || coordinate >= low + size)
      fail(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) lies outside the periodic cell", c.x, c.y));
  }
}

// The scene's `grains` lines, in order, from one generator seeded by the
// scene: the centres of a line (packing/random_placement.h), then each
// grain's angle and heading.
void add_grain_bodies(const SceneConfig& scene, std::vector<BodySpec>& bodies) {
  std::mt19937_64 generator(scene.seed);
  std::vector<Circle> placed;
  std::vector<const GrainsSpec*> placed_from;
  for (const GrainsSpec& g : scene.grains) {
    Shape shape;
    try {
      shape = read_shape_file(g.shape_file);
    } catch (const ShapeError& e) {
      fail(g.at, "grains", e.what());
    }
    const double R = mass_properties(shape).bounding_radius;
    const Box region{{g.region[0], g.region[1]}, {g.region[2], g.region[3]}};
    std::vector<Vec2> centres;
    try {
      centres = g.generator == "lattice" ? lattice_centres(region, R, g.count, shape.name)
                                         : random_centres(generator, region, R, g.count, placed, shape.name);
    } catch (const std::invalid_argument& e) {
      fail(g.at, "grains", e.what());
    }
    for (Vec2 c : centres) {
      check_grain_centre(scene, g, c, R, placed, placed_from);
      placed.push_back({c, R});
      placed_from.push_back(&g);
      BodySpec b;
      b.shape = shape;
      b.position = c;
      b.angle = g.random_angle ? 2.0 * std::numbers::pi * unit_uniform(generator) : g.angle * std::numbers::pi / 180.0;
      b.velocity = random_heading_velocity(generator, g.speed);
      b.material = g.material;
      b.density = g.density;
      bodies.push_back(b);
    }
  }
}

}  // namespace

World build_world(const SceneConfig& scene) {
  int materials = materials_named(scene);
  const std::vector<ContactLaw> laws = law_table(scene, materials);
  std::vector<BodySpec> bodies = wall_and_packing_bodies(scene, materials);
  apply_wall_motions_and_changes(scene, bodies);
  if (materials * materials != static_cast<int>(laws.size()))
    throw SceneError(fmt::format("{}: the packing uses material {} but the scene has laws for materials 0 to {} only",
                                 scene.source, materials - 1, static_cast<int>(std::sqrt(laws.size())) - 1));
  add_grain_bodies(scene, bodies);
  try {
    return make_world(bodies, materials, laws, scene.gravity, scene.cell);
  } catch (const std::invalid_argument& e) {
    throw SceneError(fmt::format("{}: {}", scene.source, e.what()));
  }
}

EngineSettings resolve_engine_settings(const SceneConfig& scene, const World& world) {
  EngineSettings settings = scene.engine;
  if (settings.verlet_distance <= 0.0) {
    // auto: at most 5% of the smallest grain, thinner while the grains
    // barely move (the engine adapts it; forces do not depend on it).
    double smallest = INFINITY;
    for (std::size_t i = 0; i < world.size(); ++i)
      if (!world.is_wall[i]) smallest = std::min(smallest, 2.0 * world.bounding_radius[i]);
    settings.verlet_distance = 0.05 * smallest;
    settings.adaptive_verlet_distance = true;
  }
  settings.threads = scene.threads;
  if (settings.dt <= 0.0) settings.dt = default_time_step(world);
  return settings;
}

}  // namespace sphero
