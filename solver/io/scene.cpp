#include "io/scene.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "io/field_arrays.h"
#include "io/wall_labels.h"
#include "shapes/shape_file.h"
#include "text/message_text.h"

namespace sphero {
namespace {

namespace po = boost::program_options;

// Keys that take one value, and keys that may be given many times.
const std::vector<std::pair<const char*, const char*>> kScalarKeys{
    {"duration", "simulated time to run, s (required)"},
    {"dt", "time step, s, or 'auto' (soft model: 1/50 of the shortest contact period; the rigid model needs a number)"},
    {"model", "soft | rigid (default soft): soft contacts, or rigid bodies with instantaneous collisions (A-CD²)"},
    {"integrator", "verlet | gear (default verlet; soft model)"},
    {"stepping",
     "rigid model: steps | events | events_whole_steps (default steps): one collision program per step, or "
     "the bodies flown from collision to collision at their exact instants within each step, those resting "
     "against each other time-stepped in clusters (events_whole_steps: every step with a resting contact "
     "time-stepped whole)"},
    {"rigid_gap",
     "rigid model: outlines closer than this are contact points, m, or 'auto' (default: 0.1% of the "
     "smallest grain size)"},
    {"rigid_tolerance",
     "rigid model: the collision programs' tolerance on their scaled residual, 1e-12 to 1e-4 "
     "(default 1e-6); a looser one takes fewer sweeps or iterations and keeps momentum and "
     "energy less exactly (docs/MODEL.md §7)"},
    {"rigid_solver",
     "rigid model: gauss_seidel | interior_point (default gauss_seidel): the collision programs' solver, "
     "sweeps warm-started from the last step or an interior point exact to its tolerance; Coulomb friction "
     "(a rigid law's mu=) needs gauss_seidel (docs/MODEL.md §7)"},
    {"attractor", "x,y g: a central field of g m/s² towards (x, y) (default none)"},
    {"verlet_distance",
     "neighbour-list skin per body, m, or 'auto' (default: at most 5% of the smallest grain size, starting at four "
     "mean edge lengths where that is less)"},
    {"allow_large_time_step", "true to accept dt above a tenth of the contact period (default false)"},
    {"gravity", "gx,gy in m/s² (default 0,0)"},
    {"seed", "random seed of the generators (default 1)"},
    {"threads", "worker threads (default 1); results are bit-identical whatever the number"},
    {"backend",
     "cpu | opencl (default cpu): where a soft-model run computes; opencl on the device that "
     "OPENCL_PLATFORM and OPENCL_DEVICE choose (docs/OPENCL.md), with the same results to the bit"},
    {"periodic", "none | x | y | xy (default none)"},
    {"cell", "x0,y0,x1,y1: the periodic cell"},
    {"output", "output directory (default sphero-output)"},
    {"output_interval", "simulated time between frames, s (default duration/100)"},
    {"fields",
     "what each frame holds: state,contacts,walls (default), contact_points, outlines; arrays of a file "
     "after its field, e.g. state:velocity,angular_velocity,contacts (docs/SCENES.md)"},
    {"arc_resolution", "chords per full circle in drawn outlines (default 24)"},
    {"precision", "double (default) or single: the frames' numbers in 64 or 32 bits, the bodies' placement in 64"},
    {"checkpoint_interval", "simulated time between checkpoints, s (default 0: at the end and on Ctrl-C)"},
    {"neighbours",
     "cells | triangulation (default cells): how a list rebuild finds the neighbour pairs, with link "
     "cells or by walks over the triangulated void space; the same forces either way"},
    {"contact_lists",
     "false: evaluate every vertex pair of neighbouring particles each step, not only those "
     "within reach (the same forces, for timing; default true)"},
};
const std::vector<std::pair<const char*, const char*>> kListKeys{
    {"law",
     "A B linear|hertz kn=.. [kt=..] [mu=..] [gamma_n=..] [gamma_t=..] [cohesion=..], or (model = rigid) "
     "A B rigid restitution=..|xi_n=.. [xi_t=..]: the law between materials A and B"},
    {"wall",
     "[name=NAME] points=x,y;x,y;.. radius=.. [material=..] [density=..] [velocity=vx,vy | pressure=p "
     "inward=ix,iy [velocity=..] [span=A,B]] [amplitude=ax,ay frequency=f [tap_interval=T]]"},
    {"set_wall",
     "W remove | W fixed | W velocity=vx,vy | W pressure=p inward=ix,iy [velocity=..] [span=A,B] "
     "[amplitude=ax,ay frequency=f [tap_interval=T]] [material=M]: change wall W, named or numbered "
     "(its body number, as energy.csv's wallN), e.g. one that came with a packing"},
    {"packing",
     "FILE.vtu: bodies from a state file written by sphero run (state_NNNNN.vtu, or state_NNNNN.pvtu on ranks)"},
    {"grains",
     "shape=FILE count=N region=x0,y0,x1,y1 [generator=lattice|random] [material=..] [density=..] "
     "[speed=..] [angle=random|DEGREES]"},
    {"remove",
     "region=x0,y0,x1,y1 | ids=A,B,..: in a stage or a --from scene, remove the grains whose centre lies in "
     "the region, or those of these ids (walls: set_wall = W remove)"},
};

// On the command line a list key replaces the scene's entries of that key;
// `--add-KEY` adds to them instead.
const std::string kAddPrefix = "add-";

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
      throw SceneError(fmt::format("{}:{}: a section header where a 'key = value' line belongs", source, number));
    const auto equals = line.find('=');
    if (equals == std::string::npos) throw SceneError(fmt::format("{}:{}: expected 'key = value'", source, number));
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

double number(const Value& v, const std::string& key, std::string_view text) {
  const auto x = parse_finite(text);
  if (!x) fail_at(v.at, key, fmt::format("expected a number, found '{}'", text));
  return *x;
}

double positive(const Value& v, const std::string& key, std::string_view text) {
  const double x = number(v, key, text);
  if (!(x > 0.0)) fail_at(v.at, key, fmt::format("must be positive, found {}", text));
  return x;
}

// The ranges that keep every later computation finite (docs/SCENES.md).
struct Range {
  double low, high;
  const char* unit;
};
constexpr Range kCoordinateRange{-kMaxCoordinate, kMaxCoordinate, "m"};
constexpr Range kDensityRange{1e-6, 1e9, "kg/m²"};
constexpr Range kSpeedRange{-1e6, 1e6, "m/s"};
constexpr Range kGravityRange{-1e6, 1e6, "m/s²"};
constexpr Range kPressureRange{-1e12, 1e12, "N/m"};
constexpr Range kAngleRange{-1e6, 1e6, "degrees"};

// "setting = text" for a message, or the text alone when the key names it.
std::string quoted_setting(const std::string& key, std::string_view setting, std::string_view text) {
  return setting == key ? fmt::format("'{}'", text) : fmt::format("{} = {}", setting, text);
}

// A number within `range`; `setting` names it in the message.
double within(const Value& v, const std::string& key, std::string_view setting, std::string_view text, Range range) {
  const double x = number(v, key, text);
  if (!(x >= range.low && x <= range.high))
    fail_at(v.at, key,
            fmt::format("{}: give {:g} to {:g}{}{}", quoted_setting(key, setting, text), range.low, range.high,
                        *range.unit ? " " : "", range.unit));
  return x;
}

// A positive number up to `high`.
double positive_up_to(const Value& v, const std::string& key, std::string_view setting, std::string_view text,
                      double high, const char* unit) {
  const double x = number(v, key, text);
  if (!(x > 0.0 && x <= high))
    fail_at(v.at, key,
            fmt::format("{}: give a positive number up to {:g} {}", quoted_setting(key, setting, text), high, unit));
  return x;
}

int whole(const Value& v, const std::string& key, std::string_view text, int low) {
  const double x = number(v, key, text);
  if (x != std::floor(x) || x < low || x > 1e9)
    fail_at(v.at, key, fmt::format("expected a whole number >= {}, found '{}'", low, text));
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

std::vector<double> numbers(const Value& v, const std::string& key, std::string_view text, std::size_t count,
                            std::string_view setting, Range range) {
  const auto parts = split(text, ',');
  if (parts.size() != count)
    fail_at(v.at, key, fmt::format("expected {} comma-separated numbers, found '{}'", count, text));
  std::vector<double> out;
  for (const auto& p : parts) out.push_back(within(v, key, setting, p, range));
  return out;
}

Vec2 vec2(const Value& v, const std::string& key, std::string_view text, std::string_view setting, Range range) {
  const auto xy = numbers(v, key, text, 2, setting, range);
  return {xy[0], xy[1]};
}

bool boolean(const Value& v, const std::string& key) {
  if (v.text == "true" || v.text == "yes" || v.text == "1") return true;
  if (v.text == "false" || v.text == "no" || v.text == "0") return false;
  fail_at(v.at, key, fmt::format("expected true or false, found '{}'", v.text));
}

// "k=v k=v ..." with the allowed keys; positional words before them.
std::map<std::string, std::string> tokens(const Value& v, const std::string& key,
                                          const std::vector<std::string>& allowed,
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
      fail_at(v.at, key, fmt::format("expected name=value, found '{}'", word));
    }
    const std::string name = word.substr(0, equals);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail_at(v.at, key, fmt::format("unknown setting '{}'; the settings are {}", name, list));
    }
    if (out.count(name)) fail_at(v.at, key, fmt::format("'{}' is given twice", name));
    out[name] = word.substr(equals + 1);
  }
  return out;
}

