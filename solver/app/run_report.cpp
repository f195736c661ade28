#include "app/run_report.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/triangulation_neighbours.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;

std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  return s >= 3600 ? fmt::format("{}h{:02d}m", s / 3600, (s % 3600) / 60) : fmt::format("{}m{:02d}s", s / 60, s % 60);
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

ProgressReport::ProgressReport(bool quiet, std::size_t grains, long first_step, long total_steps)
    : quiet_(quiet),
      terminal_(isatty(STDOUT_FILENO)),
      grains_(grains),
      first_step_(first_step),
      total_(total_steps),
      wall_start_(std::chrono::steady_clock::now()),
      last_(wall_start_),
      cpu_start_(cpu_seconds()) {}

void ProgressReport::stepped(const RunPoint& at) {
  const auto now = std::chrono::steady_clock::now();
  if (quiet_ || now - last_ <= std::chrono::milliseconds(terminal_ ? 250 : 10000)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - wall_start_).count();
  const double done = static_cast<double>(at.step - first_step_);
  const double rate = done / elapsed;
  const double cundall = done * static_cast<double>(grains_) / std::max(1e-9, cpu_seconds() - cpu_start_);
  const std::string line = fmt::format("{:5.1f}%  t = {:.4g} s  {:.0f} steps/s  Cundall {:.3g}  ETA {}",
                                       100.0 * static_cast<double>(at.step) / static_cast<double>(total_), at.time,
                                       rate, cundall, clock_text(static_cast<double>(total_ - at.step) / rate));
  if (terminal_) fmt::print("\r{:<78}", line);
  else fmt::print("{}\n", line);
  std::fflush(stdout);
}

void ProgressReport::finish() const {
  if (terminal_ && !quiet_) fmt::print("\n");
}

double ProgressReport::wall_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
}

double ProgressReport::cpu_seconds_used() const { return cpu_seconds() - cpu_start_; }

void print_summary(const RunTotals& totals, const Engine* engine, const RunOutput& output, const fs::path& out,
                   long steps, std::size_t grains, double wall, double cpu) {
  const EnergyLedger& l = totals.ledger;
  std::string collections;  // the .pvd files the scene's fields asked for
  for (const std::string& field : output.fields()) collections += (collections.empty() ? "" : ", ") + field + ".pvd";
  const auto& fields = output.fields();
  const bool drawn = std::find(fields.begin(), fields.end(), "outlines") != fields.end();
  fmt::print(
      "sphero run: done, t = {:g} s in {} steps, {:.1f} s wall, Cundall number {:.3g} particle-steps per CPU second.\n"
      "  energy: mechanical {:.6g} J (started at {:.6g}), work in {:.6g} J, dissipated {:.6g} J, first-law residual "
      "{:.3g} J\n"
      "  contacts: deepest overlap {:.3g} of the two sphero-radii (t = {:g} s)\n"
      "  output: {}/run.sphero, {} ({} frames), energy.csv, final.ckpt\n"
      "  open in ParaView: {}/run.sphero with the Sphero plugin (README){}\n",
      totals.time, steps, wall, static_cast<double>(steps) * static_cast<double>(grains) / std::max(cpu, 1e-9),
      l.mechanical(), l.initial_mechanical, l.external_work, l.dissipated(), l.first_law_residual(),
      totals.deepest_overlap, totals.deepest_overlap_time, out.string(), collections, output.frames_written(),
      out.string(),
      drawn ? ", or outlines.pvd without it" : " (fields = ...,outlines draws them for ParaView without it)");
  if (engine && engine->settings().model == Model::rigid) {
    const CollisionStats c = engine->collision_stats();
    const bool sweeps = engine->settings().rigid.solver == RigidSolver::gauss_seidel;
    const auto share = [](double part, double of) { return of > 0.0 ? part / of : 0.0; };
    const auto per = [](long count, long of) {
      return of > 0 ? static_cast<double>(count) / static_cast<double>(of) : 0.0;
    };
    fmt::print(
        "  collisions: {} steps with contacts, {:.1f} contacts in {:.1f} groups each (the largest {} bodies), {:.1f} "
        "{} per program, largest {} {:.2g}, {} position corrections; time: contacts and assembly {:.2f} s, programs "
        "{:.2f} s, corrections {:.2f} s\n",
        c.programs, per(c.contacts, c.programs), per(c.groups, c.programs), c.largest_group,
        per(c.iterations, c.group_programs), sweeps ? "Gauss-Seidel sweeps" : "interior-point iterations",
        sweeps ? "residual" : "KKT residual", c.largest_kkt_residual, c.corrections, c.seconds_detecting,
        c.seconds_solving, c.seconds_correcting);
    if (c.stalled > 0)
      fmt::print(
          "  {} frictional programs stalled above rigid_tolerance and were taken at their best residual (the largest "
          "residual above; docs/MODEL.md §7, \"Coulomb friction\")\n",
          c.stalled);
    if (engine->settings().rigid.events) {
      const BodySteps b = engine->body_steps();
      const double body_steps = b.flown + b.time_stepped;
      fmt::print(
          "  events: {} collisions met at their instants; {:.1f}% of the body-steps flown by events, {:.1f}% "
          "time-stepped ({}); {} of the {} steps handed to the time-stepping {}; {} lists made anew within a "
          "step (a body flew its skin)\n",
          c.events, share(b.flown, body_steps) * 100.0, share(b.time_stepped, body_steps) * 100.0,
          engine->settings().rigid.whole_step_events ? "whole steps with a resting contact"
                                                     : "clusters of resting contacts",
          c.handed_over, steps,
          engine->settings().rigid.whole_step_events ? "(resting contacts, or grains colliding without end)"
                                                     : "from where the events left them (grains colliding without end)",
          c.relists);
    }
  }
  if (const TriangulationNeighbours* t = engine ? engine->neighbour_triangulation() : nullptr) {
    const TriangulationStats s = t->stats();
    fmt::print(
        "  neighbours: void-space triangulation, {} list rebuilds moved it by {} flips; built from scratch {} "
        "times ({} of them when a move could not go on)\n",
        s.moves, s.flips, s.builds, s.rebuilds);
  }
  if (totals.deepest_overlap >= 0.9)
    fmt::print(stderr,
               "sphero run: warning: at t = {:g} s two skeletons met or crossed (an overlap of {:.3g} times the sum of "
               "the sphero-radii): the contact normal can flip there and energy is not conserved. Overlaps scale as "
               "v sqrt(m / kn): stiffen kn or slow the grains.\n",
               totals.deepest_overlap_time, totals.deepest_overlap);
}

int report_early_end(const RunOutcome& outcome, double time, const std::string& continue_with, double last_good_time,
                     int frames_written, int last_frame, const fs::path& out) {
  if (outcome.ending == RunOutcome::Ending::stopped) {
    fmt::print(stderr, "\nsphero run: stopped by signal {} at t = {:g} s; continue with\n  {}\n", outcome.signal, time,
               continue_with);
    return 128 + outcome.signal;
  }
  fmt::print(stderr,
             "\nsphero run: {}\nThe last good state (t = {:g} s) is frame {} (state_{:05d}) in {}/ and "
             "last-good.ckpt.\n",
             outcome.instability, last_good_time, frames_written - 1, last_frame, out.string());
  return 3;
}

}  // namespace sphero::app
