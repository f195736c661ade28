#include "run/shape_agreement.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sphero {
namespace {

template <typename T>
void put(std::vector<char>& bytes, const T& value) {
  const char* raw = reinterpret_cast<const char*>(&value);
  bytes.insert(bytes.end(), raw, raw + sizeof value);
}

class Taking {
 public:
  explicit Taking(const std::vector<char>& bytes) : bytes_(bytes) {}
  template <typename T>
  T take() {
    T value;
    if (at_ + sizeof value > bytes_.size()) throw std::logic_error("agree_on_shapes: a shape record cut short");
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string take_string(std::size_t size) {
    if (at_ + size > bytes_.size()) throw std::logic_error("agree_on_shapes: a shape record cut short");
    std::string s(bytes_.data() + at_, size);
    at_ += size;
    return s;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::vector<char>& bytes_;
  std::size_t at_ = 0;
};

// Shapes, each with a number (a body's id, a row), as bytes.
std::vector<char> shape_bytes(const std::vector<std::pair<int, Shape>>& shapes) {
  std::vector<char> bytes;
  for (const auto& [id, shape] : shapes) {
    put(bytes, static_cast<std::int32_t>(id));
    put(bytes, static_cast<std::uint32_t>(shape.name.size()));
    bytes.insert(bytes.end(), shape.name.begin(), shape.name.end());
    put(bytes, static_cast<std::int32_t>(shape.kind));
    put(bytes, shape.radius);
    put(bytes, static_cast<std::uint32_t>(shape.vertices.size()));
    for (const Vec2 v : shape.vertices) put(bytes, v.x), put(bytes, v.y);
  }
  return bytes;
}

std::vector<std::pair<int, Shape>> shapes_of_bytes(const std::vector<char>& bytes) {
  std::vector<std::pair<int, Shape>> shapes;
  Taking in(bytes);
  while (!in.done()) {
    const int id = in.take<std::int32_t>();
    Shape s;
    s.name = in.take_string(in.take<std::uint32_t>());
    s.kind = static_cast<SkeletonKind>(in.take<std::int32_t>());
    s.radius = in.take<double>();
    s.vertices.resize(in.take<std::uint32_t>());
    for (Vec2& v : s.vertices) v.x = in.take<double>(), v.y = in.take<double>();
    shapes.emplace_back(id, std::move(s));
  }
  return shapes;
}

}  // namespace

void agree_on_shapes(const Ranks& ranks, const World& local, ShapeTable& table) {
  // Each shape the table lacks once, with the lowest id of a local body of
  // it.
  std::vector<std::pair<int, Shape>> found;
  std::unordered_map<std::string, std::size_t> listed;
  for (std::size_t i = 0; i < local.size(); ++i) {
    Shape shape = body_shape(local, i);
    if (table.find(shape) >= 0) continue;
    const auto [at, is_new] = listed.try_emplace(shape_key(shape), found.size());
    if (is_new) found.emplace_back(local.id[i], std::move(shape));
    else found[at->second].first = std::min(found[at->second].first, local.id[i]);
  }
  std::vector<std::pair<int, Shape>> shapes = shapes_of_bytes(ranks.all_gather(shape_bytes(found)));
  // A shape several bodies (on several ranks) have comes in at its lowest id.
  std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [id, shape] : shapes) table.row_of(std::move(shape));
}

void share_root_shapes(const Ranks& ranks, ShapeTable& table) {
  std::vector<std::pair<int, Shape>> rows;
  for (std::size_t k = 0; ranks.root() && k < table.size(); ++k)
    rows.emplace_back(static_cast<int>(k), table.rows()[k].shape);
  const std::vector<char> bytes = shape_bytes(rows);
  const std::string shared = ranks.broadcast(std::string(bytes.begin(), bytes.end()), 0);
  if (ranks.root()) return;
  table = ShapeTable();
  for (auto& [row, shape] : shapes_of_bytes(std::vector<char>(shared.begin(), shared.end())))
    table.row_of(std::move(shape));
}

}  // namespace sphero