// `A B rigid restitution=e|xi_n=.. [xi_t=..|mu=..]`: the rigid model's law.
RigidLaw parse_rigid_law(const Value& v, const std::map<std::string, std::string>& t) {
  for (const char* soft : {"kn", "kt", "gamma_n", "gamma_t", "cohesion"})
    if (t.count(soft))
      fail_at(v.at, "law",
              fmt::format("'{}' belongs to the soft laws; a rigid law takes restitution=.. or xi_n=.., "
                          "and xi_t=.. or mu=..",
                          soft));
  if (t.count("restitution") == t.count("xi_n"))
    fail_at(v.at, "law", "a rigid law takes one of restitution=E (0 to 1) or xi_n=.. (the normal dissipation, kg)");
  RigidLaw law;
  if (t.count("restitution")) law.restitution = number(v, "law", t.at("restitution"));
  if (t.count("xi_n")) law.normal_dissipation = number(v, "law", t.at("xi_n"));
  if (t.count("xi_t")) law.tangential_dissipation = number(v, "law", t.at("xi_t"));
  if (t.count("mu")) law.friction = number(v, "law", t.at("mu"));
  if (t.count("restitution") && law.restitution < 0.0)
    fail_at(v.at, "law", fmt::format("restitution must be from 0 to 1, found '{}'", t.at("restitution")));
  try {
    validate(law);
  } catch (const std::invalid_argument& e) {
    fail_at(v.at, "law", e.what());
  }
  return law;
}

