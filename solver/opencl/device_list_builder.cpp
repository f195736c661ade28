#include "opencl/device_list_builder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include "engine/link_cells.h"
#include "engine/skeleton_chunks.h"

namespace sphero {
namespace {

constexpr std::size_t kStateRecord = DeviceContactPass::kStateRecord;

// Sets a kernel's arguments in order, from argument `at` on.
template <class... Args>
void set_args_from(cl::Kernel& kernel, cl_uint at, const Args&... args) {
  (kernel.setArg(at++, args), ...);
}
template <class... Args>
void set_args(cl::Kernel& kernel, const Args&... args) {
  set_args_from(kernel, 0, args...);
}

// skeleton_chunks.h's chunk_circles: where each body's chunks start.
std::vector<int> chunk_starts(const World& w) {
  std::vector<int> first(w.size() + 1, 0);
  for (std::size_t i = 0; i < w.size(); ++i)
    first[i + 1] = first[i] + (!w.is_wall[i] && w.vertex_count[i] >= kChunkedVertices
                                   ? (w.vertex_count[i] + kChunkEdges - 1) / kChunkEdges
                                   : 0);
  return first;
}

// Slots per grain for a mean of candidates / grains: twice it, and 4 more.
std::size_t slots_for(std::size_t candidates, std::size_t grains) {
  return std::clamp<std::size_t>(2 * ((candidates + grains - 1) / std::max<std::size_t>(grains, 1)) + 4, 4, 64);
}

std::vector<cl_double2> as_double2(const std::vector<Vec2>& v) {
  std::vector<cl_double2> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = {{v[i].x, v[i].y}};
  return out;
}

}  // namespace

DeviceListBuilder::DeviceListBuilder(OpenClDevice device, const World& world, const std::filesystem::path& kernels,
                                     DeviceContactPass& pass, cl::Buffer position, cl::Buffer orientation)
    : device_(std::move(device)),
      pass_(pass),
      program_(build_program(device_, kernels, {"list_build.cl"})),
      place_(program_, "place_vertices"),
      chunk_(program_, "chunk_circles"),
      bin_(program_, "bin_grains"),
      fill_cells_(program_, "fill_cells"),
      find_(program_, "find_candidates"),
      gather_slots_(program_, "gather_slots"),
      list_overflowed_(program_, "list_overflowed"),
      write_(program_, "write_candidates"),
      count_buckets_(program_, "count_buckets"),
      fill_buckets_(program_, "fill_buckets"),
      sort_buckets_(program_, "sort_buckets"),
      carry_over_(program_, "order_and_carry_over"),
      list_keys_(program_, "list_sort_keys"),
      mark_kept_(program_, "mark_kept"),
      merge_kept_(program_, "merge_kept"),
      merge_fresh_(program_, "merge_fresh"),
      count_incidence_(program_, "count_incidence"),
      fill_incidence_(program_, "fill_incidence"),
      sort_incidence_(program_, "sort_incidence"),
      scan_blocks_(program_, "scan_blocks"),
      scan_totals_(program_, "scan_totals"),
      add_offsets_(program_, "add_block_offsets"),
      n_(world.size()),
      vertices_(world.local_vertex.empty() || world.size() == 0
                    ? 0
                    : static_cast<std::size_t>(world.vertex_begin.back() + world.vertex_count.back())),
      has_seams_(world.seam.empty() ? 0 : 1),
      position_(std::move(position)),
      orientation_(std::move(orientation)) {
  for (std::size_t i = 0; i < n_; ++i) (world.is_wall[i] ? walls_ : grains_).push_back(static_cast<int>(i));
  const cl::Context& c = device_.context();
  vertex_begin_ = buffer_of(c, world.vertex_begin), vertex_count_ = buffer_of(c, world.vertex_count);
  closed_ = buffer_of(c, world.closed), seam_ = buffer_of(c, as_double2(world.seam));
  local_bend_ = buffer_of(c, world.local_bend), local_shift_ = buffer_of(c, world.local_shift);
  local_vertex_ = buffer_of(c, as_double2(world.local_vertex));
  radius_ = buffer_of(c, world.radius), bounding_radius_ = buffer_of(c, world.bounding_radius);
  const std::vector<int> chunks = chunk_starts(world);
  chunk_first_ = buffer_of(c, chunks);
  chunk_centre_ = buffer_for<cl_double2>(c, static_cast<std::size_t>(chunks.back()));
  chunk_radius_ = buffer_for<double>(c, static_cast<std::size_t>(chunks.back()));
  grains_buffer_ = buffer_of(c, grains_), walls_buffer_ = buffer_of(c, walls_);
  world_vertex_ = buffer_for<cl_double2>(c, vertices_);
  wraps_ = buffer_for<cl_int2>(c, n_), relisted_ = buffer_for<std::uint8_t>(c, n_), cell_of_ = buffer_for<int>(c, n_);
}

bool DeviceListBuilder::builds(const NeighbourSettings& s) {
  return !s.brute_force && s.contact_lists && s.strategy == NeighbourStrategy::cells;
}

const cl::Buffer& DeviceListBuilder::room(Scratch& s, std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 16);
  if (bytes > s.bytes) {
    s.bytes = bytes + bytes / 4;
    s.buffer = cl::Buffer(device_.context(), CL_MEM_READ_WRITE, s.bytes);
  }
  return s.buffer;
}

