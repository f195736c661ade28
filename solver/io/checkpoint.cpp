#include "io/checkpoint.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <istream>
#include <iterator>
#include <numeric>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <vtk_zlib.h>

#include "io/atomic_file.h"
#include "io/snapshot_check.h"
#include "parallel/state_parts.h"

namespace sphero {
namespace {

constexpr char kMagic[8] = {'S', 'P', 'H', 'E', 'R', 'O', 'C', 'K'};
// 3: the adaptive Verlet distance; 4: plates' pressure span, contact_lists;
// 5: the candidates at half the skin (a version 4 file reads with the count
// unknown: its skin thins no further than 1/64 until the next rebuild);
// 6: a checksum of everything before it closes the file; 7: the model,
// the rigid model's settings and laws, the attractor; 8: the rigid
// model's stepping; 9: walls' vibrations; 10: the ledger's books and each
// contact's dissipation (a version 9 file continues from the ledger's
// rounded values); 11: checkpoints in parts (kPartsMagic); 12: the rigid
// laws' Coulomb friction and the rigid solver; 13: the bodies' ids and the
// next id (before it, a body's id is its index); 14: a whole checkpoint's
// fields compressed (zlib), without the world vertices, which reading
// derives from the positions as the engine does; 15: the run's identity
// and its parent's after the version, outside the checksum (its own
// follows it), so that the same state of two runs gives the same bytes
// past it; 16: in a checkpoint in parts, each part opens with its index
// and the checksum of its header's fields (kFirstBoundParts); 17: whether
// events time-step the whole of a step with a resting contact
// (RigidSettings::whole_step_events), and the grains' steps flown and
// time-stepped so far (BodySteps).
constexpr std::uint32_t kVersion = 17;
// A whole checkpoint's fields are compressed from this version on.
constexpr std::uint32_t kFirstCompressed = 14;
// From this version on, the run's identity follows the version.
constexpr std::uint32_t kFirstWithIdentity = 15;
// From this version on, a part says which it is and whose header it
// belongs to (the checksum of the header's fields, the same for two runs
// of one state), so that a part of another checkpoint, or one part twice,
// is refused even where the file's checksum was made to pass.
constexpr std::uint32_t kFirstBoundParts = 16;
// The identity block: the run's and its parent's identity (four 64-bit
// words), then their checksum.
constexpr std::size_t kIdentityAt = 12, kIdentityBytes = 40;
// A checkpoint in parts: the header's fields (a snapshot of no bodies),
// the number of parts, each part (its size, then its bodies and
// candidates), the version again and the checksum of everything before.
constexpr char kPartsMagic[8] = {'S', 'P', 'H', 'E', 'R', 'O', 'P', 'T'};

// FNV-1a, 64 bits: any flipped bit changes it. `h` carries a sum over
// bytes given in pieces.
constexpr std::uint64_t kChecksumStart = 14695981039346656037ull;
std::uint64_t checksum(std::string_view bytes, std::uint64_t h = kChecksumStart) {
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The checksum of a file's `bytes` (its checksum aside), its identity
// block left out from version 15 on.
std::uint64_t checksum_past_identity(std::string_view bytes, std::uint32_t version) {
  if (version < kFirstWithIdentity) return checksum(bytes);
  return checksum(bytes.substr(kIdentityAt + kIdentityBytes), checksum(bytes.substr(0, kIdentityAt)));
}

// The identity block of `lineage`.
std::string identity_block(const RunLineage& lineage) {
  std::string block(kIdentityBytes, '\0');
  const std::array<std::uint64_t, 4> words{
      lineage.run.bits[0], lineage.run.bits[1], lineage.parent.bits[0], lineage.parent.bits[1]};
  std::memcpy(block.data(), words.data(), sizeof words);
  const std::uint64_t sum = checksum(std::string_view(block.data(), sizeof words));
  std::memcpy(block.data() + sizeof words, &sum, sizeof sum);
  return block;
}

// The lineage an identity block holds; none where its checksum fails.
std::optional<RunLineage> lineage_of(std::string_view block) {
  std::array<std::uint64_t, 4> words{};
  std::uint64_t sum = 0;
  std::memcpy(words.data(), block.data(), sizeof words);
  std::memcpy(&sum, block.data() + sizeof words, sizeof sum);
  if (checksum(block.substr(0, sizeof words)) != sum) return std::nullopt;
  RunLineage lineage;
  lineage.run.bits = {words[0], words[1]};
  lineage.parent.bits = {words[2], words[3]};
  return lineage;
}

// Structs with padding are stored field by field: their padding bytes hold
// whatever was in memory, and a checkpoint must be the same bytes for the
// same state.
template <class Io>
void describe(Io& io, BodyConstraint& c);
template <class Io>
void describe(Io& io, ContactLaw& l);
template <class Io>
void describe(Io& io, Contact& c);
template <class Io>
void describe(Io& io, EngineSettings& s);
template <class Io>
void describe(Io& io, PeriodicCell& c);
template <class Io>
void describe(Io& io, Vibration& v);
template <class Io>
void describe(Io& io, BodyFacts& f);
template <class Io>
void describe(Io& io, Candidate& c);

template <class T, class Io>
concept Described = requires(Io& io, T& t) {
  describe(io, t);
};

// Where a writer's bytes go: appended to a buffer, or only counted (to
// size the buffer first).
struct Appending {
  std::vector<char>& bytes;
  void put(const char* from, std::size_t size) { bytes.insert(bytes.end(), from, from + size); }
};
struct Counting {
  std::uint64_t bytes = 0;
  void put(const char*, std::size_t size) { bytes += size; }
};

template <class Sink>
class Writer {
 public:
  explicit Writer(Sink& sink) : sink_(sink) {}
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    sink_.put(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  template <class T>
  void vector(const std::vector<T>& v) {
    value<std::uint64_t>(v.size());
    if constexpr (Described<T, Writer>) {
      for (const T& item : v) describe(*this, const_cast<T&>(item));
    } else if constexpr (std::is_trivially_copyable_v<T>) {
      sink_.put(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    } else {
      for (const T& item : v) string(item);
    }
  }
  void string(const std::string& s) {
    value<std::uint64_t>(s.size());
    sink_.put(s.data(), s.size());
  }

 private:
  Sink& sink_;
};

class Reader {
 public:
  Reader(std::istream& in, const std::string& source) : in_(in), source_(source) {
    const auto here = in_.tellg();
    in_.seekg(0, std::ios::end);
    size_ = in_.tellg();
    in_.seekg(here);
  }
  template <class T>
  void value(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if constexpr (std::is_same_v<T, bool>) {
      v = flag();
    } else if constexpr (std::is_same_v<T, std::array<bool, 2>> || std::is_same_v<T, std::array<bool, 3>>) {
      for (bool& b : v) b = flag();
    } else {
      in_.read(reinterpret_cast<char*>(&v), sizeof(T));
      check();
    }
  }
  // A bool's byte: anything but 0 or 1 is damage (and no bool at all).
  bool flag() {
    std::uint8_t byte = 0;
    in_.read(reinterpret_cast<char*>(&byte), 1);
    check();
    if (byte > 1) fail("a flag that is neither 0 nor 1");
    return byte == 1;
  }
  template <class T>
  void vector(std::vector<T>& v) {
    std::uint64_t n = 0;
    value(n);
    // Every element takes at least a byte of the file (its own size when
    // stored whole): a length the rest of the file cannot hold is damage,
    // refused before anything is allocated for it.
    const std::uint64_t element = std::is_trivially_copyable_v<T> && !Described<T, Reader> ? sizeof(T) : 1;
    if (n > remaining() / element) fail("an array longer than the rest of the file");
    v.resize(n);
    if constexpr (Described<T, Reader>) {
      for (T& item : v) describe(*this, item);
    } else if constexpr (std::is_trivially_copyable_v<T>) {
      in_.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T)));
      check();
    } else {
      for (T& item : v) string(item);
    }
  }
  void string(std::string& s) {
    std::uint64_t n = 0;
    value(n);
    if (n > (std::uint64_t{1} << 20) || n > remaining()) fail("an impossible string length");
    s.resize(n);
    in_.read(s.data(), static_cast<std::streamsize>(n));
    check();
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw CheckpointError(source_ + ": not a usable Sphero checkpoint (" + what + ")");
  }
  std::uint64_t left() const { return remaining(); }

 private:
  void check() const {
    if (!in_) fail("the file ends early");
  }
  std::uint64_t remaining() const {
    const auto at = in_.tellg();
    if (at < 0) return 0;
    return static_cast<std::uint64_t>(std::max<std::streamoff>(0, size_ - static_cast<std::streamoff>(at)));
  }
  std::istream& in_;
  std::string source_;
  std::streamoff size_ = 0;
};

// Whether a description runs as a writer (of bytes, or of their count).
template <class Io>
constexpr bool kWrites = !std::is_same_v<Io, Reader>;

template <class Io>
void describe(Io& io, BodyConstraint& c) {
  for (int k = 0; k < 3; ++k) io.value(c.held[k]), io.value(c.imposed_velocity[k]);
  io.value(c.imposed_force);
  io.value(c.imposed_torque);
  io.value(c.pressure), io.value(c.inward), io.value(c.span_bodies);
}
template <class Io>
void describe(Io& io, ContactLaw& l) {
  io.value(l.normal);
  for (double* x : {&l.kn, &l.gamma_n, &l.kt, &l.gamma_t, &l.mu, &l.cohesion}) io.value(*x);
}
template <class Io>
void describe(Io& io, Contact& c) {
  io.value(c.vertex_body), io.value(c.edge_body), io.value(c.vertex), io.value(c.feature), io.value(c.kind);
  io.value(c.edge_offset), io.value(c.image), io.value(c.xi), io.value(c.active), io.value(c.sliding);
  io.value(c.overlap), io.value(c.normal), io.value(c.point), io.value(c.force), io.value(c.normal_force);
  io.value(c.tangential_spring_force), io.value(c.viscous_force), io.value(c.tangential_energy);
}
template <class Io>
void describe(Io& io, EngineSettings& s) {
  io.value(s.dt), io.value(s.integrator), io.value(s.verlet_distance), io.value(s.brute_force_neighbours);
  io.value(s.allow_large_time_step), io.value(s.adaptive_verlet_distance), io.value(s.contact_lists);
}
template <class Io>
void describe(Io& io, PeriodicCell& c) {
  io.value(c.periodic), io.value(c.low), io.value(c.size);
}
// Apart from the constraint's other fields: format 9 added it after them.
template <class Io>
void describe(Io& io, Vibration& v) {
  io.value(v.amplitude), io.value(v.frequency), io.value(v.tap_interval), io.value(v.steady_velocity);
}
template <class Io>
void describe(Io& io, BodyFacts& f) {
  OwnedBody& o = f.owned;
  io.value(o.body), io.value(o.owner);
  GrainMotion& m = o.motion;
  io.value(m.position), io.value(m.angle), io.value(m.velocity), io.value(m.angular_velocity);
  io.value(m.force), io.value(m.torque);
  io.value(o.reference_position), io.value(o.reference_angle), io.value(o.wraps), io.value(o.history);
  for (double* x :
       {&f.mass, &f.inertia, &f.density, &f.inverse_mass, &f.inverse_inertia, &f.radius, &f.bounding_radius})
    io.value(*x);
  io.value(f.material), io.value(f.is_wall), io.value(f.closed);
  describe(io, f.constraint);
  describe(io, f.constraint.vibration);
  io.value(f.vertex_count), io.value(f.orientation), io.value(f.seam);
}
template <class Io>
void describe(Io& io, Candidate& c) {
  io.value(c.vertex_body), io.value(c.edge_body), io.value(c.vertex), io.value(c.feature), io.value(c.kind);
  io.value(c.active), io.value(c.sliding), io.value(c.feature_end), io.value(c.image), io.value(c.reach);
  io.value(c.edge_offset);
}

// What the ledger keeps exactly (LedgerBooks, as ExactSum::parts) and what
// each contact has dissipated since it began to touch, so that a continued run
// books the same bits as one never stopped. Read back, they must add up to
// the ledger's dissipation and work.
// Whether the rigid model steps by events, from version 8; from 17 its
// scheme and the grains' steps it has flown and time-stepped.
template <class Io>
void event_stepping(Io& io, EngineSnapshot& s, std::uint32_t version) {
  if (version >= 8) io.value(s.settings.rigid.events);
  if (version >= 17) {
    io.value(s.settings.rigid.whole_step_events);
    io.value(s.body_steps.flown), io.value(s.body_steps.time_stepped);
  } else if constexpr (!kWrites<Io>) {
    s.settings.rigid.whole_step_events = s.settings.rigid.events;  // the only event scheme then
  }
}

template <class Io>
void ledger_books(Io& io, EngineSnapshot& s) {
  std::vector<Contact>& contacts = s.neighbours.contacts;
  if constexpr (kWrites<Io>) {
    const LedgerBooks b = s.books ? *s.books : books_of(s.ledger);
    for (const ExactSum* total : {&b.ended.damping, &b.ended.sliding, &b.external_work}) io.vector(total->parts());
    std::vector<std::array<double, 2>> totals;
    for (const Contact& c : contacts) totals.push_back({c.damping_total, c.sliding_total});
    io.vector(totals);
  } else {
    LedgerBooks b;
    for (ExactSum* total : {&b.ended.damping, &b.ended.sliding, &b.external_work}) {
      std::vector<double> parts;
      io.vector(parts);
      if (parts.size() > ExactSum::kLimbs) io.fail("a ledger sum in more parts than a sum has");
      *total = ExactSum::of_parts(parts);
    }
    std::vector<std::array<double, 2>> totals;
    io.vector(totals);
    if (totals.size() != contacts.size()) io.fail("dissipation totals for another number of contacts");
    for (std::size_t k = 0; k < contacts.size(); ++k)
      contacts[k].damping_total = totals[k][0], contacts[k].sliding_total = totals[k][1];
    s.books = b;
  }
}

// The books and what the contacts have dissipated add up to the ledger's
// dissipation and work (a header's contacts are in its parts: checked once
// they are put together).
void check_books(const Reader& io, const EngineSnapshot& s) {
  if (!s.books) return;
  ExactSum damping = s.books->ended.damping, sliding = s.books->ended.sliding;
  for (const Contact& c : s.neighbours.contacts) damping.add(c.damping_total), sliding.add(c.sliding_total);
  const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  const EnergyLedger& l = s.ledger;
  if (!same(damping.value(), l.damping_dissipation) || !same(sliding.value(), l.sliding_dissipation) ||
      !same(s.books->external_work.value(), l.external_work))
    io.fail("ledger sums that do not add up to its dissipation and work");
}

// One list of fields for both directions keeps reading and writing in step.
// The fields of a rigid law that versions 7 to 11 stored, as they lie in memory.
struct RigidLawFields {
  double normal_dissipation, restitution, tangential_dissipation;
};

// The rigid laws, and from version 12 their friction and the solver
// (before it, the interior point: the only solver then).
template <class Io>
void rigid_laws(Io& io, std::vector<RigidLaw>& laws, RigidSettings& settings, std::uint32_t version) {
  if (version < 12) settings.solver = RigidSolver::interior_point;
  std::vector<RigidLawFields> fields;
  std::vector<double> friction;
  for (const RigidLaw& l : laws) {
    fields.push_back({l.normal_dissipation, l.restitution, l.tangential_dissipation});
    friction.push_back(l.friction);
  }
  io.vector(fields);
  if (version >= 12) io.vector(friction), io.value(settings.solver);
  if constexpr (!kWrites<Io>) {
    if (version >= 12 && friction.size() != fields.size()) io.fail("the rigid laws' friction does not match the laws");
    laws.clear();
    for (std::size_t k = 0; k < fields.size(); ++k)
      laws.push_back({fields[k].normal_dissipation, fields[k].restitution, fields[k].tangential_dissipation,
                      version >= 12 ? friction[k] : 0.0});
  }
}

template <class Io>
void fields(Io& io, EngineSnapshot& s, std::uint32_t version) {
  World& w = s.world;
  io.vector(w.position);
  io.vector(w.angle);
  io.vector(w.velocity);
  io.vector(w.angular_velocity);
  io.vector(w.force);
  io.vector(w.torque);
  io.vector(w.mass);
  io.vector(w.inertia);
  io.vector(w.density);
  io.vector(w.inverse_mass);
  io.vector(w.inverse_inertia);
  io.vector(w.radius);
  io.vector(w.bounding_radius);
  io.vector(w.material);
  io.vector(w.is_wall);
  io.vector(w.closed);
  io.vector(w.constraint);
  io.vector(w.shape_name);
  io.vector(w.vertex_begin);
  io.vector(w.vertex_count);
  // Body-frame vertices per body, as before they were shared (the file
  // format stays; reading shares them again).
  if constexpr (kWrites<Io>) {
    std::vector<Vec2> per_body;
    for (std::size_t i = 0; i < w.size(); ++i) {
      const std::vector<Vec2> local = local_skeleton(w, i);
      per_body.insert(per_body.end(), local.begin(), local.end());
    }
    io.vector(per_body);
  } else {
    std::vector<Vec2> per_body;
    io.vector(per_body);
    std::uint64_t vertices = 0;
    for (std::size_t i = 0; i < w.size() && i < w.vertex_begin.size() && i < w.vertex_count.size(); ++i) {
      if (w.vertex_begin[i] < 0 || w.vertex_count[i] < 1) io.fail("inconsistent skeleton arrays");
      vertices = std::max<std::uint64_t>(
          vertices, static_cast<std::uint64_t>(w.vertex_begin[i]) + static_cast<std::uint64_t>(w.vertex_count[i]));
    }
    if (w.vertex_begin.size() != w.size() || w.vertex_count.size() != w.size() || vertices > per_body.size())
      io.fail("inconsistent skeleton arrays");
    share_local_vertices(w, per_body);
    w.world_vertex.assign(per_body.size(), Vec2{});  // within which every body's vertices lie
  }
  if (version < kFirstCompressed) {
    io.vector(w.world_vertex);
  } else if constexpr (!kWrites<Io>) {
    // A snapshot's vertices are those of its positions (Engine::snapshot),
    // derived with the same arithmetic, each body within the arrays read.
    if (w.angle.size() != w.size()) io.fail("inconsistent body arrays");
    w.orientation.assign(w.size(), Vec2{1.0, 0.0});
    for (std::size_t i = 0; i < w.size(); ++i) update_body_vertices(w, i);
  }
  io.value(w.material_count);
  io.vector(w.law);
  io.value(w.gravity);
  describe(io, w.cell);
  describe(io, s.settings);
  io.vector(s.neighbours.contacts);
  io.vector(s.neighbours.reference_position);
  io.vector(s.neighbours.reference_angle);
  io.vector(s.neighbours.wraps);
  io.value(s.neighbours.stats);
  io.value(s.neighbours.built);
  io.value(s.neighbours.verlet_distance);
  io.value(s.neighbours.steps_since_rebuild);
  if (version >= 5) io.value(s.neighbours.listed_at_half_skin);
  io.value(s.ledger);
  io.value(s.time);
  io.value(s.step);
  io.value(s.power);
  io.vector(s.r2);
  io.vector(s.r3);
  io.vector(s.r4);
  io.value(s.deepest_overlap), io.value(s.deepest_overlap_time);
  if (version >= 7) {
    RigidSettings& r = s.settings.rigid;
    io.value(s.settings.model);
    io.value(r.gap), io.value(r.overlap_tolerance), io.value(r.qp_tolerance), io.value(r.qp_max_iterations);
    rigid_laws(io, w.rigid_law, s.settings.rigid, version);
    io.value(w.attractor);
  }
  event_stepping(io, s, version);
  if (version >= 9)
    for (BodyConstraint& c : w.constraint) describe(io, c.vibration);
  if (version >= 10) ledger_books(io, s);
  if (version >= 13) {
    io.vector(w.id);
    io.value(w.next_id);
  } else if constexpr (!kWrites<Io>) {
    w.id.resize(w.size());
    std::iota(w.id.begin(), w.id.end(), 0);
    w.next_id = static_cast<int>(w.size());
  }
}

// A part's bodies and candidates, in either direction.
// A part's body, in either direction.
template <class Io>
void body_fields(Io& io, BodyRecord& r, std::uint32_t version) {
  describe(io, r.facts);
  if (version >= 13) io.value(r.facts.id);
  else r.facts.id = r.facts.owned.body;
  io.string(r.shape_name);
  io.vector(r.local_vertices);
  if constexpr (std::is_same_v<Io, Reader>)
    if (r.facts.vertex_count < 1 || r.local_vertices.size() != static_cast<std::size_t>(r.facts.vertex_count))
      io.fail("a body whose skeleton is not its vertex count");
}

template <class Io>
void candidate_fields(Io& io, CandidateStream& c) {
  io.vector(c.keys);
  io.vector(c.stated);
  io.vector(c.states);
}

// A part read whole.
void read_part(Reader& io, StatePart& part, std::uint32_t version) {
  std::uint64_t bodies = 0;
  io.value(bodies);
  if (bodies > io.left()) io.fail("more bodies in a part than the rest of the file holds");
  part.bodies.resize(bodies);
  for (BodyRecord& r : part.bodies) body_fields(io, r, version);
  candidate_fields(io, part.candidates);
}

// A part written body by body, as the same fields.
template <class Io>
void write_part(Io& io, std::size_t bodies, const PartBodies& each_body, const CandidateStream& candidates) {
  io.value(static_cast<std::uint64_t>(bodies));
  std::size_t written = 0;
  each_body([&](const BodyRecord& r) {
    body_fields(io, const_cast<BodyRecord&>(r), kVersion);  // the writer only reads
    ++written;
  });
  if (written != bodies)
    throw std::logic_error("checkpoint_part_bytes: a part with another number of bodies than said");
  candidate_fields(io, const_cast<CandidateStream&>(candidates));
}

// Bytes to a stream, each also into the file's checksum.
class SummingOut {
 public:
  explicit SummingOut(std::ostream& out) : out_(out) {}
  void put(const char* bytes, std::size_t size) {
    sum_ = checksum(std::string_view(bytes, size), sum_);
    out_.write(bytes, static_cast<std::streamsize>(size));
  }
  template <class T>
  void put_value(const T& v) {
    put(reinterpret_cast<const char*>(&v), sizeof v);
  }
  std::uint64_t sum() const { return sum_; }