LawSpec parse_law(const Value& v) {
  std::vector<std::string> words;
  const auto t =
      tokens(v, "law", {"kn", "kt", "mu", "gamma_n", "gamma_t", "cohesion", "restitution", "xi_n", "xi_t"}, &words);
  if (words.size() != 3)
    fail_at(v.at, "law",
            "expected 'A B linear|hertz kn=...' or 'A B rigid restitution=...' (two materials, then the law's name)");
  LawSpec spec{v.at, whole(v, "law", words[0], 0), whole(v, "law", words[1], 0), {}, {}};
  if (words[2] == "rigid") {
    spec.rigid = parse_rigid_law(v, t);
    return spec;
  }
  for (const char* rigid : {"restitution", "xi_n", "xi_t"})
    if (t.count(rigid))
      fail_at(v.at, "law",
              fmt::format("'{}' belongs to rigid laws ('A B rigid ...'); a {} law takes kn=...", rigid, words[2]));
  try {
    spec.law.normal = normal_law_from_string(words[2]);
  } catch (const std::invalid_argument& e) {
    fail_at(v.at, "law", std::string(e.what()) + ", or rigid");
  }
  if (!t.count("kn")) fail_at(v.at, "law", "missing kn=... (the normal stiffness)");
  const auto get = [&](const char* name) { return t.count(name) ? number(v, "law", t.at(name)) : 0.0; };
  spec.law.kn = get("kn");  // ranges: validate() below
  spec.law.kt = get("kt");
  spec.law.mu = get("mu");
  spec.law.gamma_n = get("gamma_n");
  spec.law.gamma_t = get("gamma_t");
  spec.law.cohesion = get("cohesion");
  if (spec.law.kt > 0.0 && !t.count("mu")) fail_at(v.at, "law", "kt > 0 needs a friction coefficient mu=...");
  try {
    validate(spec.law);
  } catch (const std::invalid_argument& e) {
    fail_at(v.at, "law", e.what());
  }
  return spec;
}

// amplitude=ax,ay frequency=f [tap_interval=T]: a vibration, or taps.
void parse_vibration(const Value& v, const std::string& key, const std::map<std::string, std::string>& t,
                     WallMotion& m) {
  if (t.count("amplitude") != t.count("frequency"))
    fail_at(v.at, key, "a vibration needs both amplitude=ax,ay (m) and frequency=f (Hz)");
  if (t.count("tap_interval") && !t.count("frequency"))
    fail_at(v.at, key, "tap_interval= goes with amplitude= and frequency= (one cycle of them per tap)");
  if (!t.count("frequency")) return;
  m.amplitude = vec2(v, key, t.at("amplitude"), "amplitude", kCoordinateRange);
  m.frequency = positive_up_to(v, key, "frequency", t.at("frequency"), 1e6, "Hz");
  if (!t.count("tap_interval")) return;
  m.tap_interval = positive_up_to(v, key, "tap_interval", t.at("tap_interval"), 1e9, "s");
  if (m.tap_interval * m.frequency < 1.0)
    fail_at(v.at, key,
            fmt::format("tap_interval={} s is shorter than one cycle (1/frequency = {} s): each tap is a "
                        "whole cycle; lengthen the interval or raise the frequency",
                        m.tap_interval, 1.0 / m.frequency));
}

// A wall named or numbered, as `set_wall` and `span=` refer to it.
std::string wall_reference(const Value& v, const std::string& key, const std::string& word) {
  if (!word.empty() && std::isdigit(static_cast<unsigned char>(word.front())))
    return std::to_string(whole(v, key, word, 0));
  // wallN, as energy.csv calls an unnamed wall, is its number.
  if (word.size() > 4 && word.rfind("wall", 0) == 0 && std::isdigit(static_cast<unsigned char>(word[4])))
    return std::to_string(whole(v, key, word.substr(4), 0));
  if (const std::string problem = wall_name_problem(word); !problem.empty())
    fail_at(v.at, key, fmt::format("'{}' is neither a wall's number nor a wall's name: {}", word, problem));
  return word;
}

// The motion settings shared by `wall` and `set_wall`.
WallMotion parse_motion(const Value& v, const std::string& key, const std::map<std::string, std::string>& t) {
  WallMotion m;
  if (t.count("velocity")) m.velocity = vec2(v, key, t.at("velocity"), "velocity", kSpeedRange);
  if (t.count("inward") && !t.count("pressure")) fail_at(v.at, key, "inward= goes with pressure=");
  if (t.count("span") && !t.count("pressure")) fail_at(v.at, key, "span= goes with pressure=");
  parse_vibration(v, key, t, m);
  if (!t.count("pressure")) return m;
  if (!t.count("inward")) fail_at(v.at, key, "a pressure plate needs inward=ix,iy (the direction it pushes)");
  m.pressure = within(v, key, "pressure", t.at("pressure"), kPressureRange);
  m.inward = vec2(v, key, t.at("inward"), "inward", {-kMaxCoordinate, kMaxCoordinate, "(a direction)"});
  // The plate moves freely along inward; a velocity may only slide it across.
  if (m.velocity && dot(*m.velocity, m.inward) != 0.0)
    fail_at(v.at, key, "a pressure plate moves freely along inward=; its velocity= must be across it (a shear plate)");
  if (t.count("span")) {
    const auto ab = split(t.at("span"), ',');
    if (ab.size() != 2)
      fail_at(v.at, key, fmt::format("span= takes two walls A,B (names or numbers), found '{}'", t.at("span")));
    m.span = std::array<std::string, 2>{wall_reference(v, key, ab[0]), wall_reference(v, key, ab[1])};
  }
  return m;
}

const std::vector<std::string> kMotionSettings{
    "velocity", "pressure", "inward", "span", "amplitude", "frequency", "tap_interval"};

