#include "app/frame_bench.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/bench_record.h"
#include "io/frame_grids.h"
#include "io/frame_piece.h"
#include "io/shape_table.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;

// The bytes of frame `frame`'s files of `fields` in `folder`.
std::uintmax_t frame_bytes(const fs::path& folder, const std::vector<std::string>& fields, int frame) {
  std::uintmax_t bytes = 0;
  for (const std::string& field : fields) bytes += fs::file_size(folder / FramePiece{}.file_name(field, frame));
  return bytes;
}

// Steps before each frame, as a run makes them: the frame finds in the
// caches what stepping left there, not what the last frame did.
constexpr long kStepsBeforeAFrame = 10;

FrameCost cost_of(Engine& engine, int arc_resolution, const std::vector<std::string>& fields, int repeats,
                  const fs::path& folder, bool single_precision = false) {
  // Each cost into an empty folder: a run writes new files, and replacing
  // another cost's files would add the freeing of theirs to this one.
  fs::remove_all(folder);
  fs::create_directories(folder);
  ShapeTable shapes;
  const FrameGrids grids(engine.world(), arc_resolution, &shapes, single_precision);
  FrameCost cost;
  if (single_precision) cost.precision = "single";
  for (const std::string& field : fields) cost.fields += (cost.fields.empty() ? "" : "+") + field;
  cost.write_seconds = INFINITY;
  for (int k = 0; k < repeats; ++k) {
    engine.run(kStepsBeforeAFrame - 1);
    engine.keep_contact_geometry_next_step();  // as a run's frame step does
    engine.step();
    const double start = wall_now();
    grids.write(engine, FramePiece{}, fields, folder, k);
    cost.write_seconds = std::min(cost.write_seconds, wall_now() - start);
  }
  const auto& walls = engine.world().is_wall;
  const auto grains = static_cast<double>(std::count(walls.begin(), walls.end(), 0));
  cost.bytes_per_grain = static_cast<double>(frame_bytes(folder, fields, 0)) / std::max(grains, 1.0);
  return cost;
}

}  // namespace

std::vector<FrameCost> frame_costs(Engine& engine, int arc_resolution, int repeats) {
  const fs::path folder = fs::temp_directory_path() / fmt::format("sphero-bench-frames-{}", ::getpid());
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::vector<FrameCost> costs;
  try {
    for (const std::string& field : kFrameFields)
      costs.push_back(cost_of(engine, arc_resolution, {field}, repeats, folder));
    costs.push_back(cost_of(engine, arc_resolution, {"contacts", "walls", "state"}, repeats, folder));
    costs.push_back(cost_of(engine, arc_resolution, {"contacts", "walls", "state"}, repeats, folder, true));
  } catch (...) {
    fs::remove_all(folder);
    throw;
  }
  fs::remove_all(folder);
  return costs;
}

}  // namespace sphero::app