 private:
  std::ostream& out_;
  std::uint64_t sum_ = kChecksumStart;
};

// zlib at its fastest level: the repeated skeletons, masses and zeros of
// a granular state shrink several times over for a fraction of a frame's
// cost.
void deflate_into(const std::vector<char>& in, std::vector<char>& out) {
  uLongf size = compressBound(static_cast<uLong>(in.size()));
  const std::size_t start = out.size();
  out.resize(start + size);
  if (compress2(reinterpret_cast<Bytef*>(out.data() + start), &size, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), Z_BEST_SPEED) != Z_OK)
    throw std::runtime_error("the checkpoint could not be compressed (out of memory?)");
  out.resize(start + size);
}

// Exactly `size` bytes from `compressed`, or the reader's failure: a
// size no zlib stream of this length can hold, a damaged stream, one that
// ends early or goes on.
std::string inflate_exactly(std::string_view compressed, std::uint64_t size, const Reader& reader) {
  if (size > 1032 * static_cast<std::uint64_t>(compressed.size()) + 64 || size > (std::uint64_t{1} << 40))
    reader.fail("a size its compressed fields cannot hold");
  std::string out(static_cast<std::size_t>(size), '\0');
  uLongf produced = static_cast<uLongf>(size);
  uLong consumed = static_cast<uLong>(compressed.size());
  const int status = uncompress2(
      reinterpret_cast<Bytef*>(out.data()), &produced, reinterpret_cast<const Bytef*>(compressed.data()), &consumed);
  if (status != Z_OK || produced != size || consumed != compressed.size())
    reader.fail("its compressed fields are damaged");
  return out;
}

// Part `index` of a checkpoint whose header's fields have the checksum
// `header_sum` says so (from kFirstBoundParts).
void check_part_binding(Reader& reader, std::uint64_t index, std::uint64_t header_sum) {
  std::uint64_t said_index = 0, said_sum = 0;
  reader.value(said_index), reader.value(said_sum);
  if (said_index != index)
    reader.fail("part " + std::to_string(index) + " says it is part " + std::to_string(said_index) +
                ": a part twice, or parts out of order");
  if (said_sum != header_sum)
    reader.fail("part " + std::to_string(index) +
                " belongs to another checkpoint (another run's, or another time's): its header is not this file's");
}

// The parts after a parts checkpoint's header, put together with it.
EngineSnapshot read_parts(Reader& reader, std::istream& body, EngineSnapshot header, std::uint32_t version,
                          std::uint64_t header_sum) {
  std::uint64_t count = 0;
  reader.value(count);
  if (count < 1 || count > reader.left()) reader.fail("an impossible number of parts");
  std::vector<StatePart> parts(count);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    StatePart& part = parts[k];
    if (version >= kFirstBoundParts) check_part_binding(reader, k, header_sum);
    std::uint64_t size = 0;
    reader.value(size);
    if (size > reader.left()) reader.fail("a part longer than the rest of the file");
    const auto start = body.tellg();
    read_part(reader, part, version);
    if (static_cast<std::uint64_t>(body.tellg() - start) != size) reader.fail("a part whose size is not its content's");
  }
  if (version < 13) {  // bodies numbered 0 to N − 1, their ids
    std::size_t bodies = 0;
    for (const StatePart& part : parts) bodies += part.bodies.size();
    header.world.next_id = static_cast<int>(bodies);
  }
  try {
    EngineSnapshot whole = assemble_state(
        std::move(header), std::move(parts), [](const EngineSnapshot& bodies) { check_snapshot(bodies); });
    check_snapshot(whole);  // and its contacts, as a whole checkpoint's
    return whole;
  } catch (const std::invalid_argument& e) {
    reader.fail(e.what());
  }
}

}  // namespace

