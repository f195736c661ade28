// A run of 2T equals a run of T plus a restart from its checkpoint for T,
// bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include "engine/engine.h"
#include "io/checkpoint.h"
#include "parallel/state_parts.h"
#include "physics/scenes.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

Engine frictional_pile(Integrator integrator) {
  std::vector<BodySpec> bodies;
  BodySpec box;
  box.shape = make_shape("box", SkeletonKind::polyline, {{0, 10}, {0, 0}, {6, 0}, {6, 10}}, 0.1);
  box.position = mass_properties(box.shape).centroid;
  box.is_wall = true;
  bodies.push_back(box);
  for (int k = 0; k < 30; ++k) {
    BodySpec b;
    b.shape = k % 2 ? make_shape("tri", SkeletonKind::polygon, {{-0.3, -0.2}, {0.3, -0.2}, {0, 0.3}}, 0.1)
                    : make_shape("rice", SkeletonKind::segment, {{-0.3, 0}, {0.3, 0}}, 0.15);
    b.position = {0.6 + 1.0 * (k % 5), 0.6 + 1.0 * (k / 5)};
    b.angle = 0.3 * k;
    b.velocity = {0.1 * (k % 3), -0.2};
    bodies.push_back(b);
  }
  ContactLaw law;
  law.kn = 1e4;
  law.gamma_n = 5.0;
  law.kt = 5e3;
  law.mu = 0.5;
  EngineSettings s;
  s.dt = 2e-4;
  s.integrator = integrator;
  s.verlet_distance = 0.02;
  return Engine(make_world(bodies, 1, {law}, {0, -9.81}), s);
}

void expect_identical(const Engine& a, const Engine& b) {
  ASSERT_EQ(a.step_count(), b.step_count());
  EXPECT_EQ(a.time(), b.time());
  for (std::size_t i = 0; i < a.world().size(); ++i) {
    ASSERT_EQ(a.world().position[i].x, b.world().position[i].x) << i;
    ASSERT_EQ(a.world().position[i].y, b.world().position[i].y) << i;
    ASSERT_EQ(a.world().angle[i], b.world().angle[i]) << i;
    ASSERT_EQ(a.world().velocity[i].x, b.world().velocity[i].x) << i;
    ASSERT_EQ(a.world().angular_velocity[i], b.world().angular_velocity[i]) << i;
  }
  const EnergyLedger la = a.ledger(), lb = b.ledger();
  EXPECT_EQ(la.kinetic(), lb.kinetic());
  EXPECT_EQ(la.elastic_normal, lb.elastic_normal);
  EXPECT_EQ(la.elastic_tangential, lb.elastic_tangential);
  EXPECT_EQ(la.damping_dissipation, lb.damping_dissipation);
  EXPECT_EQ(la.sliding_dissipation, lb.sliding_dissipation);
  EXPECT_EQ(la.external_work, lb.external_work);
  EXPECT_EQ(la.first_law_residual(), lb.first_law_residual());
}

TEST(Checkpoint, RunOfTwoTEqualsRunOfTPlusRestartBitForBit) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    SCOPED_TRACE(std::string(to_string(integrator)));
    Engine straight = frictional_pile(integrator);
    straight.run(4000);

    Engine first_half = frictional_pile(integrator);
    first_half.run(2000);
    const auto file = std::filesystem::temp_directory_path() / "sphero_checkpoint_test.ckpt";
    save_checkpoint(file, first_half.snapshot());
    Engine restarted(load_checkpoint(file));
    std::filesystem::remove(file);
    restarted.run(2000);

    double springs = 0.0;
    for (const Contact& c : straight.contacts()) springs += norm(c.xi);
    EXPECT_GT(springs, 0.0);  // there was tangential history to carry
    expect_identical(straight, restarted);
  }
}