WallSpec parse_wall(const Value& v) {
  std::vector<std::string> allowed{"name", "points", "radius", "material", "density"};
  allowed.insert(allowed.end(), kMotionSettings.begin(), kMotionSettings.end());
  const auto t = tokens(v, "wall", allowed);
  WallSpec w;
  w.at = v.at;
  if (t.count("name")) {
    w.name = t.at("name");
    if (const std::string problem = wall_name_problem(w.name); !problem.empty())
      fail_at(v.at, "wall", fmt::format("name={}: {}", w.name, problem));
  }
  if (!t.count("points")) fail_at(v.at, "wall", "missing points=x,y;x,y;...");
  if (!t.count("radius")) fail_at(v.at, "wall", "missing radius=...");
  for (const auto& p : split(t.at("points"), ';')) w.points.push_back(vec2(v, "wall", p, "points", kCoordinateRange));
  if (w.points.size() < 2) fail_at(v.at, "wall", "a wall needs at least two points");
  w.radius = positive_up_to(v, "wall", "radius", t.at("radius"), kMaxCoordinate, "m");
  if (t.count("material")) w.material = whole(v, "wall", t.at("material"), 0);
  if (t.count("density")) w.density = within(v, "wall", "density", t.at("density"), kDensityRange);
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
    fail_at(v.at, "set_wall",
            "expected 'W remove', 'W fixed' or 'W velocity=.. | pressure=.. inward=..' (W: the wall's name or "
            "number)");
  WallChange c;
  c.at = v.at;
  c.wall = wall_reference(v, "set_wall", words[0]);
  c.remove = keyword && words[1] == "remove";
  if (t.count("material")) {
    if (c.remove) fail_at(v.at, "set_wall", "a removed wall takes no settings");
    c.material = whole(v, "set_wall", t.at("material"), 0);
    t.erase("material");
  }
  const bool vibration_only = std::all_of(t.begin(), t.end(), [](const auto& s) {
    return s.first == "amplitude" || s.first == "frequency" || s.first == "tap_interval";
  });
  if (keyword && !t.empty() && (c.remove || !vibration_only))
    fail_at(v.at, "set_wall",
            fmt::format("'{}' takes no settings{}", words[1],
                        c.remove ? "" : " but a vibration (amplitude=.. frequency=.. [tap_interval=..])"));
  if (!keyword && t.empty() && !c.material)
    fail_at(v.at, "set_wall",
            "say how the wall moves: velocity=, pressure= inward=, amplitude= frequency=, fixed or remove");
  c.keeps_motion = !keyword && t.empty();
  c.motion = parse_motion(v, "set_wall", t);
  return c;
}

GrainsSpec parse_grains(const Value& v, const std::filesystem::path& base) {
  const auto t =
      tokens(v, "grains", {"shape", "count", "generator", "region", "material", "density", "speed", "angle"});
  GrainsSpec g;
  g.at = v.at;
  for (const char* needed : {"shape", "count", "region"})
    if (!t.count(needed)) fail_at(v.at, "grains", fmt::format("missing {}=...", needed));
  g.shape_file = base / t.at("shape");
  g.count = whole(v, "grains", t.at("count"), 1);
  constexpr int kMostGrains = 10'000'000;  // a typo's 10^10 would exhaust memory before saying so
  if (g.count > kMostGrains)
    fail_at(v.at, "grains", fmt::format("count={}; at most {} grains a line", g.count, kMostGrains));
  const auto r = numbers(v, "grains", t.at("region"), 4, "region", kCoordinateRange);
  if (!(r[2] > r[0] && r[3] > r[1])) fail_at(v.at, "grains", "region=x0,y0,x1,y1 needs x1 > x0 and y1 > y0");
  std::copy(r.begin(), r.end(), g.region);
  if (t.count("generator")) {
    g.generator = t.at("generator");
    if (g.generator != "lattice" && g.generator != "random")
      fail_at(v.at, "grains", fmt::format("unknown generator '{}'; use lattice or random", g.generator));
  }
  if (t.count("material")) g.material = whole(v, "grains", t.at("material"), 0);
  if (t.count("density")) g.density = within(v, "grains", "density", t.at("density"), kDensityRange);
  if (t.count("speed")) g.speed = within(v, "grains", "speed", t.at("speed"), {0.0, kSpeedRange.high, "m/s"});
  if (t.count("angle") && t.at("angle") != "random") {
    g.random_angle = false;
    g.angle = within(v, "grains", "angle", t.at("angle"), kAngleRange);
  }
  return g;
}

RemovalSpec parse_removal(const Value& v) {
  const auto t = tokens(v, "remove", {"region", "ids"});
  if (t.size() != 1) fail_at(v.at, "remove", "give region=x0,y0,x1,y1 or ids=A,B,.. (one a line)");
  RemovalSpec r;
  r.at = v.at;
  if (t.count("region")) {
    const auto b = numbers(v, "remove", t.at("region"), 4, "region", kCoordinateRange);
    if (!(b[2] >= b[0] && b[3] >= b[1])) fail_at(v.at, "remove", "region=x0,y0,x1,y1 needs x1 >= x0 and y1 >= y0");
    r.region = std::array<double, 4>{b[0], b[1], b[2], b[3]};
    return r;
  }
  for (const std::string& id : split(t.at("ids"), ',')) r.ids.push_back(whole(v, "remove", id, 0));
  return r;
}

po::options_description scene_options() {
  po::options_description options("scene keys");
  for (const auto& [key, help] : kScalarKeys) options.add_options()(key, po::value<std::string>(), help);
  for (const auto& [key, help] : kListKeys) options.add_options()(key, po::value<std::vector<std::string>>(), help);
  return options;
}