// Counted first, so that the bytes are made in a buffer of their size: a
// rank keeps them as its share of the last good state.
std::vector<char> checkpoint_part_bytes(std::size_t bodies, const PartBodies& each_body,
                                        const CandidateStream& candidates) {
  Counting counting;
  Writer counter(counting);
  write_part(counter, bodies, each_body, candidates);
  std::vector<char> bytes;
  bytes.reserve(counting.bytes);
  Appending appending{bytes};
  Writer writer(appending);
  write_part(writer, bodies, each_body, candidates);
  return bytes;
}

std::vector<char> checkpoint_part_bytes(const StatePart& part) {
  return checkpoint_part_bytes(
      part.bodies.size(),
      [&](const std::function<void(const BodyRecord&)>& take) {
        for (const BodyRecord& r : part.bodies) take(r);
      },
      part.candidates);
}

void write_checkpoint_in_parts(std::ostream& out, const EngineSnapshot& header, int parts,
                               const std::function<std::vector<char>(int)>& part_bytes) {
  std::vector<char> head;
  Appending appending{head};
  Writer writer(appending);
  fields(writer, const_cast<EngineSnapshot&>(header), kVersion);  // the writer only reads
  const std::uint64_t header_sum = checksum(std::string_view(head.data(), head.size()));
  writer.value(static_cast<std::uint64_t>(parts));
  SummingOut summing(out);
  summing.put(kPartsMagic, sizeof kPartsMagic);
  summing.put_value(kVersion);
  const std::string identity = identity_block(header.lineage);
  out.write(identity.data(), static_cast<std::streamsize>(identity.size()));  // outside the checksum
  summing.put(head.data(), head.size());
  for (int k = 0; k < parts; ++k) {
    const std::vector<char> bytes = part_bytes(k);
    summing.put_value(static_cast<std::uint64_t>(k));
    summing.put_value(header_sum);
    summing.put_value(static_cast<std::uint64_t>(bytes.size()));
    summing.put(bytes.data(), bytes.size());
  }
  summing.put_value(kVersion);
  const std::uint64_t sum = summing.sum();
  out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
}