// 32-gons settling in a box under strong damping (an adaptive skin thins
// from 0.05 to 0.003 within 8000 steps), or a lattice of 64-gons at rest,
// just touching, without gravity (nothing moves: the skin halves every 200
// steps to 1/64 of its ceiling by step 1200, and on below it only because
// half of it would list fewer candidates — which only the count made at
// the last rebuild says: no list expires to recount).
Engine settling_polygons(bool at_rest = false) {
  std::vector<BodySpec> bodies;
  if (!at_rest) bodies.push_back(test::wall({{0, 12}, {0, 0}, {8.2, 0}, {8.2, 12}}, 0.05));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      bodies.push_back(test::regular_polygon_body(
          at_rest ? 64 : 32, 0.4, 0.1, at_rest ? Vec2{1.0 * i, 1.0 * j} : Vec2{1.0 * i + 0.6, 0.98 * j + 0.55},
          0.7 * (i + 8 * j)));
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = 0.05;
  s.adaptive_verlet_distance = true;
  return Engine(test::world_of(bodies, test::linear_law(1e4, 50.0, 5e3, 0.4, 1.0), at_rest ? Vec2{} : Vec2{0, -10}), s);
}

TEST(Checkpoint, AnAdaptiveSkinGoesOnAfterARestartAsItWouldHave) {
  // The skin's width and the count it is weighed by travel in the file: a
  // restarted run lists what the straight one lists, so even the energy
  // sums (grouped by candidate) agree to the bit.
  Engine straight = settling_polygons();
  straight.run(8000);
  Engine first_half = settling_polygons();
  first_half.run(3000);
  const double skin_at_restart = first_half.neighbour_verlet_distance();
  std::stringstream file;
  write_checkpoint(file, first_half.snapshot());
  Engine restarted(read_checkpoint(file, "memory"));
  restarted.run(5000);
  EXPECT_LT(straight.neighbour_verlet_distance(), skin_at_restart);  // it thinned after the restart
  EXPECT_EQ(restarted.neighbour_verlet_distance(), straight.neighbour_verlet_distance());
  EXPECT_EQ(restarted.neighbour_stats().rebuilds, straight.neighbour_stats().rebuilds);
  EXPECT_EQ(restarted.contacts().size(), straight.contacts().size());
  expect_identical(straight, restarted);
  EXPECT_EQ(restarted.ledger().elastic(), straight.ledger().elastic());
  EXPECT_EQ(restarted.ledger().damping_dissipation, straight.ledger().damping_dissipation);

  Engine resting = settling_polygons(true);
  resting.run(3000);
  Engine resting_first = settling_polygons(true);
  resting_first.run(1300);
  std::stringstream resting_file;
  write_checkpoint(resting_file, resting_first.snapshot());
  Engine resting_restarted(read_checkpoint(resting_file, "memory"));
  resting_restarted.run(1700);
  EXPECT_EQ(resting_first.neighbour_verlet_distance(), 0.05 / 64);
  EXPECT_LT(resting.neighbour_verlet_distance(), 0.05 / 64);
  EXPECT_EQ(resting_restarted.neighbour_verlet_distance(), resting.neighbour_verlet_distance());
  EXPECT_EQ(resting_restarted.contacts().size(), resting.contacts().size());
}

TEST(Checkpoint, BodiesOfOneShapeShareTheirSkeletonAndKeepItThroughACheckpoint) {
  // 15 triangles and 15 grains of rice (and the box): three skeletons stored.
  Engine e = frictional_pile(Integrator::velocity_verlet);
  e.run(100);
  const World& w = e.world();
  EXPECT_EQ(w.local_vertex.size(), 4u + 3u + 2u);
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::vector<Vec2> skeleton = local_skeleton(w, i);
    ASSERT_EQ(skeleton.size(), i % 2 ? 2u : 3u);
    // The body frame is the centre of mass's: the rice's ends are ±0.3.
    if (i % 2 == 1) {
      EXPECT_NEAR(std::abs(skeleton[0].x), 0.3, 1e-12);
    }
    const Vec2 first = vertex_position(w, static_cast<int>(i), w.vertex_begin[i]);
    EXPECT_NEAR(norm(first - w.position[i]), norm(skeleton[0]), 1e-12);
  }
  std::stringstream file;
  write_checkpoint(file, e.snapshot());
  const EngineSnapshot back = read_checkpoint(file, "memory");
  EXPECT_EQ(back.world.local_vertex, w.local_vertex);
  EXPECT_EQ(back.world.local_shift, w.local_shift);
}

