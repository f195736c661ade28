// Everything VTK's XML reader would take on trust in a .vtu, checked from
// the file's bytes before VTK reads it. VTK's reader believes a file's
// counts, block headers, compressed blocks, string arrays and cell offsets,
// and crashes or allocates without bound when they lie; so every array is
// decoded here first (LZ4, zlib or LZMA, as VTK would) and held against the
// size its place needs, and the cells' offsets and connectivity against the
// points. Every failure names the file and what is wrong.
#pragma once

#include <filesystem>

#include <vtkType.h>

namespace sphero {

inline constexpr vtkIdType kMaxGridPoints = 100'000'000;
inline constexpr vtkIdType kMaxGridCells = 100'000'000;

// Throws std::runtime_error naming the file unless VTK can read it safely.
void check_vtu_before_reading(const std::filesystem::path& file);

}  // namespace sphero
