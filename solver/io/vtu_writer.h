// A .vtu as VTK's XML writer makes it (raw appended data, LZ4 blocks), made
// straight from the grid's arrays: no array is copied, converted or scanned
// for its range, so that writing a frame costs little more than compressing
// it. VTK, ParaView and pvpython read it as they read their own files.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

class vtkUnstructuredGrid;

namespace sphero {

// The whole file of `grid`: its field data, point data, cell data, points
// and cells (connectivity and offsets in 32 bits where they fit). String
// arrays are written as VTK writes them, each value followed by a zero byte.
// Throws std::invalid_argument for an array of a type VTK XML cannot hold.
std::string vtu_bytes(vtkUnstructuredGrid* grid);

// Leaves the values it makes room for unset (std::allocator zeroes chars):
// a frame's arrays are compressed straight into room made for them.
template <class T>
struct UnsetAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UnsetAllocator<U>;
  };
  UnsetAllocator() = default;
  template <class U>
  explicit UnsetAllocator(const UnsetAllocator<U>&) {}
  template <class U>
  void construct(U* at) noexcept {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};
using Bytes = std::vector<char, UnsetAllocator<char>>;

// The same file in three parts, written one after the other: the XML
// (ending where the appended data begins), the appended data, and the end.
// A frame's arrays are compressed straight into `payload`, not copied after.
struct VtuParts {
  std::string head;
  Bytes payload;
  std::string tail;
};
VtuParts vtu_parts(vtkUnstructuredGrid* grid);

// The type word a .vtu names a numeric array of VTK type `vtk_type` by
// ("Float64", "Int32", ...). Throws std::invalid_argument for a type VTK XML
// cannot hold.
const char* vtu_type_word(int vtk_type);

}  // namespace sphero