// A file written before the ledger kept its books (version 6 here) goes on
// from its ledger's totals, and once saved again continues as it would
// have.
TEST(Checkpoint, AnOlderFileGoesOnFromItsLedgersTotals) {
  const EngineSnapshot old = load_checkpoint(SPHERO_DATA_DIR "/../tests/fuzz/corpus/checkpoint/tiny.ckpt");
  ASSERT_FALSE(old.books);
  Engine e(old);
  EXPECT_EQ(e.ledger().damping_dissipation, old.ledger.damping_dissipation);
  EXPECT_EQ(e.ledger().sliding_dissipation, old.ledger.sliding_dissipation);
  EXPECT_EQ(e.ledger().external_work, old.ledger.external_work);
  e.run(300);
  EXPECT_GE(e.ledger().dissipated(), old.ledger.dissipated());
  std::stringstream bytes;
  write_checkpoint(bytes, e.snapshot());
  Engine again(read_checkpoint(bytes, "again.ckpt"));
  e.run(300);
  again.run(300);
  expect_identical(e, again);
}

// A rigid checkpoint of version 11, before Coulomb friction: its laws read
// frictionless and its programs solved by the interior point, as they were.
// A file of version 13 held the skeletons' world coordinates, which a
// later version derives on reading: derived, they are those it held, to
// the bit, and the file written again reads back as the same state.
TEST(Checkpoint, AFileOfVersion13ReadsAsItWasWritten) {
  const EngineSnapshot old = load_checkpoint(SPHERO_DATA_DIR "/../tests/fuzz/corpus/checkpoint/tiny_format13.ckpt");
  World derived = old.world;
  update_world_vertices(derived);
  EXPECT_EQ(derived.world_vertex, old.world.world_vertex);
  std::stringstream bytes;
  write_checkpoint(bytes, old);
  const EngineSnapshot again = read_checkpoint(bytes, "again.ckpt");
  EXPECT_EQ(again.world.world_vertex, old.world.world_vertex);
  EXPECT_EQ(again.world.position, old.world.position);
  Engine a(old), b(again);
  a.run(100);
  b.run(100);
  expect_identical(a, b);
}

TEST(Checkpoint, ARigidFileOfVersion11ReadsWithoutFriction) {
  const EngineSnapshot old = load_checkpoint(SPHERO_DATA_DIR "/../tests/fuzz/corpus/checkpoint/tiny_rigid.ckpt");
  ASSERT_EQ(old.settings.model, Model::rigid);
  ASSERT_FALSE(old.world.rigid_law.empty());
  for (const RigidLaw& law : old.world.rigid_law) EXPECT_EQ(law.friction, 0.0);
  EXPECT_EQ(old.settings.rigid.solver, RigidSolver::interior_point);
  Engine e(old);
  e.run(50);
}

TEST(Checkpoint, DamagedFilesAreRefusedWithTheirName) {
  Engine e = frictional_pile(Integrator::velocity_verlet);
  std::stringstream bytes;
  write_checkpoint(bytes, e.snapshot());
  const std::string whole = bytes.str();
  std::istringstream truncated(whole.substr(0, whole.size() / 2));
  EXPECT_THROW(read_checkpoint(truncated, "half.ckpt"), CheckpointError);
  std::istringstream foreign("this is not a checkpoint at all, just text");
  try {
    read_checkpoint(foreign, "notes.txt");
    FAIL();
  } catch (const CheckpointError& err) {
    EXPECT_NE(std::string(err.what()).find("notes.txt: not a usable Sphero checkpoint"), std::string::npos);
  }
  EXPECT_THROW(load_checkpoint("/no/such.ckpt"), CheckpointError);
}

// The bytes of a whole checkpoint of `s`.
std::string whole_bytes(const EngineSnapshot& s) {
  std::ostringstream out;
  write_checkpoint(out, s);
  return out.str();
}

// What reading `bytes` says: the refusal's message, or "read".
std::string refusal_of(const std::string& bytes) {
  std::istringstream in(bytes);
  try {
    read_checkpoint(in, "made.ckpt");
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "read";
}

// `bytes` are refused by the file's name, saying `what`.
void expect_refused(const std::string& bytes, const std::string& what) {
  const std::string message = refusal_of(bytes);
  EXPECT_NE(message.find("made.ckpt: not a usable Sphero checkpoint"), std::string::npos) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
}

// The file with its closing checksum put right after a change: FNV-1a of
// every byte but the run's identity (bytes 12 to 51) and the sum itself.
std::string resummed(std::string bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t k = 0; k + 8 < bytes.size(); ++k)
    if (k < 12 || k >= 52) h = (h ^ static_cast<unsigned char>(bytes[k])) * 1099511628211ull;
  std::memcpy(bytes.data() + bytes.size() - 8, &h, 8);
  return bytes;
}