// The scene's keys and, on the command line only, --add-KEY for each list.
po::options_description command_line_options() {
  po::options_description options = scene_options();
  po::options_description adding("adding to a scene's lists (a list key on the command line replaces the scene's)");
  for (const auto& [key, help] : kListKeys) {
    const std::string name = kAddPrefix + key;
    const std::string what =
        fmt::format("like --{}, added to the scene's '{}' lines instead of replacing them", key, key);
    adding.add_options()(name.c_str(), po::value<std::vector<std::string>>(), what.c_str());
  }
  options.add(adding);
  return options;
}

}  // namespace

void fail_at(const SceneLocation& at, const std::string& key, const std::string& message) {
  throw SceneError(fmt::format("{}: {}: {}", at.where, fit_for_message(key, 60), fit_for_message(message)));
}

std::string scene_keys_help() {
  std::ostringstream out;
  out << command_line_options();
  return out.str();
}

namespace {

// A scene's keys, from its text and the command line's overrides, each with
// where it was given (file and line, or the command line).
class SceneValues {
 public:
  SceneValues(const std::string& text, const std::string& source, const std::vector<std::string>& overrides)
      : source_(source), lines_(scan_lines(text, source)) {
    const po::options_description options = scene_options();
    try {
      std::istringstream in(text);
      po::store(po::parse_config_file(in, options, false), from_file_);
    } catch (const po::unknown_option& e) {
      const std::string key = e.get_option_name();
      const auto at = lines_.find(key);
      throw SceneError(fmt::format("{}:{}: unknown key '{}'; `sphero run --help` lists the keys", source,
                                   at != lines_.end() ? at->second.front() : 0, fit_for_message(key, 60)));
    } catch (const po::multiple_occurrences& e) {
      const std::string key = e.get_option_name();
      const auto at = lines_.find(key);
      throw SceneError(fmt::format("{}:{}: '{}' is given more than once; it takes one value", source,
                                   at != lines_.end() ? at->second.back() : 0, key));
    } catch (const po::error& e) {
      throw SceneError(fmt::format("{}: {}", source, e.what()));
    }
    try {
      po::store(po::command_line_parser(overrides).options(command_line_options()).run(), from_command_line_);
    } catch (const po::error& e) {
      throw SceneError(fmt::format("command line: {}; `sphero run --help` lists the keys", e.what()));
    }
  }

  // The keys the file gives, each with its first line.
  std::vector<std::pair<std::string, int>> file_keys() const {
    std::vector<std::pair<std::string, int>> keys;
    for (const auto& [key, lines] : lines_) keys.push_back({key, lines.front()});
    return keys;
  }

  // A scalar from the command line wins over the file.
  std::optional<Value> scalar(const std::string& key) const {
    if (from_command_line_.count(key))
      return Value{from_command_line_[key].as<std::string>(), {"command line --" + key}};
    if (from_file_.count(key))
      return Value{from_file_[key].as<std::string>(), {fmt::format("{}:{}", source_, lines_.at(key).front())}};
    return std::nullopt;
  }
  // Lists: the file's entries, replaced by the command line's when it gives
  // the key, then those the command line adds (--add-KEY).
  std::vector<Value> list(const std::string& key) const {
    std::vector<Value> values;
    if (from_file_.count(key) && !from_command_line_.count(key)) {
      const auto& items = from_file_[key].as<std::vector<std::string>>();
      for (std::size_t i = 0; i < items.size(); ++i)
        values.push_back({items[i], {fmt::format("{}:{}", source_, lines_.at(key)[i])}});
    }
    if (from_command_line_.count(key))
      for (const auto& item : from_command_line_[key].as<std::vector<std::string>>())
        values.push_back({item, {"command line --" + key}});
    if (from_command_line_.count(kAddPrefix + key))
      for (const auto& item : from_command_line_[kAddPrefix + key].as<std::vector<std::string>>())
        values.push_back({item, {"command line --" + kAddPrefix + key}});
    return values;
  }

