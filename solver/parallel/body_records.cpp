#include "parallel/body_records.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "parallel/byte_records.h"

namespace sphero {
namespace {

template <class T>
void append_value(std::vector<char>& bytes, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = bytes.size();
  bytes.resize(at + sizeof(T));
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

// Reads records' parts in turn, refusing to run past the end.
class ByteReader {
 public:
  explicit ByteReader(const std::vector<char>& bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  void read(void* into, std::size_t size) {
    if (size > bytes_.size() - at_) throw std::logic_error("body records: the bytes end inside a record");
    if (size > 0) std::memcpy(into, bytes_.data() + at_, size);
    at_ += size;
  }

 private:
  const std::vector<char>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace

int index_of_number(const std::vector<int>& numbers, int number) {
  const auto found = std::lower_bound(numbers.begin(), numbers.end(), number);
  return found != numbers.end() && *found == number ? static_cast<int>(found - numbers.begin()) : -1;
}

BodyRecord body_record(const World& w, std::size_t k, const std::vector<int>& numbers, const OwnedBody& owned) {
  BodyRecord r;
  BodyFacts& f = r.facts;
  f.owned = owned;
  f.mass = w.mass[k], f.inertia = w.inertia[k], f.density = w.density[k];
  f.inverse_mass = w.inverse_mass[k], f.inverse_inertia = w.inverse_inertia[k];
  f.radius = w.radius[k], f.bounding_radius = w.bounding_radius[k];
  f.material = w.material[k];
  f.id = w.id[k];
  f.is_wall = w.is_wall[k], f.closed = w.closed[k];
  f.constraint = w.constraint[k];
  for (int& s : f.constraint.span_bodies)
    if (s >= 0) s = numbers[static_cast<std::size_t>(s)];
  f.vertex_count = w.vertex_count[k];
  f.orientation = w.orientation[k], f.seam = w.seam[k];
  r.shape_name = w.shape_name[k];
  r.local_vertices = local_skeleton(w, k);
  return r;
}

void append_record(std::vector<char>& bytes, const BodyRecord& r) {
  append_value(bytes, r.facts);
  append_value(bytes, r.shape_name.size());
  bytes.insert(bytes.end(), r.shape_name.begin(), r.shape_name.end());
  append_bytes(bytes, r.local_vertices);
}

void append_records(std::vector<char>& bytes, const std::vector<BodyRecord>& records) {
  for (const BodyRecord& r : records) append_record(bytes, r);
}

std::vector<BodyRecord> body_records_of(const std::vector<char>& bytes) {
  std::vector<BodyRecord> records;
  ByteReader in(bytes);
  while (!in.done()) {
    BodyRecord r;
    in.read(&r.facts, sizeof r.facts);
    std::size_t name_size = 0;
    in.read(&name_size, sizeof name_size);
    if (r.facts.vertex_count < 1 || name_size > bytes.size())
      throw std::logic_error("body records: a record with no vertices or a name longer than the bytes");
    r.shape_name.resize(name_size);
    in.read(r.shape_name.data(), name_size);
    r.local_vertices.resize(static_cast<std::size_t>(r.facts.vertex_count));
    in.read(r.local_vertices.data(), r.local_vertices.size() * sizeof(Vec2));
    records.push_back(std::move(r));
  }
  return records;
}

std::vector<char> shared_bytes(const World& w) {
  std::vector<char> bytes;
  append_value(bytes, w.material_count);
  append_value(bytes, w.next_id);
  append_value(bytes, w.gravity);
  append_value(bytes, w.attractor);
  append_value(bytes, w.cell);
  append_value(bytes, w.law.size());
  append_value(bytes, w.rigid_law.size());
  append_bytes(bytes, w.law);
  append_bytes(bytes, w.rigid_law);
  return bytes;
}

World world_of_shared(const std::vector<char>& bytes) {
  World w;
  ByteReader in(bytes);
  std::size_t laws = 0, rigid_laws = 0;
  in.read(&w.material_count, sizeof w.material_count);
  in.read(&w.next_id, sizeof w.next_id);
  in.read(&w.gravity, sizeof w.gravity);
  in.read(&w.attractor, sizeof w.attractor);
  in.read(&w.cell, sizeof w.cell);
  in.read(&laws, sizeof laws);
  in.read(&rigid_laws, sizeof rigid_laws);
  if (laws > bytes.size() || rigid_laws > bytes.size()) throw std::logic_error("shared world: more laws than bytes");
  w.law.resize(laws);
  w.rigid_law.resize(rigid_laws);
  in.read(w.law.data(), laws * sizeof(ContactLaw));
  in.read(w.rigid_law.data(), rigid_laws * sizeof(RigidLaw));
  if (!in.done()) throw std::logic_error("shared world: bytes left over");
  return w;
}

World world_of_records(const std::vector<BodyRecord>& records, const World& shared) {
  World w;
  w.material_count = shared.material_count;
  w.law = shared.law;
  w.rigid_law = shared.rigid_law;
  w.gravity = shared.gravity;
  w.attractor = shared.attractor;
  w.cell = shared.cell;
  w.next_id = shared.next_id;
  std::vector<int> numbers;
  std::vector<Vec2> per_body;
  int next = 0;
  for (const BodyRecord& r : records) {
    const BodyFacts& f = r.facts;
    if (!numbers.empty() && f.owned.body <= numbers.back())
      throw std::logic_error("world_of_records: the records are not in increasing order of their numbers");
    numbers.push_back(f.owned.body);
    w.mass.push_back(f.mass), w.inertia.push_back(f.inertia), w.density.push_back(f.density);
    w.inverse_mass.push_back(f.inverse_mass), w.inverse_inertia.push_back(f.inverse_inertia);
    w.radius.push_back(f.radius), w.bounding_radius.push_back(f.bounding_radius);
    w.material.push_back(f.material);
    w.id.push_back(f.id);
    w.is_wall.push_back(f.is_wall), w.closed.push_back(f.closed);
    w.constraint.push_back(f.constraint);
    w.shape_name.push_back(r.shape_name);
    w.vertex_begin.push_back(next);
    w.vertex_count.push_back(f.vertex_count);
    next += f.vertex_count;
    w.orientation.push_back(f.orientation);
    w.seam.push_back(f.seam);
    per_body.insert(per_body.end(), r.local_vertices.begin(), r.local_vertices.end());
    w.position.push_back({}), w.angle.push_back(0.0), w.velocity.push_back({}), w.angular_velocity.push_back(0.0);
    w.force.push_back({}), w.torque.push_back(0.0);
    set_motion(w, w.size() - 1, f.owned.motion);
  }
  for (BodyConstraint& c : w.constraint)
    for (int& s : c.span_bodies)
      if (s >= 0) s = index_of_number(numbers, s);
  share_local_vertices(w, per_body);
  return w;
}

}  // namespace sphero