void DeviceListBuilder::zero(const cl::Buffer& data, std::size_t count) {
  if (count > 0) device_.queue().enqueueFillBuffer(data, cl_int{0}, 0, count * sizeof(cl_int));
}

// In place, the exclusive prefix sums of data[0 .. count], data[count]
// (which must be zero) becoming the total; returns it.
std::size_t DeviceListBuilder::scan(const cl::Buffer& data, std::size_t count) {
  const std::size_t items = count + 1;
  const auto block = std::max<std::size_t>(256, static_cast<std::size_t>(std::sqrt(static_cast<double>(items))) + 1);
  const std::size_t blocks = (items + block - 1) / block;
  const cl::Buffer& totals = room(totals_, (blocks + 1) * sizeof(cl_int));
  set_args(scan_blocks_, static_cast<cl_int>(items), data, static_cast<cl_int>(block), totals);
  device_.run(scan_blocks_, blocks);
  set_args(scan_totals_, static_cast<cl_int>(blocks), totals);
  device_.run(scan_totals_, 1);
  set_args(add_offsets_, static_cast<cl_int>(items), data, static_cast<cl_int>(block), totals);
  device_.run(add_offsets_, items);
  cl_int total = 0;
  device_.queue().enqueueReadBuffer(data, CL_TRUE, count * sizeof(cl_int), sizeof(cl_int), &total);
  return static_cast<std::size_t>(total);
}

// The wrapped positions and the wraps go out; every skeleton and chunk
// circle is placed (a partial rebuild on the CPU places only those it
// reads: the same values).
void DeviceListBuilder::place_skeletons(const World& w, const std::vector<std::array<int, 2>>& wraps) {
  cl::CommandQueue& q = device_.queue();
  if (n_ == 0) return;
  q.enqueueWriteBuffer(position_, CL_TRUE, 0, n_ * sizeof(Vec2), w.position.data());
  q.enqueueWriteBuffer(wraps_, CL_TRUE, 0, n_ * sizeof(cl_int2), wraps.data());
  set_args(place_, static_cast<cl_int>(n_), position_, orientation_, vertex_begin_, vertex_count_, local_shift_,
           local_vertex_, world_vertex_);
  device_.run(place_, n_);
  set_args(chunk_, static_cast<cl_int>(n_), world_vertex_, vertex_begin_, vertex_count_, closed_, seam_,
           static_cast<cl_int>(has_seams_), local_bend_, local_shift_, bounding_radius_, chunk_first_, chunk_centre_,
           chunk_radius_);
  device_.run(chunk_, n_);
}

