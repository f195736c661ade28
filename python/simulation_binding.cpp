// Stepping a scene, and its state as NumPy arrays.
#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <exception>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "arrays.h"
#include "bindings.h"
#include "io/run_output.h"
#include "run/stop_request.h"
#include "simulation.h"

namespace sphero::python {
namespace {

// How often a run looks for Ctrl-C: well within the half second a user
// waits for, and rarely enough to cost nothing against the steps.
constexpr std::chrono::milliseconds kSignalCheck{100};

// Python's part of a run: Ctrl-C (Python's signal handler only marks it;
// the interpreter must look) and the callback, both with the GIL taken
// back for a moment while the steps run without it. A failure of either
// stops the run after the step and is raised once it has returned.
class PythonWatch final : public RunObserver {
 public:
  PythonWatch(py::object self, py::object callback, long every)
      : self_(std::move(self)), callback_(std::move(callback)), every_(every) {}
  void watch(RunDriver& driver) { driver_ = &driver; }
  void stepped(const RunPoint&) override {
    const bool call = !callback_.is_none() && ++since_callback_ == every_;
    const auto now = std::chrono::steady_clock::now();
    if (!call && now < next_check_) return;
    next_check_ = now + kSignalCheck;
    const py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (call) {
        since_callback_ = 0;
        self_.cast<Simulation&>().engine().world();  // the host's arrays, brought back from a device
        callback_(self_);
      }
    } catch (...) {
      failure_ = std::current_exception();
      driver_->request_stop(SIGINT);
    }
  }
  // Raises what stopped the run, if anything did. With the GIL held.
  void raise_failure() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  py::object self_, callback_;
  long every_, since_callback_ = 0;
  std::chrono::steady_clock::time_point next_check_ = std::chrono::steady_clock::now() + kSignalCheck;
  RunDriver* driver_ = nullptr;
  std::exception_ptr failure_;
};

// One value per grain from `values` (None: `otherwise` for every grain),
// refused, naming the argument, for another length.
template <class T>
std::vector<T> per_grain(const py::object& values, std::size_t n, T otherwise, const char* name) {
  if (values.is_none()) return std::vector<T>(n, otherwise);
  std::vector<T> out = values.cast<std::vector<T>>();
  if (out.size() != n)
    throw std::invalid_argument(
        fmt::format("Simulation({}=...): {} values for {} grains (one per row of positions)", name, out.size(), n));
  return out;
}

std::vector<Vec2> points_per_grain(const py::object& values, std::size_t n, const char* name) {
  if (values.is_none()) return std::vector<Vec2>(n);
  std::vector<Vec2> out = to_points(values, fmt::format("Simulation({}=...)", name).c_str());
  if (out.size() != n)
    throw std::invalid_argument(
        fmt::format("Simulation({}=...): {} rows for {} grains (one per row of positions)", name, out.size(), n));
  return out;
}

// The grains of Simulation(scene, shapes=..., positions=..., ...).
GivenGrains grains_from_arrays(const std::vector<Shape>& shapes, const py::object& shape_index,
                               const py::object& positions, const py::object& angles, const py::object& velocities,
                               const py::object& angular_velocities, const py::object& materials,
                               const py::object& densities) {
  const std::vector<Vec2> centres = to_points(positions, "Simulation(positions=...)");
  const std::size_t n = centres.size();
  const std::vector<long> index = per_grain<long>(shape_index, n, 0, "shape_index");
  const std::vector<double> angle = per_grain<double>(angles, n, 0.0, "angles");
  const std::vector<Vec2> velocity = points_per_grain(velocities, n, "velocities");
  const std::vector<double> spin = per_grain<double>(angular_velocities, n, 0.0, "angular_velocities");
  const std::vector<int> material = per_grain<int>(materials, n, 0, "materials");
  const std::vector<double> density = per_grain<double>(densities, n, 1.0, "densities");
  GivenGrains given;
  given.source = "Simulation(positions=...)";
  for (std::size_t k = 0; k < n; ++k) {
    const auto refuse = [&](const char* name, const std::string& what) {
      throw std::invalid_argument(fmt::format("Simulation({}=...): row {}: {}", name, k, what));
    };
    if (index[k] < 0 || index[k] >= static_cast<long>(shapes.size()))
      refuse("shape_index", fmt::format("{} names no shape: there are {} (0 to {})", index[k], shapes.size(),
                                        static_cast<long>(shapes.size()) - 1));
    const bool finite = std::isfinite(centres[k].x) && std::isfinite(centres[k].y) && std::isfinite(angle[k]) &&
                        std::isfinite(velocity[k].x) && std::isfinite(velocity[k].y) && std::isfinite(spin[k]);
    if (!finite) refuse("positions", "a position, angle or velocity that is not a finite number");
    if (material[k] < 0) refuse("materials", fmt::format("material {}; materials are numbered from 0", material[k]));
    if (!(density[k] > 0.0 && std::isfinite(density[k])))
      refuse("densities", fmt::format("density {}; give a positive one", density[k]));
    BodySpec b;
    b.shape = shapes[static_cast<std::size_t>(index[k])];
    b.position = centres[k];
    b.angle = angle[k];
    b.velocity = velocity[k];
    b.angular_velocity = spin[k];
    b.material = material[k];
    b.density = density[k];
    given.bodies.push_back(std::move(b));
  }
  return given;
}

std::unique_ptr<Simulation> from_arrays(const SceneConfig& scene, const std::vector<Shape>& shapes,
                                        const py::object& shape_index, const py::object& positions,
                                        const py::object& angles, const py::object& velocities,
                                        const py::object& angular_velocities, const py::object& materials,
                                        const py::object& densities) {
  if (shapes.empty()) throw std::invalid_argument("Simulation(shapes=...): give at least one sphero.Shape");
  return std::make_unique<Simulation>(scene, grains_from_arrays(shapes, shape_index, positions, angles, velocities,
                                                                angular_velocities, materials, densities));
}

// Steps for `time` (a duration from now, s) or `steps` (one of them),
// calling `callback(simulation)` every `every` steps; Ctrl-C stops it after
// the step it comes in.
void run(py::object self, std::optional<double> time, std::optional<long> steps, const py::object& callback,
         long every) {
  Simulation& s = self.cast<Simulation&>();
  if (time.has_value() == steps.has_value()) throw std::invalid_argument("run: give time or steps, not both");
  const double dt = s.engine().settings().dt;
  const long total = steps ? *steps : std::lround(*time / dt);
  if (total < 0 || (time && !(std::isfinite(*time) && *time >= 0.0)))
    throw std::invalid_argument("run: time and steps must be non-negative");
  if (!callback.is_none() && every < 1) throw std::invalid_argument("run: every must be at least 1");
  const Simulation::Busy busy(s);
  PythonWatch watch(self, callback, every);
  RunOutcome outcome;
  {
    // On the main thread, where Python's own handler takes Ctrl-C, it
    // reaches the run itself, even inside a long step of the rigid model
    // (rolled back to its start): Python's handler runs only between the
    // interpreter's instructions. Off it, Ctrl-C is the main thread's.
    const py::module_ threading = py::module_::import("threading"), signal = py::module_::import("signal");
    const bool ours = threading.attr("current_thread")().is(threading.attr("main_thread")()) &&
                      signal.attr("getsignal")(SIGINT).is(signal.attr("default_int_handler"));
    std::optional<StopOnInterrupt> interrupt;
    if (ours) interrupt.emplace();
    const py::gil_scoped_release release;
    outcome = s.run(total, &watch, ours, [&](RunDriver& driver) { watch.watch(driver); });
  }
  watch.raise_failure();
  // Also a Ctrl-C that came after the run's last look at it.
  if (stop_requested() == SIGINT && outcome.ending != RunOutcome::Ending::unstable) {
    clear_stop_request();
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  if (outcome.ending == RunOutcome::Ending::unstable) throw std::runtime_error(outcome.instability);
}

// Every distinct shape of the bodies, and per body its place among them:
// what Simulation(shapes=..., shape_index=...) takes.
py::tuple shapes_of(const World& w) {
  std::vector<Shape> shapes;
  std::vector<long> index;
  // Bodies of one skeleton share its body-frame vertices (World::local_shift).
  std::map<std::tuple<std::string, double, bool, int, int>, long> known;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const int first = w.vertex_begin[i] + w.local_shift[i];
    const auto [at, fresh] = known.try_emplace(
        {w.shape_name[i], w.radius[i], w.closed[i] != 0, first, w.vertex_count[i]}, static_cast<long>(shapes.size()));
    if (fresh) shapes.push_back(body_shape(w, i));
    index.push_back(at->second);
  }
  return py::make_tuple(shapes, copy_values(index));
}

// energy.csv's wall columns, now.
py::dict walls_of(const Engine& engine) {
  const std::vector<WallColumns> columns = wall_columns(engine.world());
  const EnergyRow row = energy_row(engine, EnergyLedger{}, engine.deepest_overlap());
  py::dict walls;
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const EnergyRow::Wall& w = row.walls[k];
    py::dict wall;
    wall["number"] = columns[k].number;
    wall["force"] = py::make_tuple(w.force.x, w.force.y);
    wall["position"] = py::make_tuple(w.position.x, w.position.y);
    wall["load"] = py::make_tuple(w.load.x, w.load.y);
    walls[py::str(columns[k].label)] = wall;
  }
  return walls;
}

