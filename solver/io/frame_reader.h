// Reads back a frame of a run (particles_, contacts_ and walls_NNNNN.vtu)
// into plain data, for figures and analysis that must not see VTK.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "geometry/vec2.h"

class vtkUnstructuredGrid;

namespace sphero {

struct ForceSegment {
  Vec2 a, b;            // the two ends of the contact line
  double magnitude = 0.0;
  bool sliding = false;
};

// Per particle, what the run wrote beside its outline.
struct ParticleRecord {
  int id = 0;                        // body index in the run
  Vec2 centre;                       // centre of mass
  double area = 0.0;                 // exact area
  std::array<double, 4> stress{};    // xx, xy, yx, yy, compression positive (Love–Weber)
  int coordination = 0;
  double kinetic_energy = 0.0;       // translational + rotational
  std::array<double, 4> wall_stress{};  // the part of `stress` due to contacts with walls
};

// Per touching pair of bodies.
struct PairRecord {
  int body_a = 0, body_b = 0;
  Vec2 branch;                       // a's centre to b's (or to the contact point for a wall)
  Vec2 normal;                       // unit contact normal, from a towards b
  Vec2 force;                        // on a, summed over the pair's vertex contacts
  double normal_force = 0.0;         // sum of the vertex contacts' normal forces (≥ 0)
};

// A wall (a body of the run's `wall` lines): its skeleton and the force the
// grains exert on it.
struct WallContact {
  Vec2 point;                        // where a grain's vertex contact acts
  Vec2 force;                        // on the wall
};
struct WallRecord {
  int id = 0;
  std::vector<Vec2> skeleton;        // open path, world frame
  Vec2 force;                        // total, on the wall
  std::vector<WallContact> contacts;
};

struct FrameData {
  double time = 0.0;
  std::vector<ParticleRecord> particles;    // parallel to outlines
  std::vector<PairRecord> pairs;            // parallel to forces
  std::vector<std::vector<Vec2>> outlines;  // one closed polygon per particle
  std::vector<WallRecord> walls;
  std::vector<std::vector<Vec2>> wall_outlines;
  std::vector<ForceSegment> forces;
};

// Frames listed in the run's particles.pvd. Throws std::runtime_error
// naming the directory when it holds no run.
int frame_count(const std::filesystem::path& run_directory);

// The data sets of a .pvd collection, in order: time and file name.
struct CollectionEntry {
  double time = 0.0;
  std::string file;
};
// Throws std::runtime_error naming the file when it cannot be read.
std::vector<CollectionEntry> read_collection(const std::filesystem::path& pvd);

// A run's energy.csv: the header's column names and the rows.
struct EnergyTable {
  bool present = false;  // the run wrote the file
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  // A column's index; throws std::runtime_error naming the column when the
  // header lacks it.
  std::size_t column(const std::string& name) const;
};
EnergyTable read_energy_table(const std::filesystem::path& run_directory);
FrameData read_frame(const std::filesystem::path& run_directory, int frame);

// The same from grids already in memory (what ParaView's Sphero reader
// produces); `contacts` and `walls` may be null.
FrameData frame_from_grids(vtkUnstructuredGrid* particles, vtkUnstructuredGrid* contacts, vtkUnstructuredGrid* walls);

// Per-particle results to add to a frame's particles_NNNNN.vtu (an array of
// the same name is replaced), so that ParaView shows them on the outlines.
struct ParticleField {
  std::string name;
  int components = 1;
  std::vector<double> values;  // components × particles, particle-major
};
// Rewrites the file whole or not at all; throws std::runtime_error naming
// the file when a field's size does not match its particles.
void add_particle_fields(const std::filesystem::path& run_directory, int frame, const std::vector<ParticleField>& fields);

}  // namespace sphero