// The grains into the link cells of the host's grid (chosen with the
// host's threads); returns the cells.
std::size_t DeviceListBuilder::bin_grains(const World& w, double skin, int threads) {
  const LinkGrid grid = choose_link_grid(w, grains_, skin, threads);
  origin_ = {{grid.origin[0], grid.origin[1]}}, width_ = {{grid.width[0], grid.width[1]}};
  cells_ = {{grid.cells[0], grid.cells[1]}};
  const std::size_t cells = static_cast<std::size_t>(grid.cells[0]) * static_cast<std::size_t>(grid.cells[1]);
  const cl::Buffer& start = room(cell_start_, (cells + 1) * sizeof(cl_int));
  const cl::Buffer& cursor = room(cursor_, (std::max(cells, n_) + 1) * sizeof(cl_int));
  const cl::Buffer& members = room(members_, grains_.size() * sizeof(cl_int));
  zero(start, cells + 1);
  set_args(
      bin_, static_cast<cl_int>(grains_.size()), grains_buffer_, position_, origin_, width_, cells_, cell_of_, start);
  device_.run(bin_, grains_.size());
  scan(start, cells);
  device_.queue().enqueueCopyBuffer(start, cursor, 0, 0, cells * sizeof(cl_int));
  set_args(fill_cells_, static_cast<cl_int>(grains_.size()), grains_buffer_, cell_of_, cursor, members);
  device_.run(fill_cells_, grains_.size());
  return cells;
}

// Which grains a rebuild searches (all, or the moved, flagged as relisted)
// and the walls' periodic images, onto the device; returns the list.
const cl::Buffer& DeviceListBuilder::send_search_inputs(const World& w, const std::vector<int>* moved) {
  cl::CommandQueue& q = device_.queue();
  std::vector<cl_int2> periods(walls_.size());
  for (std::size_t k = 0; k < walls_.size(); ++k) {
    const auto p = periods_into_cell(w, static_cast<std::size_t>(walls_[k]));
    periods[k] = {{p[0], p[1]}};
  }
  room(wall_periods_, periods.size() * sizeof(cl_int2));
  if (!periods.empty())
    q.enqueueWriteBuffer(wall_periods_.buffer, CL_TRUE, 0, periods.size() * sizeof(cl_int2), periods.data());
  if (!moved) return grains_buffer_;
  const cl::Buffer& which = room(searched_, moved->size() * sizeof(cl_int));
  q.enqueueWriteBuffer(which, CL_TRUE, 0, moved->size() * sizeof(cl_int), moved->data());
  std::vector<std::uint8_t> relisted(n_, 0);
  for (int i : *moved) relisted[static_cast<std::size_t>(i)] = 1;
  q.enqueueWriteBuffer(relisted_, CL_TRUE, 0, n_, relisted.data());
  return which;
}

// The arguments every search kernel shares (list_build.cl's searched,
// SEARCH_ARGS and PAIR_ARGS), from argument `at` on; returns the next.
cl_uint DeviceListBuilder::set_search_args(cl::Kernel& k, cl_uint at, const World& w, const cl::Buffer& which,
                                           bool partial, double skin) {
  const auto arg = [&](const auto& value) { k.setArg(at++, value); };
  for (const cl::Buffer* b : std::initializer_list<const cl::Buffer*>{
           &which, &world_vertex_, &vertex_begin_, &vertex_count_, &closed_, &seam_})
    arg(*b);
  arg(static_cast<cl_int>(has_seams_));
  for (const cl::Buffer* b :
       std::initializer_list<const cl::Buffer*>{&local_bend_, &local_shift_, &position_, &radius_, &bounding_radius_,
                                                &chunk_first_, &chunk_centre_, &chunk_radius_})
    arg(*b);
  arg(skin), arg(cl_int2{{w.cell.periodic[0] ? 1 : 0, w.cell.periodic[1] ? 1 : 0}});
  arg(cl_double2{{w.cell.size.x, w.cell.size.y}}), arg(wraps_), arg(static_cast<cl_int>(partial ? 1 : 0));
  arg(relisted_), arg(cells_), arg(cell_of_), arg(cell_start_.buffer), arg(members_.buffer);
  arg(static_cast<cl_int>(walls_.size())), arg(walls_buffer_), arg(wall_periods_.buffer);
  return at;
}