 private:
  std::string source_;
  std::map<std::string, std::vector<int>> lines_;  // key -> the lines it is on
  po::variables_map from_file_, from_command_line_;
};

Attractor parse_attractor(const Value& v, bool events) {
  const auto words = split(v.text, ' ');
  std::vector<std::string> parts;
  for (const auto& w : words)
    if (!w.empty()) parts.push_back(w);
  if (parts.size() != 2) fail_at(v.at, "attractor", fmt::format("expected 'x,y g', found '{}'", v.text));
  Attractor a;
  a.centre = vec2(v, "attractor", parts[0], "attractor", kCoordinateRange);
  a.strength = within(v, "attractor", "attractor", parts[1], kGravityRange);
  if (events && a.strength != 0.0)
    fail_at(v.at, "attractor",
            "stepping = events flies the bodies on parabolas under a uniform field, which an "
            "attractor's is not: drop one of them");
  return a;
}

void read_model_keys(const SceneValues& values, SceneConfig& scene) {
  if (const auto v = values.scalar("model")) {
    try {
      scene.engine.model = model_from_string(v->text);
    } catch (const std::invalid_argument& e) {
      fail_at(v->at, "model", e.what());
    }
  }
  const bool rigid = scene.engine.model == Model::rigid;
  if (const auto v = values.scalar("rigid_gap"); v && v->text != "auto") {
    if (!rigid) fail_at(v->at, "rigid_gap", "belongs to the rigid model: add 'model = rigid' or drop it");
    scene.engine.rigid.gap = positive_up_to(*v, "rigid_gap", "rigid_gap", v->text, kMaxCoordinate, "m");
  }
  if (const auto v = values.scalar("rigid_tolerance")) {
    if (!rigid) fail_at(v->at, "rigid_tolerance", "belongs to the rigid model: add 'model = rigid' or drop it");
    scene.engine.rigid.qp_tolerance = within(*v, "rigid_tolerance", "rigid_tolerance", v->text, {1e-12, 1e-4, ""});
    scene.rigid_tolerance_given = true;
  }
  if (const auto v = values.scalar("rigid_solver")) {
    if (!rigid) fail_at(v->at, "rigid_solver", "belongs to the rigid model: add 'model = rigid' or drop it");
    if (v->text != "interior_point" && v->text != "gauss_seidel")
      fail_at(v->at, "rigid_solver", fmt::format("expected interior_point or gauss_seidel, found '{}'", v->text));
    scene.engine.rigid.solver = v->text == "gauss_seidel" ? RigidSolver::gauss_seidel : RigidSolver::interior_point;
    scene.rigid_solver_given = true;
  }
  if (const auto v = values.scalar("stepping")) {
    if (!rigid) fail_at(v->at, "stepping", "belongs to the rigid model: add 'model = rigid' or drop it");
    if (v->text != "steps" && v->text != "events" && v->text != "events_whole_steps")
      fail_at(v->at, "stepping", fmt::format("expected steps, events or events_whole_steps, found '{}'", v->text));
    scene.engine.rigid.events = v->text != "steps";
    scene.engine.rigid.whole_step_events = v->text == "events_whole_steps";
  }
  if (const auto v = values.scalar("backend")) {
    try {
      scene.backend = backend_from_string(v->text);
    } catch (const std::invalid_argument& e) {
      fail_at(v->at, "backend", e.what());
    }
    if (rigid && scene.backend == Backend::opencl)
      fail_at(
          v->at, "backend", "the OpenCL backend runs the soft model only: drop 'backend = opencl' or use model = soft");
  }
  if (const auto v = values.scalar("integrator"); v && rigid)
    fail_at(v->at, "integrator", "the rigid model steps from collision to collision and takes no integrator: drop it");
  if (const auto v = values.scalar("dt"); rigid && (!v || v->text == "auto"))
    throw SceneError(
        fmt::format("{}: the rigid model needs 'dt = SECONDS': no contact stiffness sets it (docs/SCENES.md "
                    "says how to choose it)",
                    v ? v->at.where : scene.source));
  if (const auto v = values.scalar("attractor")) scene.attractor = parse_attractor(*v, scene.engine.rigid.events);
}

void read_engine_keys(const SceneValues& values, SceneConfig& scene) {
  read_model_keys(values, scene);
  if (const auto v = values.scalar("dt"); v && v->text != "auto") scene.engine.dt = positive(*v, "dt", v->text);
  if (const auto v = values.scalar("integrator")) {
    try {
      scene.engine.integrator = integrator_from_string(v->text);
    } catch (const std::invalid_argument& e) {
      fail_at(v->at, "integrator", e.what());
    }
  }
  if (const auto v = values.scalar("verlet_distance"); v && v->text != "auto")
    scene.engine.verlet_distance =
        positive_up_to(*v, "verlet_distance", "verlet_distance", v->text, kMaxCoordinate, "m");
  if (const auto v = values.scalar("allow_large_time_step"))
    scene.engine.allow_large_time_step = boolean(*v, "allow_large_time_step");
  if (const auto v = values.scalar("contact_lists")) scene.engine.contact_lists = boolean(*v, "contact_lists");
  if (const auto v = values.scalar("neighbours")) {
    try {
      scene.engine.neighbours = neighbour_strategy_from_string(v->text);
    } catch (const std::invalid_argument& e) {
      fail_at(v->at, "neighbours", e.what());
    }
  }
  if (const auto v = values.scalar("gravity")) scene.gravity = vec2(*v, "gravity", v->text, "gravity", kGravityRange);
  if (const auto v = values.scalar("seed")) scene.seed = static_cast<std::uint64_t>(whole(*v, "seed", v->text, 0));
  if (const auto v = values.scalar("threads")) {
    scene.threads = whole(*v, "threads", v->text, 1);
    if (scene.threads > 256) fail_at(v->at, "threads", "at most 256 threads");
  }
}

void read_periodic_cell(const SceneValues& values, SceneConfig& scene) {
  const auto v = values.scalar("periodic");
  if (!v) return;
  if (v->text == "x" || v->text == "xy") scene.cell.periodic[0] = true;
  if (v->text == "y" || v->text == "xy") scene.cell.periodic[1] = true;
  if (v->text != "none" && v->text != "x" && v->text != "y" && v->text != "xy")
    fail_at(v->at, "periodic", fmt::format("expected none, x, y or xy, found '{}'", v->text));
  const auto cell = values.scalar("cell");
  if (v->text == "none") return;
  if (!cell) fail_at(v->at, "periodic", "a periodic scene needs 'cell = x0,y0,x1,y1'");
  const auto c = numbers(*cell, "cell", cell->text, 4, "cell", kCoordinateRange);
  if (!(c[2] > c[0] && c[3] > c[1])) fail_at(cell->at, "cell", "needs x1 > x0 and y1 > y0");
  scene.cell.low = {c[0], c[1]};
  scene.cell.size = {c[2] - c[0], c[3] - c[1]};
}

std::vector<std::string> parse_fields(const Value& v) {
  // Every frame holds the state: frames are found by it and outlines drawn
  // from it.
  std::vector<std::string> fields{"state"};
  try {
    for (const std::string& f : parse_field_choice(v.text))
      if (std::find(fields.begin(), fields.end(), f) == fields.end()) fields.push_back(f);
  } catch (const std::invalid_argument& e) {
    fail_at(v.at, "fields", e.what());
  }
  return fields;
}

double parse_checkpoint_interval(const Value& v) {
  const double interval = number(v, "checkpoint_interval", v.text);
  if (interval < 0.0)
    fail_at(v.at, "checkpoint_interval",
            fmt::format("'{}': give 0 (checkpoints at the end only) or a positive time", v.text));
  return interval;
}

void read_output_keys(const SceneValues& values, SceneConfig& scene) {
  if (const auto v = values.scalar("output")) {
    if (v->text.empty()) fail_at(v->at, "output", "an empty folder name; give the folder the run writes into");
    scene.output_directory = v->text;
  }
  scene.output_interval = scene.duration / 100.0;
  if (const auto v = values.scalar("output_interval")) scene.output_interval = positive(*v, "output_interval", v->text);
  if (const auto v = values.scalar("precision")) {
    if (v->text != "double" && v->text != "single")
      fail_at(v->at, "precision", fmt::format("expected double or single, found '{}'", v->text));
    scene.single_precision = v->text == "single";
  }
  if (const auto v = values.scalar("arc_resolution")) {
    scene.arc_resolution = whole(*v, "arc_resolution", v->text, 3);
    constexpr int kMostChords = 4096;  // every outline of every frame is drawn with them
    if (scene.arc_resolution > kMostChords)
      fail_at(
          v->at, "arc_resolution", fmt::format("{} chords per circle; at most {}", scene.arc_resolution, kMostChords));
  }
  if (const auto v = values.scalar("checkpoint_interval")) scene.checkpoint_interval = parse_checkpoint_interval(*v);
  if (const auto v = values.scalar("fields")) scene.fields = parse_fields(*v);
}

void read_lists(const SceneValues& values, SceneConfig& scene, const std::filesystem::path& base) {
  for (const Value& v : values.list("law")) scene.laws.push_back(parse_law(v));
  for (const Value& v : values.list("wall")) scene.walls.push_back(parse_wall(v));
  for (const Value& v : values.list("set_wall")) scene.wall_changes.push_back(parse_wall_change(v));
  for (const Value& v : values.list("grains")) scene.grains.push_back(parse_grains(v, base));
  for (const Value& v : values.list("packing")) scene.packings.push_back({base / v.text, v.at});
  for (const Value& v : values.list("remove")) scene.removals.push_back(parse_removal(v));
}

void check_law_models(const std::vector<LawSpec>& laws, const EngineSettings& engine) {
  for (const LawSpec& l : laws) {
    if (l.rigid.has_value() != (engine.model == Model::rigid))
      fail_at(l.at, "law",
              l.rigid ? "a rigid law in a soft-model scene: add 'model = rigid', or give a linear or hertz law"
                      : "a soft law in a rigid-model scene: give 'law = A B rigid restitution=...' (docs/SCENES.md)");
    if (l.rigid && l.rigid->friction > 0.0 && engine.rigid.solver != RigidSolver::gauss_seidel)
      fail_at(l.at, "law",
              "mu= (Coulomb friction) needs 'rigid_solver = gauss_seidel': the interior point solves the "
              "frictionless program only");
  }
}

// A scene's text cut at its `[stage NAME]` headers: the first stage's lines
// and each later stage's, every other line blanked so that line numbers
// stay those of the file.
struct SceneSections {
  struct Stage {
    std::string name;
    int line = 0;
    std::vector<std::string> lines;
  };
  std::vector<std::string> first;
  std::vector<Stage> stages;
};

// The stage's name in a `[stage NAME]` line, or empty where the line is no
// section header; throws on another section.
std::string stage_header(const std::string& line, const std::string& source, int number) {
  const std::string code = line.substr(0, line.find('#'));
  const auto first = code.find_first_not_of(" \t\r");
  if (first == std::string::npos || code[first] != '[') return {};
  const auto close = code.find(']', first);
  std::istringstream words(code.substr(first + 1, close == std::string::npos ? std::string::npos : close - first - 1));
  std::string word, name, extra;
  words >> word >> name >> extra;
  const bool rest_blank = close != std::string::npos && code.find_first_not_of(" \t\r", close + 1) == std::string::npos;
  if (word != "stage" || name.empty() || !extra.empty() || !rest_blank)
    throw SceneError(fmt::format("{}:{}: '{}': the only sections of a scene are '[stage NAME]' (docs/SCENES.md)",
                                 source, number, fit_for_message(code.substr(first), 60)));
  const bool allowed = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!allowed || name.size() > 32)
    throw SceneError(fmt::format("{}:{}: stage '{}': a stage's name holds letters, digits, '_' and '-' (at most 32)",
                                 source, number, fit_for_message(name, 60)));
  return name;
}

