// The shapes of a run, each written once: shapes.vtu in the run's folder
// (docs/FILE-FORMATS.md), one cell per shape — its skeleton in the body
// frame (centred on its centre of mass), sphero-radius, name and mass
// properties per unit density — which the state frames name by row. The
// table only grows: a stage or a Python call that adds bodies of a new
// shape appends rows, and a row keeps its number for the whole run.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/world.h"
#include "io/frame_data.h"
#include "shapes/shape.h"

namespace sphero {

inline constexpr int kShapeTableFormat = 1;
inline constexpr const char* kShapeTableFile = "shapes.vtu";

class ShapeTable {
 public:
  ShapeTable() = default;
  explicit ShapeTable(std::vector<ShapeRow> rows);
  // The row of body i's shape (its skeleton, sphero-radius and name as the
  // world holds them), appended where the table lacks it.
  int row_of(const World& world, std::size_t body);
  // The row of `shape` (body frame), appended where the table lacks it.
  int row_of(Shape shape);
  // The row of `shape` where the table has it, else -1.
  int find(const Shape& shape) const;
  const std::vector<ShapeRow>& rows() const { return rows_; }
  std::size_t size() const { return rows_.size(); }

 private:
  int add(ShapeRow row);
  std::vector<ShapeRow> rows_;
  std::unordered_map<std::string, int> row_of_key_;  // the exact bits of name, kind, radius and skeleton
};

// The exact bits of a shape's name, kind, radius and skeleton: equal for
// the same shape only.
std::string shape_key(const Shape& shape);

// Writes the table whole or not at all.
void write_shape_table(const std::filesystem::path& path, const ShapeTable& table);
// Throws std::runtime_error naming the file, and the row where a shape is
// damaged (a skeleton make_shape refuses, a mass property that is not
// positive and finite).
ShapeTable read_shape_table(const std::filesystem::path& path);
// The same, read once while the file stays as it was (the frames of a run
// share one table).
std::shared_ptr<const ShapeTable> shared_shape_table(const std::filesystem::path& path);

}  // namespace sphero