// A whole checkpoint's fields are compressed (format 14): a damaged stream
// or a size that is not its fields', the checksum put right, is refused by
// name.
TEST(Checkpoint, DamagedCompressedFieldsAreRefusedByName) {
  Engine pile = frictional_pile(Integrator::velocity_verlet);
  pile.run(200);
  const std::string good = whole_bytes(pile.snapshot());
  ASSERT_EQ(resummed(good), good);  // the format's checksum
  std::string stream = good;
  stream[stream.size() / 2] ^= 0x55;  // inside the compressed fields
  expect_refused(resummed(stream), "compressed fields are damaged");
  std::string size = good;
  size[52] ^= 0x01;  // the fields' size, after the magic (8 bytes), the format (4) and the identity (40)
  expect_refused(resummed(size), "compressed fields");
}

TEST(Checkpoint, AnEngineSpentOnItsSnapshotGivesTheSameState) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    auto pile = std::make_unique<Engine>(frictional_pile(integrator));
    pile->run(3000);
    const std::string kept = whole_bytes(pile->snapshot());
    EXPECT_EQ(whole_bytes(Engine::snapshot_of(std::move(pile))), kept);
  }
}

// Files written by earlier Sphero runs (format 9, 10 and 13, a vibrating
// wall, a rigid heap, a checkpoint in parts) still read and step: the
// checks of a file's content refuse nothing a run writes.
TEST(Checkpoint, FilesRunsWroteStillReadAndStep) {
  for (const char* name :
       {"tiny.ckpt", "tiny_format10.ckpt", "tiny_format13.ckpt", "tiny_format14.ckpt", "tiny_format15.ckpt",
        "tiny_vibrating.ckpt", "tiny_rigid.ckpt", "tiny_in_parts.ckpt", "tiny_in_parts_format15.ckpt"}) {
    SCOPED_TRACE(name);
    const EngineSnapshot read =
        load_checkpoint(std::filesystem::path(SPHERO_SOURCE_DIR) / "tests/fuzz/corpus/checkpoint" / name);
    // Files before format 15 say nothing of their run.
    EXPECT_EQ(read.lineage.run.known(), std::string(name).find("format15") != std::string::npos);
    Engine e(read);
    e.step();
  }
}

// A settled pile's state, of the run `lineage` names.
EngineSnapshot pile_of_run(const RunLineage& lineage) {
  Engine pile = frictional_pile(Integrator::velocity_verlet);
  pile.run(200);
  pile.set_lineage(lineage);
  return pile.snapshot();
}

// A checkpoint says whose run it is (format 15): the run's identity and
// its parent's come back as written, through an engine too, whole or in
// parts; two runs' checkpoints of one state differ only there; and a
// damaged identity is refused by name (it has a checksum of its own, as
// the main one leaves it out).
TEST(Checkpoint, SaysWhoseRunItIsAndDiffersOnlyThereFromAnotherRuns) {
  const RunLineage lineage = RunLineage::begun(RunIdentity::fresh());
  const EngineSnapshot s = pile_of_run(lineage);
  EXPECT_EQ(s.lineage, lineage);
  const std::string bytes = whole_bytes(s);
  std::istringstream in(bytes);
  const EngineSnapshot read = read_checkpoint(in, "made.ckpt");
  EXPECT_EQ(read.lineage, lineage);
  EXPECT_EQ(Engine(read).snapshot().lineage, lineage);
  EngineSnapshot other = s;
  other.lineage = RunLineage::begun();
  const std::string theirs = whole_bytes(other);
  ASSERT_EQ(theirs.size(), bytes.size());
  EXPECT_NE(theirs.substr(12, 40), bytes.substr(12, 40));
  EXPECT_EQ(theirs.substr(0, 12), bytes.substr(0, 12));
  EXPECT_EQ(theirs.substr(52), bytes.substr(52));  // the checksum at the end too
  std::string damaged = bytes;
  damaged[20] ^= 0x04;  // inside the run's identity
  expect_refused(damaged, "run's identity is damaged");
}