SceneSections split_sections(const std::string& text, const std::string& source) {
  SceneSections sections;
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string name = stage_header(line, source, number);
    if (!name.empty()) {
      for (const auto& s : sections.stages)
        if (s.name == name)
          throw SceneError(
              fmt::format("{}:{}: a second stage named '{}' (the first is on line {})", source, number, name, s.line));
      sections.stages.push_back({name, number, std::vector<std::string>(sections.first.size(), "")});
      line.clear();
    }
    for (auto& s : sections.stages) s.lines.push_back("");
    sections.first.push_back(sections.stages.empty() ? line : "");
    if (!sections.stages.empty()) sections.stages.back().lines.back() = line;
  }
  return sections;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  return text;
}

// What a stage may change, and how a stage says it.
const std::vector<std::string> kStageKeys{"duration", "dt",       "gravity", "attractor",       "law",
                                          "remove",   "set_wall", "grains",  "output_interval", "checkpoint_interval",
                                          "fields"};

// A stage's keys from `text` (its lines, others blank); a stage of a scene
// needs its duration, a change between Python runs has none.
StageSpec parse_stage_text(const std::string& text, const std::string& source, StageSpec stage,
                           const SceneConfig& first, bool needs_duration, const std::filesystem::path& base) {
  const SceneValues values(text, source, {});
  for (const auto& [key, line] : values.file_keys())
    if (std::find(kStageKeys.begin(), kStageKeys.end(), key) == kStageKeys.end() ||
        (key == "duration" && !needs_duration))
      throw SceneError(fmt::format("{}:{}: '{}' cannot change in a stage (stage {}): a stage changes {}", source, line,
                                   key, stage.name, fmt::join(kStageKeys, ", ")));
  const auto duration = values.scalar("duration");
  if (!duration && needs_duration)
    throw SceneError(
        fmt::format("{}: stage {}: missing 'duration = SECONDS' (the stage's length)", stage.at.where, stage.name));
  if (duration) stage.duration = positive(*duration, "duration", duration->text);
  const bool rigid = first.engine.model == Model::rigid;
  if (const auto v = values.scalar("dt")) {
    if (v->text == "auto" && rigid) fail_at(v->at, "dt", "the rigid model needs a number of seconds");
    stage.dt = v->text == "auto" ? 0.0 : positive(*v, "dt", v->text);
  }
  if (const auto v = values.scalar("gravity")) stage.gravity = vec2(*v, "gravity", v->text, "gravity", kGravityRange);
  if (const auto v = values.scalar("attractor")) stage.attractor = parse_attractor(*v, first.engine.rigid.events);
  for (const Value& v : values.list("law")) stage.laws.push_back(parse_law(v));
  check_law_models(stage.laws, first.engine);
  for (const Value& v : values.list("remove")) stage.removals.push_back(parse_removal(v));
  for (const Value& v : values.list("set_wall")) stage.wall_changes.push_back(parse_wall_change(v));
  for (const Value& v : values.list("grains")) {
    stage.grains.push_back(parse_grains(v, base));
    check_material(v.at, "grains", stage.grains.back().material);
  }
  stage.seed = first.seed;
  if (const auto v = values.scalar("output_interval")) stage.output_interval = positive(*v, "output_interval", v->text);
  if (const auto v = values.scalar("checkpoint_interval")) stage.checkpoint_interval = parse_checkpoint_interval(*v);
  if (const auto v = values.scalar("fields")) {
    if (!needs_duration)
      fail_at(v->at, "fields", "the fields a run writes are chosen when its output starts (start_output)");
    stage.fields = parse_fields(*v);
  }
  return stage;
}

