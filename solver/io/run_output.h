// What `sphero run` leaves on disk, per frame: particles_NNNNN.vtu (rounded
// outlines as polygons with per-particle data), contacts_NNNNN.vtu (the force
// network, one line per interacting pair), walls_NNNNN.vtu (wall skeletons
// and outlines), state_NNNNN.vtu (the exact skeletons and everything needed
// to restart from them as a packing), contact_points_NNNNN.vtu (every vertex
// contact), collected with their times in particles.pvd, contacts.pvd,
// walls.pvd, state.pvd and contact_points.pvd; and energy.csv, one
// row per frame. Every file is written
// whole or not at all (temporary name, then rename); a CSV row is appended
// with one write.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sphero {

class RunOutput {
 public:
  // `fields` chooses among particles, contacts, walls, state. The directory must
  // exist. Outlines of each distinct shape are drawn once, in its body frame.
  // With `resume_at`, continues the frames and energy.csv of an earlier run
  // from the checkpoint taken at that time.
  RunOutput(std::filesystem::path directory, const World& world, int arc_resolution, std::vector<std::string> fields,
            std::optional<double> resume_at = std::nullopt);

  void write_frame(const Engine& engine);
  int frames_written() const { return frame_; }

 private:
  void write_particles(const Engine& engine, const std::filesystem::path& file) const;
  void write_contacts(const Engine& engine, const std::filesystem::path& file) const;
  void write_walls(const Engine& engine, const std::filesystem::path& file) const;
  void append_energy_row(const Engine& engine);
  void write_collection(const std::string& name) const;
  // Keeps the frames and energy.csv rows up to `time`; throws where the
  // file's columns are not `header` (written by another version).
  void resume(double time, const std::string& header);
  static std::string energy_header(const World& w);
  bool wants(const std::string& field) const;

  std::filesystem::path directory_;
  std::vector<std::string> fields_;
  std::vector<std::vector<Vec2>> outline_;  // per body, body frame
  std::vector<double> area_;                // per body
  std::vector<double> times_;
  int frame_ = 0;
};

}  // namespace sphero