py::dict contacts_of(const Engine& engine) {
  const World& w = engine.world();
  std::vector<int> vertex_body, edge_body, vertex, edge, sliding;
  std::vector<Vec2> point, normal, force;
  std::vector<double> normal_force, overlap;
  for (const Contact& c : engine.contacts()) {
    if (!c.active) continue;
    vertex_body.push_back(c.vertex_body), edge_body.push_back(c.edge_body);
    vertex.push_back(c.vertex - w.vertex_begin[static_cast<std::size_t>(c.vertex_body)]);
    edge.push_back(c.feature - w.vertex_begin[static_cast<std::size_t>(c.edge_body)]);
    sliding.push_back(c.sliding);
    point.push_back(c.point), normal.push_back(c.normal), force.push_back(c.force);
    normal_force.push_back(c.normal_force), overlap.push_back(c.overlap);
  }
  py::dict d;
  d["vertex_body"] = copy_values(vertex_body);
  d["edge_body"] = copy_values(edge_body);
  d["vertex"] = copy_values(vertex);
  d["edge"] = copy_values(edge);
  d["point"] = copy_points(point);
  d["normal"] = copy_points(normal);
  d["force"] = copy_points(force);
  d["normal_force"] = copy_values(normal_force);
  d["overlap"] = copy_values(overlap);
  d["sliding"] = copy_values(sliding);
  return d;
}