StageSpec parse_stage(const SceneSections::Stage& section, const std::string& source, const SceneConfig& first,
                      const std::filesystem::path& base) {
  StageSpec stage;
  stage.name = section.name;
  stage.at = {fmt::format("{}:{}", source, section.line)};
  return parse_stage_text(joined(section.lines), source, std::move(stage), first, true, base);
}

}  // namespace

std::string_view to_string(Backend backend) { return backend == Backend::opencl ? "opencl" : "cpu"; }

Backend backend_from_string(std::string_view word) {
  if (word == "cpu") return Backend::cpu;
  if (word == "opencl") return Backend::opencl;
  throw std::invalid_argument(fmt::format("expected cpu or opencl, found '{}'", word));
}

SceneConfig parse_scene(const std::string& text, const std::string& source, const std::filesystem::path& base,
                        const std::vector<std::string>& overrides) {
  if (const auto control = first_control_byte(text))
    throw SceneError(
        fmt::format("{}:{}: {}: a scene is plain text; remove it (was the file saved by a word "
                    "processor, or a binary pasted into it?)",
                    source, control->line, describe(*control)));
  const SceneSections sections = split_sections(text, source);
  const SceneValues values(joined(sections.first), source, overrides);
  SceneConfig scene;
  scene.source = source;
  const auto duration = values.scalar("duration");
  if (!duration) throw SceneError(fmt::format("{}: missing 'duration = SECONDS' (how much time to simulate)", source));
  scene.duration = positive(*duration, "duration", duration->text);
  read_engine_keys(values, scene);
  read_periodic_cell(values, scene);
  read_output_keys(values, scene);
  read_lists(values, scene, base);
  if (scene.laws.empty())
    throw SceneError(fmt::format("{}: no 'law = 0 0 linear kn=...' line: grains need a contact law", source));
  check_law_models(scene.laws, scene.engine);
  for (const SceneSections::Stage& stage : sections.stages)
    scene.stages.push_back(parse_stage(stage, source, scene, base));
  return scene;
}

StageSpec parse_stage_changes(const std::string& text, const std::string& source, const SceneConfig& first,
                              const std::filesystem::path& base) {
  StageSpec stage;
  stage.name = source;
  stage.at = {source};
  return parse_stage_text(text, source, std::move(stage), first, false, base);
}

void require_bodies(const SceneConfig& scene) {
  if (scene.grains.empty() && scene.packings.empty())
    throw SceneError(fmt::format("{}: no 'grains = ...' or 'packing = ...' line: nothing to simulate", scene.source));
}

SceneConfig read_scene(const std::filesystem::path& path, const std::vector<std::string>& overrides) {
  if (std::filesystem::is_directory(path))
    throw SceneError(fmt::format("{}: a folder, not a scene file", path.string()));
  std::ifstream in(path);
  if (!in) throw SceneError(fmt::format("{}: cannot open the scene file (does it exist?)", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  return parse_scene(text.str(), path.string(), path.parent_path(), overrides);
}

}  // namespace sphero
