// The neighbour list rebuilt on an OpenCL device (docs/OPENCL.md): the
// kernels of data/opencl/list_build.cl place the skeletons, bin the grains
// into link cells, find each searched grain's candidate feature pairs,
// order them canonically, carry the contact state over from the list the
// device held, merge a partial rebuild with the kept candidates, index
// them per body and hand the list to the contact pass — the CPU's list to
// the candidate, never brought to the host unless fetched. The host still
// decides when and how to rebuild, wraps the bodies and chooses the grid.
#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "engine/neighbour_list.h"
#include "opencl/device_contact_pass.h"

namespace sphero {

class DeviceListBuilder final : public RemoteLister {
 public:
  // `position` and `orientation`: the device's bodies (two doubles each),
  // which the lists are built from; the wrapped positions go there.
  DeviceListBuilder(OpenClDevice device, const World& world, const std::filesystem::path& kernels,
                    DeviceContactPass& pass, cl::Buffer position, cl::Buffer orientation);
  // Whether lists with these settings are built as this builder builds
  // them: link cells and contact lists (not all pairs, nor the triangulation).
  static bool builds(const NeighbourSettings& settings);

  Listing relist(const World& world, const NeighbourList& list, const std::vector<std::array<int, 2>>& wraps,
                 const std::vector<int>* moved, double skin) override;
  void fetch(NeighbourList& list) override { pass_.read_list(list); }
  double seconds() const { return seconds_; }  // wall time in relist
  // Grains whose candidates overflowed their slots and were searched
  // again, since construction.
  long searched_again() const { return searched_again_; }

 private:
  // A device array that grows (with room to spare) and keeps its buffer.
  struct Scratch {
    cl::Buffer buffer;
    std::size_t bytes = 0;
  };
  const cl::Buffer& room(Scratch& s, std::size_t bytes);
  std::size_t scan(const cl::Buffer& data, std::size_t count);
  void zero(const cl::Buffer& data, std::size_t count);
  void place_skeletons(const World& w, const std::vector<std::array<int, 2>>& wraps);
  std::size_t bin_grains(const World& w, double skin, int threads);
  std::size_t find(const World& w, const std::vector<int>* moved, double skin, Listing& listing);
  const cl::Buffer& send_search_inputs(const World& w, const std::vector<int>* moved);
  cl_uint set_search_args(cl::Kernel& kernel, cl_uint at, const World& w, const cl::Buffer& which, bool partial,
                          double skin);
  void gather_found(std::size_t searched, std::size_t total, const std::function<cl_uint(cl::Kernel&)>& search_args);
  void order(std::size_t found, std::size_t previous);
  std::size_t merge_kept(std::size_t fresh, std::size_t previous);
  void index_bodies(const cl::Buffer& keys, std::size_t count);

  OpenClDevice device_;
  DeviceContactPass& pass_;
  cl::Program program_;
  cl::Kernel place_, chunk_, bin_, fill_cells_, find_, gather_slots_, list_overflowed_, write_, count_buckets_,
      fill_buckets_, sort_buckets_, carry_over_, list_keys_, mark_kept_, merge_kept_, merge_fresh_, count_incidence_,
      fill_incidence_, sort_incidence_, scan_blocks_, scan_totals_, add_offsets_;
  std::size_t n_ = 0, vertices_ = 0;
  std::vector<int> grains_, walls_;
  int has_seams_ = 0;
  // Slots per searched grain for its candidates: twice the last rebuild's
  // mean (or the list's the device was given), so that few grains overflow
  // into the second search.
  std::size_t room_ = 8;
  bool room_measured_ = false;
  double seconds_ = 0.0;
  long searched_again_ = 0;
  // The world: fixed for the run.
  cl::Buffer position_, orientation_, vertex_begin_, vertex_count_, closed_, seam_, local_bend_, local_shift_,
      local_vertex_, radius_, bounding_radius_, chunk_first_, grains_buffer_, walls_buffer_;
  // Per rebuild.
  cl::Buffer world_vertex_, chunk_centre_, chunk_radius_, wraps_, relisted_, cell_of_;
  Scratch searched_, wall_periods_, cell_start_, cursor_, members_, found_count_, pair_count_, half_count_, totals_,
      slot_keys_, slot_shapes_, overflow_at_, overflowed_, found_keys_, found_shapes_, entries_, bucket_start_,
      previous_keys_, fresh_keys_, fresh_shapes_, fresh_states_, fresh_sort_keys_, kept_, merged_keys_, merged_shapes_,
      merged_states_, body_start_, incident_;
  // The grid of the last rebuild: origin, width, cells.
  cl_double2 origin_{}, width_{};
  cl_int2 cells_{};
};

}  // namespace sphero