void save_checkpoint_in_parts(const std::filesystem::path& path, const EngineSnapshot& header, int parts,
                              const std::function<std::vector<char>(int)>& part_bytes) {
  write_atomically(path, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary, std::ios::binary);
    write_checkpoint_in_parts(out, header, parts, part_bytes);
    out.close();
    if (!out) throw std::runtime_error(path.string() + ": could not write the checkpoint (disk full?)");
  });
}

// The magic, the version, the fields' size and the fields compressed
// (with the version again as their trailer), then the checksum of all
// that.
void write_checkpoint(std::ostream& out, const EngineSnapshot& snapshot) {
  std::vector<char> fields_bytes;
  Appending appending{fields_bytes};
  Writer writer(appending);
  fields(writer, const_cast<EngineSnapshot&>(snapshot), kVersion);  // the writer only reads
  writer.value(kVersion);                                           // trailer: a truncated file is caught
  std::vector<char> bytes(kMagic, kMagic + sizeof kMagic);
  const auto append = [&](const auto& value) {
    const char* raw = reinterpret_cast<const char*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof value);
  };
  append(kVersion);
  const std::string identity = identity_block(snapshot.lineage);
  bytes.insert(bytes.end(), identity.begin(), identity.end());
  append(static_cast<std::uint64_t>(fields_bytes.size()));
  deflate_into(fields_bytes, bytes);
  const std::uint64_t sum = checksum_past_identity(std::string_view(bytes.data(), bytes.size()), kVersion);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
}