// A file made to pass the checksum is checked for what the engine would
// trust: each damage below is refused by name, where the engine would have
// read outside its arrays or counted cells and periods beyond an int.
TEST(Checkpoint, ContentMadeToPassTheChecksumIsRefusedByName) {
  Engine pile = frictional_pile(Integrator::velocity_verlet);
  pile.run(8000);
  const EngineSnapshot good = pile.snapshot();
  ASSERT_FALSE(good.neighbours.contacts.empty());
  // The snapshot damaged, written whole with its checksum put right.
  const auto damaged = [&](const std::function<void(EngineSnapshot&)>& damage) {
    EngineSnapshot s = good;
    damage(s);
    return whole_bytes(s);
  };
  const auto says = [&](const std::function<void(EngineSnapshot&)>& damage, const std::string& what) {
    expect_refused(damaged(damage), what);
  };
  EXPECT_EQ(refusal_of(damaged([](EngineSnapshot&) {})), "read");
  says([](EngineSnapshot& s) { s.world.constraint[3].span_bodies = {1, 99}; }, "spans bodies that are not there");
  says([](EngineSnapshot& s) { s.world.mass[4] = -1.0; }, "a mass or inertia that is not one");
  says([](EngineSnapshot& s) { s.world.bounding_radius[4] = 0.5 * s.world.radius[4]; }, "bounding radius");
  says([](EngineSnapshot& s) { s.settings.verlet_distance = NAN; }, "Verlet distance");
  says([](EngineSnapshot& s) { s.neighbours.wraps[5] = {-(1 << 30), 0}; }, "wrapped millions of periods");
  says([](EngineSnapshot& s) { s.neighbours.contacts[0].image = {1 << 23, 0}; }, "millions of periods away");
  // An edge from the last vertex of the box, an open path: no edge starts there.
  says(
      [](EngineSnapshot& s) {
        Contact& c = s.neighbours.contacts[0];
        c.kind = ContactKind::vertex_edge;
        c.edge_body = 0;
        c.feature = s.world.vertex_begin[0] + s.world.vertex_count[0] - 1;
        if (c.vertex_body == 0) c.vertex_body = 1, c.vertex = s.world.vertex_begin[1];
      },
      "an edge from the free end of a path");
  says(
      [](EngineSnapshot& s) {
        s.world.cell.periodic = {true, false};
        s.world.cell.size = {0.0, 0.0};
      },
      "a periodic cell of no size");
  says(
      [](EngineSnapshot& s) {
        s.world.cell.periodic = {true, false};
        s.world.cell.size = {6.0, 0.0};
        s.world.position[7].x = 1e95;
      },
      "a million periods away");
}

// A checkpoint in `parts` parts of `s`, body i in part (i + shift) % parts,
// as ranks would write it; `mend` may spoil the parts first.
std::string bytes_in_parts(const EngineSnapshot& s, int parts, int shift,
                           const std::function<void(std::vector<StatePart>&)>& mend = {}) {
  std::vector<int> part_of_body(s.world.size());
  for (std::size_t i = 0; i < part_of_body.size(); ++i)
    part_of_body[i] = static_cast<int>((i + static_cast<std::size_t>(shift)) % static_cast<std::size_t>(parts));
  std::vector<StatePart> cut = cut_into_parts(s, part_of_body, parts);
  if (mend) mend(cut);
  std::ostringstream out;
  write_checkpoint_in_parts(
      out, header_of(s), parts, [&](int k) { return checkpoint_part_bytes(cut[static_cast<std::size_t>(k)]); });
  return out.str();
}

TEST(Checkpoint, AStateWrittenInPartsReadsBackAsTheWholeState) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    SCOPED_TRACE(std::string(to_string(integrator)));
    Engine pile = frictional_pile(integrator);
    pile.run(8000);  // settled: most grains touch
    const EngineSnapshot s = pile.snapshot();
    std::size_t springs = 0;
    for (const Contact& c : s.neighbours.contacts) springs += c.active && norm(c.xi) > 0.0;
    ASSERT_GT(springs, 10u);  // contacts with a state to carry, and candidates without
    ASSERT_LT(springs, s.neighbours.contacts.size());
    const std::string whole = whole_bytes(s);
    for (int parts : {1, 2, 3, 7})
      for (int shift : {0, 1}) {
        SCOPED_TRACE(std::to_string(parts) + " parts, shift " + std::to_string(shift));
        const std::string bytes = bytes_in_parts(s, parts, shift);
        EXPECT_EQ(bytes, bytes_in_parts(s, parts, shift));  // the same state, the same bytes
        std::istringstream in(bytes);
        EXPECT_EQ(whole_bytes(read_checkpoint(in, "made.ckpt")), whole);
      }
    // And the run goes on from it as from the whole file.
    std::istringstream in(bytes_in_parts(s, 3, 1));
    Engine restarted(read_checkpoint(in, "made.ckpt"));
    restarted.run(500);
    pile.run(500);
    expect_identical(pile, restarted);
  }
}