// Each searched grain's candidates, written into slots of its own and
// counted, then gathered at the counts' prefix sums (found_keys_,
// found_shapes_); returns how many.
std::size_t DeviceListBuilder::find(const World& w, const std::vector<int>* moved, double skin, Listing& listing) {
  const std::size_t searched = moved ? moved->size() : grains_.size();
  if (searched == 0) return 0;
  const cl::Buffer& which = send_search_inputs(w, moved);
  const cl::Buffer& found = room(found_count_, (searched + 1) * sizeof(cl_int));
  const cl::Buffer& pairs = room(pair_count_, (searched + 1) * sizeof(cl_int));
  const cl::Buffer& half = room(half_count_, (searched + 1) * sizeof(cl_int));
  for (const cl::Buffer* b : {&found, &pairs, &half}) zero(*b, searched + 1);
  find_.setArg(0, static_cast<cl_int>(searched));
  set_args_from(find_, set_search_args(find_, 1, w, which, moved != nullptr, skin), static_cast<cl_int>(room_), found,
                pairs, half, room(slot_keys_, searched * room_ * sizeof(cl_int8)),
                room(slot_shapes_, searched * room_ * sizeof(cl_double4)));
  device_.run(find_, searched);
  const std::size_t total = scan(found, searched);
  listing.body_pairs = scan(pairs, searched);
  listing.listed_at_half_skin = static_cast<long>(scan(half, searched));
  gather_found(searched, total, [&](cl::Kernel& k) { return set_search_args(k, 2, w, which, moved != nullptr, skin); });
  room_ = slots_for(total, searched);
  room_measured_ = true;
  return total;
}

// The slots of the grains whose candidates fitted, moved to the counts'
// prefix sums; the few grains that overflowed theirs searched again, whole.
void DeviceListBuilder::gather_found(std::size_t searched, std::size_t total,
                                     const std::function<cl_uint(cl::Kernel&)>& search_args) {
  const cl::Buffer& keys = room(found_keys_, total * sizeof(cl_int8));
  const cl::Buffer& shapes = room(found_shapes_, total * sizeof(cl_double4));
  const cl::Buffer& overflow_at = room(overflow_at_, (searched + 1) * sizeof(cl_int));
  zero(overflow_at, searched + 1);
  set_args(gather_slots_, static_cast<cl_int>(searched), static_cast<cl_int>(room_), found_count_.buffer,
           slot_keys_.buffer, slot_shapes_.buffer, keys, shapes, overflow_at);
  device_.run(gather_slots_, searched);
  const std::size_t overflowed = scan(overflow_at, searched);
  searched_again_ += static_cast<long>(overflowed);
  if (overflowed == 0) return;
  const cl::Buffer& again = room(overflowed_, overflowed * sizeof(cl_int));
  set_args(list_overflowed_, static_cast<cl_int>(searched), overflow_at, again);
  device_.run(list_overflowed_, searched);
  write_.setArg(0, static_cast<cl_int>(overflowed));
  write_.setArg(1, again);
  set_args_from(write_, search_args(write_), found_count_.buffer, keys, shapes);
  device_.run(write_, overflowed);
}

// The found candidates in canonical order with their carried-over states
// (fresh_*); the previous list's sort keys in previous_keys_.
void DeviceListBuilder::order(std::size_t found, std::size_t previous) {
  cl::CommandQueue& q = device_.queue();
  const cl::Buffer& start = room(bucket_start_, (n_ + 1) * sizeof(cl_int));
  const cl::Buffer& cursor = room(cursor_, (n_ + 1) * sizeof(cl_int));
  const cl::Buffer& entries = room(entries_, found * sizeof(cl_ulong4));
  zero(start, n_ + 1);
  set_args(count_buckets_, static_cast<cl_int>(found), found_keys_.buffer, start);
  device_.run(count_buckets_, found);
  scan(start, n_);
  if (n_ > 0) q.enqueueCopyBuffer(start, cursor, 0, 0, n_ * sizeof(cl_int));
  set_args(fill_buckets_, static_cast<cl_int>(found), found_keys_.buffer, cursor, entries);
  device_.run(fill_buckets_, found);
  set_args(sort_buckets_, static_cast<cl_int>(n_), start, entries);
  device_.run(sort_buckets_, n_);
  const cl::Buffer& previous_keys = room(previous_keys_, previous * sizeof(cl_ulong4));
  set_args(list_keys_, static_cast<cl_int>(previous), pass_.keys(), previous_keys);
  device_.run(list_keys_, previous);
  set_args(carry_over_, static_cast<cl_int>(found), entries, found_keys_.buffer, found_shapes_.buffer,
           static_cast<cl_int>(previous), previous_keys, pass_.states(), room(fresh_keys_, found * sizeof(cl_int8)),
           room(fresh_shapes_, found * sizeof(cl_double4)), room(fresh_states_, found * kStateRecord * sizeof(double)),
           room(fresh_sort_keys_, found * sizeof(cl_ulong4)));
  device_.run(carry_over_, found);
}