py::dict energy_of(const Engine& engine) {
  const EnergyLedger& l = engine.ledger();
  py::dict d;
  d["kinetic_translational"] = l.kinetic_translational;
  d["kinetic_rotational"] = l.kinetic_rotational;
  d["elastic_normal"] = l.elastic_normal;
  d["elastic_tangential"] = l.elastic_tangential;
  d["gravitational"] = l.gravitational;
  d["mechanical"] = l.mechanical();
  d["external_work"] = l.external_work;
  d["damping_dissipation"] = l.damping_dissipation;
  d["sliding_dissipation"] = l.sliding_dissipation;
  d["first_law_residual"] = l.first_law_residual();
  return d;
}

}  // namespace

void bind_simulation(py::module_& m) {
  // A read of the state, refused while another thread runs the simulation.
  const auto idle = [](py::object self) -> Simulation& {
    Simulation& s = self.cast<Simulation&>();
    s.require_idle();
    return s;
  };
  py::class_<Simulation>(
      m, "Simulation",
      "A scene stepped by the engine (soft or rigid model, as the scene says), as `sphero run` steps it. One thread "
      "runs it at a time.")
      .def(py::init<const SceneConfig&>(), py::arg("scene"))
      .def(py::init(&from_arrays), py::arg("scene"), py::kw_only(), py::arg("shapes"), py::arg("shape_index"),
           py::arg("positions"), py::arg("angles") = py::none(), py::arg("velocities") = py::none(),
           py::arg("angular_velocities") = py::none(), py::arg("materials") = py::none(),
           py::arg("densities") = py::none(),
           "The scene's walls, laws and settings with grains from arrays: grain k is shapes[shape_index[k]] at "
           "positions[k] (its centre of mass, N × 2), turned by angles[k] (radians, default 0), moving at "
           "velocities[k] (N × 2, default 0) and angular_velocities[k] (default 0), of materials[k] (default 0) and "
           "densities[k] (default 1). They come after the scene's walls and packings and before its own grains, "
           "under the same checks (two grains whose skeletons cross are refused, named by their rows).")
      .def_static("from_checkpoint", &Simulation::from_checkpoint, py::arg("checkpoint"), py::arg("scene"),
                  "`sphero run SCENE --from CHECKPOINT`'s start: the checkpoint's bodies, contacts, springs and time, "
                  "with everything else from `scene` applied as a stage (docs/SCENES.md, \"Stages\").")
      .def(
          "_change", [idle](py::object self, const std::string& text) { idle(self).change(text); }, py::arg("text"))
      .def(
          "save_checkpoint",
          [idle](py::object self, const std::filesystem::path& path) { idle(self).save_checkpoint(path); },
          py::arg("path"), "A checkpoint of the state now, as `sphero run` writes final.ckpt (--restart, --from).")
      .def(
          "start_output",
          [idle](py::object self, const std::filesystem::path& folder, std::optional<double> frame_interval,
                 std::optional<double> checkpoint_interval, bool overwrite) {
            Simulation& s = idle(self);
            const double dt = s.engine().settings().dt;
            const auto steps = [dt](std::optional<double> interval, long otherwise) {
              if (!interval) return otherwise;
              if (!(std::isfinite(*interval) && *interval > 0.0))
                throw std::invalid_argument(
                    fmt::format("start_output: an interval must be positive, found {}", *interval));
              return std::max(1L, std::lround(*interval / dt));
            };
            s.start_output(folder, steps(frame_interval, 1000), steps(checkpoint_interval, 0), overwrite);
          },
          py::arg("folder"), py::arg("frame_interval") = py::none(), py::arg("checkpoint_interval") = py::none(),
          py::arg("overwrite") = false,
          "From now on, write frames, energy.csv and checkpoints into `folder` as `sphero run` does (a frame now and "
          "every `frame_interval` s of simulated time, default 1000 steps; checkpoint.ckpt every "
          "`checkpoint_interval` s, default none). `change()` starts a stage there, with a frame. The folder must be "
          "empty or new unless `overwrite`.")
      .def(
          "stop_output", [idle](py::object self) { idle(self).stop_output(); },
          "Writes final.ckpt into the output folder and ends the output.")
      .def_property_readonly(
          "output_folder", [idle](py::object self) { return idle(self).output_folder(); },
          "The folder output goes to (start_output), or None.")
      .def("__repr__",
           [](const Simulation& s) {
             const World& w = s.engine().world();
             std::size_t walls = 0;
             for (std::size_t i = 0; i < w.size(); ++i) walls += w.is_wall[i];
             return fmt::format("<sphero.Simulation: {} grains, {} walls, t = {:g} s, step {}, dt = {:g} s, {} model>",
                                w.size() - walls, walls, s.engine().time(), s.engine().step_count(),
                                s.engine().settings().dt, to_string(s.engine().settings().model));
           })
      .def("run", &run, py::arg("time") = py::none(), py::arg("steps") = py::none(), py::arg("callback") = py::none(),
           py::arg("every") = 1000,
           "Steps for a simulated time from now (a duration, s) or a number of steps; callback(simulation) every "
           "`every` steps. Ctrl-C stops it (KeyboardInterrupt) after the step it comes in, and on the main thread "
           "inside a slow step of the rigid model, which is rolled back to its start; a second run from another "
           "thread meanwhile raises RuntimeError, and so do change(), start_output() and stop_output() from a "
           "callback.")
      .def_property_readonly("time", [idle](py::object self) { return idle(self).engine().time(); })
      .def_property_readonly("step_count", [idle](py::object self) { return idle(self).engine().step_count(); })
      .def_property_readonly("dt", [idle](py::object self) { return idle(self).engine().settings().dt; })
      .def_property_readonly("bodies", [idle](py::object self) { return idle(self).engine().world().size(); })
      .def_property_readonly(
          "positions", [idle](py::object self) { return view_points(idle(self).engine().world().position, self); },
          "Centres of mass, N × 2 (a read-only view, current until the next run).")
      .def_property_readonly(
          "velocities", [idle](py::object self) { return view_points(idle(self).engine().world().velocity, self); })
      .def_property_readonly(
          "angles", [idle](py::object self) { return view_values(idle(self).engine().world().angle, self); })
      .def_property_readonly(
          "angular_velocities",
          [idle](py::object self) { return view_values(idle(self).engine().world().angular_velocity, self); })
      .def_property_readonly(
          "masses", [idle](py::object self) { return view_values(idle(self).engine().world().mass, self); })
      .def_property_readonly(
          "radii", [idle](py::object self) { return view_values(idle(self).engine().world().radius, self); },
          "Sphero-radii, N (a read-only view).")
      .def_property_readonly(
          "ids", [idle](py::object self) { return copy_values(idle(self).engine().world().id); },
          "Each body's id, N (a copy): what frames, checkpoints, energy.csv's wallN and change(remove=...) call "
          "it. A body keeps its id for the whole run and no id is given twice: ids rise with the body number and "
          "have gaps where grains were removed.")
      .def_property_readonly(
          "names", [idle](py::object self) { return idle(self).engine().world().shape_name; },
          "Each body's shape name: a wall's name where it has one ('wall' or 'plate' where not), as energy.csv "
          "and set_wall know it.")
      .def(
          "wall",
          [idle](py::object self, const std::string& name) {
            const World& w = idle(self).engine().world();
            for (std::size_t i = 0; i < w.size(); ++i)
              if (w.is_wall[i] && w.shape_name[i] == name) return i;
            throw py::key_error("no wall is named '" + name + "'");
          },
          py::arg("name"), "The body number of the wall of that name (KeyError where there is none).")
      .def_property_readonly("is_wall",
                             [idle](py::object self) {
                               const auto& w = idle(self).engine().world().is_wall;
                               return copy_values(std::vector<std::uint8_t>(w.begin(), w.end())).attr("astype")("bool");
                             })
      .def(
          "shapes", [idle](py::object self) { return shapes_of(idle(self).engine().world()); },
          "(shapes, shape_index): every distinct shape of the bodies (sphero.Shape, skeleton about the centre of "
          "mass), and per body the index of its own, as Simulation(shapes=..., shape_index=...) takes them.")
      .def(
          "walls", [idle](py::object self) { return walls_of(idle(self).engine()); },
          "Every wall by its label (its name, or wallN) as energy.csv's columns give it: number, the force the "
          "grains exert on it (N per unit thickness), its position, and the load imposed on a pressure plate.")
      .def(
          "contacts", [idle](py::object self) { return contacts_of(idle(self).engine()); },
          "Every touching vertex contact: bodies, features, point of application, normal, force on the vertex "
          "body, normal force, overlap, sliding.")
      .def(
          "energy", [idle](py::object self) { return energy_of(idle(self).engine()); },
          "The energy ledger, J per unit thickness.")
      .def(
          "frame", [idle](py::object self) { return idle(self).frame(); },
          "The current state as a run's frame, for sphero.analyze.");
}

}  // namespace sphero::python