EngineSnapshot read_checkpoint(std::istream& in, const std::string& source_name) {
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream body(bytes);
  char magic[sizeof kMagic] = {};
  body.read(magic, sizeof magic);
  Reader reader(body, source_name);
  const bool in_parts = body && std::memcmp(magic, kPartsMagic, sizeof kPartsMagic) == 0;
  if (!body || (!in_parts && std::memcmp(magic, kMagic, sizeof kMagic) != 0)) reader.fail("wrong header");
  std::uint32_t version = 0;
  reader.value(version);
  if (version > kVersion || version < (in_parts ? 11 : 4))
    reader.fail("version " + std::to_string(version) + ", this Sphero reads 4 to " + std::to_string(kVersion));
  RunLineage lineage;
  if (version >= kFirstWithIdentity) {
    if (bytes.size() < kIdentityAt + kIdentityBytes + sizeof version + sizeof(std::uint64_t))
      reader.fail("the file ends early");
    const auto read = lineage_of(std::string_view(bytes).substr(kIdentityAt, kIdentityBytes));
    if (!read) reader.fail("its run's identity is damaged");
    lineage = *read;
    body.seekg(static_cast<std::streamoff>(kIdentityAt + kIdentityBytes));
  }
  if (version >= 6) {
    std::uint64_t stored = 0;
    if (bytes.size() < sizeof kMagic + 2 * sizeof version + sizeof stored) reader.fail("the file ends early");
    std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
    if (checksum_past_identity(std::string_view(bytes).substr(0, bytes.size() - sizeof stored), version) != stored)
      reader.fail("its checksum does not match its content: the file is damaged");
  }
  // From kFirstCompressed, a whole checkpoint's fields are read from their
  // inflated bytes.
  std::istringstream inflated;
  std::optional<Reader> fields_reader;
  if (!in_parts && version >= kFirstCompressed) {
    std::uint64_t size = 0;
    reader.value(size);
    const std::size_t start =
        sizeof kMagic + sizeof version + (version >= kFirstWithIdentity ? kIdentityBytes : 0) + sizeof size;
    if (bytes.size() < start + sizeof(std::uint64_t)) reader.fail("the file ends early");
    inflated.str(inflate_exactly(
        std::string_view(bytes).substr(start, bytes.size() - start - sizeof(std::uint64_t)), size, reader));
    fields_reader.emplace(inflated, source_name);
  }
  Reader& io = fields_reader ? *fields_reader : reader;
  EngineSnapshot snapshot;
  const std::streamoff fields_start = body.tellg();
  fields(io, snapshot, version);
  const std::streamoff fields_end = body.tellg();
  try {
    if (in_parts) {
      if (snapshot.world.size() != 0 || !snapshot.neighbours.contacts.empty())
        reader.fail("bodies in the header of its parts");
      const std::uint64_t header_sum = checksum(std::string_view(bytes).substr(
          static_cast<std::size_t>(fields_start), static_cast<std::size_t>(fields_end - fields_start)));
      snapshot = read_parts(reader, body, std::move(snapshot), version, header_sum);
    } else {
      check_snapshot(snapshot);
    }
  } catch (const std::invalid_argument& e) {
    io.fail(e.what());
  }
  std::uint32_t trailer = 0;
  io.value(trailer);
  if (trailer != version) io.fail("a damaged end");
  if (fields_reader && inflated.peek() != std::char_traits<char>::eof()) io.fail("bytes after its end");
  check_books(io, snapshot);
  snapshot.lineage = lineage;
  return snapshot;
}

void save_checkpoint(const std::filesystem::path& path, const EngineSnapshot& snapshot) {
  write_atomically(path, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary, std::ios::binary);
    write_checkpoint(out, snapshot);
    out.close();
    if (!out) throw std::runtime_error(path.string() + ": could not write the checkpoint (disk full?)");
  });
}

EngineSnapshot load_checkpoint(const std::filesystem::path& path) {
  if (std::filesystem::is_directory(path))
    throw CheckpointError(path.string() + ": a folder, not a checkpoint (give a run's final.ckpt or checkpoint.ckpt)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError(path.string() + ": cannot open the checkpoint (does it exist?)");
  return read_checkpoint(in, path.string());
}

}  // namespace sphero
