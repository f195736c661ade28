// A body as a rank sends it to one that may not hold it yet: everything
// the run knows of it (properties, skeleton, constraint) with its motion,
// list reference and integrator history; and the world a rank makes from
// the records of the bodies it is to hold. Ranks keep only the bodies they
// hold, so a grain that comes to a rank brings all of itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/world.h"
#include "parallel/grain_records.h"

namespace sphero {

// The fixed-size part of a body's record.
struct BodyFacts {
  OwnedBody owned;  // its number in the run, owner, motion, list reference, history
  double mass, inertia, density, inverse_mass, inverse_inertia, radius, bounding_radius;
  int material;
  int id;  // World::id
  std::uint8_t is_wall, closed;
  BodyConstraint constraint;  // span_bodies as numbers in the run
  int vertex_count;
  Vec2 orientation, seam;
};

struct BodyRecord {
  BodyFacts facts;
  std::string shape_name;
  std::vector<Vec2> local_vertices;  // vertex_count, in the body's frame
};

// Where body `number` is among the increasing `numbers`, or −1.
int index_of_number(const std::vector<int>& numbers, int number);

// Body k of world w (whose bodies are numbered `numbers` in the run), with
// `owned` for its motion and list record.
BodyRecord body_record(const World& w, std::size_t k, const std::vector<int>& numbers, const OwnedBody& owned);

// Records to bytes and back; throws std::logic_error on bytes that are not
// a whole number of records.
void append_record(std::vector<char>& bytes, const BodyRecord& record);
void append_records(std::vector<char>& bytes, const std::vector<BodyRecord>& records);
std::vector<BodyRecord> body_records_of(const std::vector<char>& bytes);

// What every body of a world shares (materials and laws, fields, the
// cell) as bytes, and a world of no bodies with it.
std::vector<char> shared_bytes(const World& w);
World world_of_shared(const std::vector<char>& bytes);

// The world of `records` (in increasing order of their numbers), with the
// materials, laws, fields and cell of `shared`. Span bodies are renumbered
// into it (−1 where the body named is not among the records); world
// vertices are left for update_world_vertices.
World world_of_records(const std::vector<BodyRecord>& records, const World& shared);

}  // namespace sphero