TEST(Checkpoint, PartsThatDoNotMakeOneStateAreRefusedByName) {
  Engine pile = frictional_pile(Integrator::velocity_verlet);
  pile.run(2000);
  const EngineSnapshot s = pile.snapshot();
  const auto says = expect_refused;
  says(bytes_in_parts(s, 3, 0, [](std::vector<StatePart>& p) { p[1].bodies.erase(p[1].bodies.begin() + 2); }),
       "lack body 7");
  says(bytes_in_parts(s, 3, 0, [](std::vector<StatePart>& p) { p[2].bodies.push_back(p[1].bodies[0]); }), "twice");
  says(bytes_in_parts(s, 2, 0,
                      [](std::vector<StatePart>& p) {
                        CandidateStream& c = p[0].candidates;
                        ASSERT_GE(c.keys.size(), 2u);
                        std::swap(c.keys[0], c.keys[1]);
                      }),
       "canonical order");
  says(bytes_in_parts(s, 2, 0, [](std::vector<StatePart>& p) { p[0].candidates.keys[0].vertex_body = 99; }),
       "not there");
  says(bytes_in_parts(s, 2, 0, [](std::vector<StatePart>& p) { p[1].candidates.stated.pop_back(); }), "do not match");
  says(bytes_in_parts(s, 2, 0, [](std::vector<StatePart>& p) { p[1].bodies[0].facts.material = 5; }), "material");
  const std::string good = bytes_in_parts(s, 2, 0);
  says(good.substr(0, good.size() - 100), "");
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  says(flipped, "checksum");
}

// A checkpoint in parts says whose run it is as a whole one does.
TEST(Checkpoint, InPartsSaysWhoseRunItIs) {
  const RunLineage lineage = RunLineage::begun(RunIdentity::fresh());
  const EngineSnapshot s = pile_of_run(lineage);
  for (int parts : {1, 3}) {
    std::istringstream in(bytes_in_parts(s, parts, 0));
    EXPECT_EQ(read_checkpoint(in, "parts.ckpt").lineage, lineage);
  }
}

// Where part k of `s` (cut as bytes_in_parts cuts it) opens in `file`:
// its index, the header's checksum and its size, then its bytes.
std::size_t part_opening(const std::string& file, const EngineSnapshot& s, int parts, int k) {
  std::vector<int> part_of_body(s.world.size());
  for (std::size_t i = 0; i < part_of_body.size(); ++i) part_of_body[i] = static_cast<int>(i % parts);
  const std::vector<char> bytes = checkpoint_part_bytes(cut_into_parts(s, part_of_body, parts)[k]);
  const std::size_t at = file.find(std::string(bytes.begin(), bytes.end()));
  EXPECT_NE(at, std::string::npos);
  return at - 24;
}

// Parts are bound to their header (format 16): a part of another
// checkpoint, or one part twice, is refused by name even when the file's
// checksum is put right; two runs' checkpoints of one state still differ
// only in their identities.
TEST(Checkpoint, PartsOfAnotherCheckpointAreRefusedThoughTheChecksumPasses) {
  Engine pile = frictional_pile(Integrator::velocity_verlet);
  pile.run(2000);
  const EngineSnapshot before = pile.snapshot();
  pile.run(100);
  const EngineSnapshot after = pile.snapshot();
  const std::string ours = bytes_in_parts(before, 2, 0), theirs = bytes_in_parts(after, 2, 0);
  ASSERT_EQ(refusal_of(resummed(ours)), "read");
  // Part 1 of the later state, with all it says of itself, in place of ours.
  const std::size_t our_part = part_opening(ours, before, 2, 1), their_part = part_opening(theirs, after, 2, 1);
  const std::string spliced = ours.substr(0, our_part) + theirs.substr(their_part, theirs.size() - 12 - their_part) +
                              ours.substr(ours.size() - 12);
  expect_refused(resummed(spliced), "part 1 belongs to another checkpoint");
  // Part 0 twice, in place of part 1.
  const std::size_t our_first = part_opening(ours, before, 2, 0);
  std::string twice = ours.substr(0, our_part) + ours.substr(our_first, our_part - our_first);
  twice[our_part] = 1;  // its size and bytes as part 0's, its index changed to 1 ...
  twice += ours.substr(ours.size() - 12);
  expect_refused(resummed(twice), "twice");  // ... still part 0's bodies
  std::string renumbered = ours;
  renumbered[our_part] = 0;
  expect_refused(resummed(renumbered), "part 1 says it is part 0");
  EngineSnapshot other = before;
  other.lineage = RunLineage::begun(RunIdentity::fresh());
  EXPECT_EQ(bytes_in_parts(other, 2, 0).substr(52), ours.substr(52));
}

}  // namespace
}  // namespace sphero

