// Scenes: an INI-style file read with Boost.Program_options, every key of
// which can be overridden on the command line (`--gravity 0,-9.81`). The
// keys are documented in docs/SCENES.md. Errors name the file and line (or
// the command-line option), the key, and what is expected.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "packing/progress.h"

namespace sphero {

class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a value came from, for error messages: "scene.ini:12" or
// "command line --dt".
struct SceneLocation {
  std::string where;
};

// Throws SceneError "WHERE: KEY: MESSAGE" for a value given at `at`.
[[noreturn]] void fail_at(const SceneLocation& at, const std::string& key, const std::string& message);

// How a wall moves: fixed (nothing given), at a constant velocity, or
// pushed with a constant pressure along one axis — then, optionally, sliding
// at a constant velocity across that axis (a shear plate), and with the
// length the pressure acts on following two other walls (`span`); either
// of the first two may vibrate or tap along its imposed directions.
struct WallMotion {
  std::optional<Vec2> velocity;
  std::optional<double> pressure;
  Vec2 inward;
  std::optional<std::array<std::string, 2>> span;  // two walls, each by name or number (WallChange::wall)
  // An oscillation on top (Vibration): amplitude · sin(2π f t), or one such
  // cycle every tap_interval seconds.
  std::optional<Vec2> amplitude;
  double frequency = 0.0;
  double tap_interval = 0.0;
};

struct WallSpec {
  SceneLocation at;
  std::string name;  // empty: unnamed, known by its number (io/wall_labels.h)
  std::vector<Vec2> points;
  double radius = 0.0;
  int material = 0;
  double density = 1.0;
  WallMotion motion;
};

// `set_wall = W ...`: a new motion for wall W, or its removal — for walls
// that come with a packing (a compressed sample's plates, a hopper's gate).
// W is the wall's name, or its body number (as energy.csv's wallN).
struct WallChange {
  SceneLocation at;
  std::string wall;
  bool remove = false;
  std::optional<int> material;  // e.g. frictionless platens: a material of their own
  bool keeps_motion = false;    // `W material=M` alone: the wall moves as it did
  WallMotion motion;
};

// A `remove` line (a stage, or a --from scene): the grains whose centre of
// mass lies in a region (x0 <= x <= x1, y0 <= y <= y1), or the grains of
// the given ids.
struct RemovalSpec {
  SceneLocation at;
  std::optional<std::array<double, 4>> region;  // x0, y0, x1, y1
  std::vector<int> ids;
};

struct GrainsSpec {
  SceneLocation at;
  std::filesystem::path shape_file;
  int count = 0;
  std::string generator = "lattice";  // lattice | random
  double region[4] = {0, 0, 0, 0};    // x0, y0, x1, y1
  int material = 0;
  double density = 1.0;
  double speed = 0.0;  // in a random direction
  bool random_angle = true;
  double angle = 0.0;  // when not random, degrees
};

struct LawSpec {
  SceneLocation at;
  int a = 0, b = 0;
  ContactLaw law;                 // the soft model's
  std::optional<RigidLaw> rigid;  // the rigid model's (`A B rigid ...`)
};

// Where a soft-model run's contact pass runs: on the CPU, or on an OpenCL
// device (docs/OPENCL.md). The same bits either way: not in checkpoints.
enum class Backend { cpu, opencl };
std::string_view to_string(Backend backend);
// Throws std::invalid_argument naming the accepted words.
Backend backend_from_string(std::string_view word);

// A later stage of a scene (`[stage NAME]`, docs/SCENES.md): what it
// changes in the state the stage before left. What it does not give carries
// over: every body, contact and spring, the ledger, the time, and the
// settings of the stage before.
struct StageSpec {
  std::string name;
  SceneLocation at;          // its `[stage NAME]` line
  double duration = 0.0;     // the stage's length, s
  std::optional<double> dt;  // 0: auto, for the state's world
  std::optional<Vec2> gravity;
  std::optional<Attractor> attractor;
  std::vector<LawSpec> laws;  // replace the laws of the pairs they name
  std::vector<WallChange> wall_changes;
  std::optional<double> output_interval, checkpoint_interval;
  // Grains the stage adds, after every body there is (ids stay those of
  // the bodies before), placed by a generator seeded from `seed` and the
  // step the stage starts at.
  std::vector<GrainsSpec> grains;
  std::uint64_t seed = 1;
  std::vector<RemovalSpec> removals;               // applied first, with set_wall's removals
  std::optional<std::vector<std::string>> fields;  // what its frames hold, from its start on
  // Whether it adds or removes bodies (grains, removals, a wall removed).
  bool changes_bodies() const {
    bool removes_a_wall = false;
    for (const WallChange& c : wall_changes) removes_a_wall = removes_a_wall || c.remove;
    return !grains.empty() || !removals.empty() || removes_a_wall;
  }
};

struct SceneConfig {
  std::string source;  // the scene file, or "built-in default scene"
  // run
  double duration = 0.0;
  EngineSettings engine;
  // Whether the scene gave rigid_solver and rigid_tolerance, or left them
  // to their defaults (a restart then keeps its checkpoint's).
  bool rigid_solver_given = false, rigid_tolerance_given = false;
  Vec2 gravity;
  Attractor attractor;
  std::uint64_t seed = 1;
  int threads = 1;
  Backend backend = Backend::cpu;
  PeriodicCell cell;
  // bodies
  std::vector<LawSpec> laws;
  std::vector<WallSpec> walls;
  std::vector<WallChange> wall_changes;
  std::vector<GrainsSpec> grains;
  std::vector<std::pair<std::filesystem::path, SceneLocation>> packings;  // state files to load bodies from
  std::vector<RemovalSpec> removals;  // a --from scene's; a new run has none to remove
  // output
  std::filesystem::path output_directory = "sphero-output";
  double output_interval = 0.0;
  int arc_resolution = 24;
  bool single_precision = false;     // `precision = single`: frames' numbers in 32 bits (io/single_precision.h)
  double checkpoint_interval = 0.0;  // 0: only at the end and on signals
  std::vector<std::string> fields{"state", "contacts", "walls"};  // the light set
  // The stages after the first, which the keys above describe.
  std::vector<StageSpec> stages;
};

// Reads a scene from text (`source_name` names it in messages, `base` is
// where relative shape paths start) and applies command-line overrides
// given as {"--key", "value", ...}.
SceneConfig parse_scene(const std::string& text, const std::string& source_name, const std::filesystem::path& base,
                        const std::vector<std::string>& overrides = {});
SceneConfig read_scene(const std::filesystem::path& path, const std::vector<std::string>& overrides = {});

// The keys and what they take, for `sphero run --help`.
std::string scene_keys_help();

// Where a world's bodies came from: the scene's walls, a packing, a
// grains line; for `--check`.
struct BodySource {
  std::string where;  // "scene.ini:12", "command line --packing"
  std::string what;   // "walls", "packing dense.vtu", "grains cow.shape"
  std::size_t grains = 0, walls = 0;
};

// A stage's changes given as `key = value` lines without a duration, as
// Python's Simulation.change() gives them between runs; `first` is the
// scene the state came from (its model). Throws SceneError naming the line.
StageSpec parse_stage_changes(const std::string& text, const std::string& source, const SceneConfig& first,
                              const std::filesystem::path& base = ".");

// Material numbers run from 0 to kMostMaterials − 1: the law table holds
// materials² entries. Throws SceneError at `at` for one beyond.
inline constexpr int kMostMaterials = 1000;
void check_material(const SceneLocation& at, const char* key, int material);

// Refuses a scene that lays out no bodies (no grains, no packing): all
// but a scene continuing a checkpoint (`--from`) need some.
void require_bodies(const SceneConfig& scene);

// Lays out the bodies (generators seeded by the scene's seed) and checks
// the layout: grains inside the periodic cell, not overlapping walls or
// each other, and no two grains (from packings too) overlapping by more
// than their sphero-radii. Throws SceneError naming the scene line of the
// culprit. `sources`, when given, receives where the bodies came from.
World build_world(const SceneConfig& scene, const Progress& progress = {}, std::vector<BodySource>* sources = nullptr);

// The bodies of `lines` (a stage's grains), placed as a scene's grains
// lines are, clear of every body of `world`, by a generator seeded with
// `seed`. Throws SceneError naming the line.
std::vector<BodySpec> grains_among(const std::vector<GrainsSpec>& lines, const World& world, std::uint64_t seed);

// The bodies of `lines` as they will be but for where they lie (each at
// its region's centre): what a plan of the run needs of them.
std::vector<BodySpec> unplaced_grains(const std::vector<GrainsSpec>& lines);

// Grains given whole (Python's arrays): placed after the scene's walls and
// packings and before its `grains` lines, under the same checks, each
// named in messages by `source` and its row.
struct GivenGrains {
  std::vector<BodySpec> bodies;
  std::string source;  // "Simulation(positions=...)"
};
World build_world(const SceneConfig& scene, const GivenGrains& given, const Progress& progress = {},
                  std::vector<BodySource>* sources = nullptr);

// The scene's engine settings with 'auto' filled in for this world: dt a
// fiftieth of the shortest contact period, the Verlet distance 5% of the
// smallest grain's size.
EngineSettings resolve_engine_settings(const SceneConfig& scene, const World& world);

}  // namespace sphero