// A partial rebuild: the previous list's candidates of pairs neither of
// whose bodies was relisted, merged with the fresh ones (merged_*);
// returns how many in all.
std::size_t DeviceListBuilder::merge_kept(std::size_t fresh, std::size_t previous) {
  const cl::Buffer& kept = room(kept_, (previous + 1) * sizeof(cl_int));
  zero(kept, previous + 1);
  set_args(mark_kept_, static_cast<cl_int>(previous), pass_.keys(), relisted_, kept);
  device_.run(mark_kept_, previous);
  const std::size_t total = scan(kept, previous) + fresh;
  const cl::Buffer& keys = room(merged_keys_, total * sizeof(cl_int8));
  const cl::Buffer& shapes = room(merged_shapes_, total * sizeof(cl_double4));
  const cl::Buffer& states = room(merged_states_, total * kStateRecord * sizeof(double));
  set_args(merge_kept_, static_cast<cl_int>(previous), kept, pass_.keys(), pass_.shapes(), pass_.states(),
           previous_keys_.buffer, static_cast<cl_int>(fresh), fresh_sort_keys_.buffer, keys, shapes, states);
  device_.run(merge_kept_, previous);
  set_args(merge_fresh_, static_cast<cl_int>(fresh), fresh_keys_.buffer, fresh_shapes_.buffer, fresh_states_.buffer,
           fresh_sort_keys_.buffer, static_cast<cl_int>(previous), previous_keys_.buffer, kept, keys, shapes, states);
  device_.run(merge_fresh_, fresh);
  return total;
}

// Per body, the indices of its candidates in increasing order.
void DeviceListBuilder::index_bodies(const cl::Buffer& keys, std::size_t count) {
  const cl::Buffer& start = room(body_start_, (n_ + 1) * sizeof(cl_int));
  const cl::Buffer& cursor = room(cursor_, (n_ + 1) * sizeof(cl_int));
  const cl::Buffer& incident = room(incident_, 2 * count * sizeof(cl_int));
  zero(start, n_ + 1);
  set_args(count_incidence_, static_cast<cl_int>(count), keys, start);
  device_.run(count_incidence_, count);
  scan(start, n_);
  if (n_ > 0) device_.queue().enqueueCopyBuffer(start, cursor, 0, 0, n_ * sizeof(cl_int));
  set_args(fill_incidence_, static_cast<cl_int>(count), keys, cursor, incident);
  device_.run(fill_incidence_, count);
  set_args(sort_incidence_, static_cast<cl_int>(n_), start, incident);
  device_.run(sort_incidence_, n_);
}

RemoteLister::Listing DeviceListBuilder::relist(const World& w, const NeighbourList& list,
                                                const std::vector<std::array<int, 2>>& wraps,
                                                const std::vector<int>* moved, double skin) {
  const auto started = std::chrono::steady_clock::now();
  if (w.size() != n_) throw std::logic_error("DeviceListBuilder: the world's body count changed");
  // A list the device does not hold yet (the first, or one restored from a
  // checkpoint) goes out first: its states are carried over.
  if (!pass_.holds(list)) pass_.send_list(list);
  const std::size_t previous = pass_.candidates();
  if (!room_measured_ && previous > 0) room_ = slots_for(previous, grains_.size());
  place_skeletons(w, wraps);
  Listing listing;
  const bool searching = moved ? !moved->empty() : !grains_.empty();
  if (searching) listing.link_cells = bin_grains(w, skin, std::max(1, list.settings().threads));
  const std::size_t found = searching ? find(w, moved, skin, listing) : 0;
  order(found, previous);
  listing.candidates = moved ? merge_kept(found, previous) : found;
  const bool merged = moved != nullptr;
  const cl::Buffer& keys = merged ? merged_keys_.buffer : room(fresh_keys_, found * sizeof(cl_int8));
  index_bodies(keys, listing.candidates);
  pass_.install(keys, merged ? merged_shapes_.buffer : fresh_shapes_.buffer,
                merged ? merged_states_.buffer : fresh_states_.buffer, body_start_.buffer, incident_.buffer,
                listing.candidates, list, list.generation() + 1);
  device_.queue().finish();
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return listing;
}

}  // namespace sphero