namespace sphero {
namespace {

// Disks and hexagons falling into a box under gravity and an attractor,
// colliding as rigid bodies.
Engine rigid_heap(double friction = 0.0) {
  std::vector<BodySpec> bodies{test::wall({{-6, 6}, {-6, -6}, {6, -6}, {6, 6}}, 0.1)};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      const Vec2 at{1.7 * i - 4.2, 1.7 * j - 4.2};
      bodies.push_back((i + j) % 2 ? test::disk(at, 0.5) : test::regular_polygon_body(6, 0.5, 0.05, at, 0.3 * j));
    }
  World w = test::world_of(bodies, test::linear_law(1.0), {0.0, -2.0});
  RigidLaw law;
  law.restitution = 0.4;
  law.tangential_dissipation = friction > 0.0 ? 0.0 : 0.3;
  law.friction = friction;
  w.rigid_law = {law};
  w.attractor = {{0.5, -1.0}, 4.0};
  EngineSettings s;
  s.model = Model::rigid;
  s.dt = 2e-3;
  s.verlet_distance = 0.05;
  s.adaptive_verlet_distance = true;
  s.rigid.gap = 1e-3;
  s.rigid.overlap_tolerance = 1e-3;
  if (friction > 0.0) s.rigid.solver = RigidSolver::gauss_seidel, s.rigid.qp_tolerance = 1e-6;
  return Engine(std::move(w), s);
}

TEST(Checkpoint, ARigidRunContinuesBitForBitFromItsFile) {
  Engine straight = rigid_heap();
  straight.run(600);
  Engine first_half = rigid_heap();
  first_half.run(300);
  const auto file = std::filesystem::temp_directory_path() / "sphero_rigid_checkpoint_test.ckpt";
  save_checkpoint(file, first_half.snapshot());
  Engine restarted(load_checkpoint(file));
  std::filesystem::remove(file);
  EXPECT_EQ(restarted.settings().model, Model::rigid);
  EXPECT_EQ(restarted.world().rigid_law.size(), 1u);
  EXPECT_EQ(restarted.world().attractor.strength, 4.0);
  restarted.run(300);
  expect_identical(straight, restarted);
  EXPECT_EQ(straight.ledger().damping_dissipation, restarted.ledger().damping_dissipation);
  EXPECT_GT(straight.ledger().damping_dissipation, 0.0);
  // The contacts a frame writes after a restart are the running engine's.
  std::size_t touching = 0;
  const std::vector<Contact> a = straight.contacts(), b = restarted.contacts();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].active, b[k].active);
    EXPECT_EQ(a[k].force, b[k].force);
    touching += a[k].active;
  }
  EXPECT_GT(touching, 10u);
}

TEST(Checkpoint, AFrictionalRigidRunKeepsItsSolverAndFrictionAcrossARestart) {
  Engine straight = rigid_heap(0.5);
  straight.run(400);
  Engine first_half = rigid_heap(0.5);
  first_half.run(200);
  const auto file = std::filesystem::temp_directory_path() / "sphero_frictional_checkpoint_test.ckpt";
  save_checkpoint(file, first_half.snapshot());
  Engine restarted(load_checkpoint(file));
  std::filesystem::remove(file);
  EXPECT_EQ(restarted.settings().rigid.solver, RigidSolver::gauss_seidel);
  EXPECT_EQ(restarted.world().rigid_law.at(0).friction, 0.5);
  restarted.run(200);
  expect_identical(straight, restarted);
  EXPECT_GT(straight.collision_stats().programs, 10) << "the grains collided";
}

}  // namespace
}  // namespace sphero
