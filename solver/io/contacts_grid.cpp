#include "io/contacts_grid.h"

#include <vtkDoubleArray.h>
#include <vtkPoints.h>
#include <vtkTypeInt32Array.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include "io/drawing_shift.h"
#include "io/vtu_file.h"

namespace sphero {
namespace {

// The grid's points, cells and arrays, sized once and filled line by
// line; a line's ends are points the caller numbers.
class ContactColumns {
 public:
  ContactColumns(vtkIdType lines, vtkIdType most_points, ContactExtras extras)
      : grid_(vtkSmartPointer<vtkUnstructuredGrid>::New()),
        first_("body_a", lines),
        second_("body_b", lines),
        sliding_("sliding", lines),
        count_("vertex_contacts", lines),
        force_("force_on_a", lines, 3),
        normal_("normal_force", lines),
        tangential_("tangential_force", lines),
        overlap_("overlap", lines),
        direction_("contact_normal", lines, 3),
        dt_(extras.percussion_dt) {
    points_->SetDataTypeToDouble();  // branch vectors for analysis, not rounded to float
    points_->SetNumberOfPoints(most_points);
    at_ = static_cast<vtkDoubleArray*>(points_->GetData())->GetPointer(0);
    ends_->SetNumberOfValues(2 * lines);
    if (extras.derived) magnitude_.emplace("force_magnitude", lines), branch_.emplace("branch_vector", lines, 3);
    // A rigid run's contacts act by percussions: its forces are those over
    // the step, so the step's percussions are the forces times dt.
    if (dt_ > 0.0)
      percussion_.emplace("percussion_on_a", lines, 3), normal_percussion_.emplace("normal_percussion", lines),
          tangential_percussion_.emplace("tangential_percussion", lines);
  }

  // Point `k` at `x`.
  void set_point(vtkIdType k, Vec2 x) {
    double* at = at_ + 3 * k;
    at[0] = x.x, at[1] = x.y, at[2] = 0.0;
    points_used_ = std::max(points_used_, k + 1);
  }

  // Line `k`, from point `from` to point `to`.
  void set_line(vtkIdType k, vtkIdType from, vtkIdType to, const PairRecord& p, const ForceSegment& line) {
    ends_->SetValue(2 * k, static_cast<std::int32_t>(from)), ends_->SetValue(2 * k + 1, static_cast<std::int32_t>(to));
    first_.set(k, p.body_a), second_.set(k, p.body_b);
    sliding_.set(k, line.sliding), count_.set(k, p.vertex_contacts);
    force_.set(k, {p.force.x, p.force.y, 0.0}), normal_.set(k, p.normal_force);
    tangential_.set(k, p.tangential_force), overlap_.set(k, p.overlap);
    direction_.set(k, {p.normal.x, p.normal.y, 0.0});
    if (magnitude_) magnitude_->set(k, line.magnitude), branch_->set(k, {p.branch.x, p.branch.y, 0.0});
    if (percussion_) {
      percussion_->set(k, {dt_ * p.force.x, dt_ * p.force.y, 0.0});
      normal_percussion_->set(k, dt_ * p.normal_force), tangential_percussion_->set(k, dt_ * p.tangential_force);
    }
  }

  vtkSmartPointer<vtkUnstructuredGrid> take() {
    // Fewer than reserved: VTK keeps the values when an array shrinks (it
    // reallocates only to grow); the grid tests compare every line's ends.
    points_->SetNumberOfPoints(points_used_);
    grid_->SetPoints(points_);
    set_line_cells(grid_, ends_);
    add_columns(
        grid_, {&first_, &second_, &sliding_, &count_, &force_, &normal_, &tangential_, &overlap_, &direction_});
    if (magnitude_) add_columns(grid_, {&*magnitude_, &*branch_});
    if (percussion_) add_columns(grid_, {&*percussion_, &*normal_percussion_, &*tangential_percussion_});
    return grid_;
  }

 private:
  vtkSmartPointer<vtkUnstructuredGrid> grid_;
  vtkNew<vtkPoints> points_;
  double* at_ = nullptr;
  vtkIdType points_used_ = 0;
  vtkNew<vtkTypeInt32Array> ends_;
  IntColumn first_, second_, sliding_, count_;
  DoubleColumn force_, normal_, tangential_, overlap_, direction_;
  std::optional<DoubleColumn> magnitude_, branch_, percussion_, normal_percussion_, tangential_percussion_;
  double dt_ = 0.0;
};

// The points of a frame's lines: a grain's centre once for all its lines,
// every other end (a contact point on a wall, a periodic image) a point of
// its own.
class LineEnds {
 public:
  LineEnds(const World& w, ContactColumns& columns) : w_(w), columns_(columns), point_of_(w.size(), -1) {}

  vtkIdType at(int body, Vec2 x) {
    const auto i = static_cast<std::size_t>(body);
    if (!(x == w_.position[i])) return fresh(x);
    if (point_of_[i] < 0) point_of_[i] = fresh(x);
    return point_of_[i];
  }

 private:
  vtkIdType fresh(Vec2 x) {
    columns_.set_point(next_, x);
    return next_++;
  }

  const World& w_;
  ContactColumns& columns_;
  std::vector<vtkIdType> point_of_;
  vtkIdType next_ = 0;
};

}  // namespace

ContactLine contact_line(const World& w, const ContactPair& p) {
  // A wall's centre of mass says nothing about where it is touched: draw
  // wall contacts from the grain to the mean contact point.
  // The line is in the first body's frame, which a wall's drawing shifts.
  const Vec2 shift = drawing_shift(w, static_cast<std::size_t>(p.a));
  const Vec2 touch = p.point_sum / static_cast<double>(p.contacts) + shift;
  const Vec2 xa = w.is_wall[p.a] ? touch : w.position[p.a] + shift;
  const Vec2 xb = w.is_wall[p.b] ? touch : w.position[p.b] + p.b_offset + shift;
  ContactLine out;
  PairRecord& pair = out.pair;
  pair.body_a = w.id[static_cast<std::size_t>(p.a)];
  pair.body_b = w.id[static_cast<std::size_t>(p.b)];
  pair.branch = xb - xa;
  pair.normal = p.direction_sum / std::max(norm(p.direction_sum), 1e-300);
  pair.force = p.force;
  pair.normal_force = p.normal;
  pair.tangential_force = norm(p.force - p.normal_sum);
  pair.overlap = p.overlap;
  pair.vertex_contacts = p.contacts;
  out.line = {xa, xb, norm(p.force), p.sliding};
  return out;
}

vtkSmartPointer<vtkUnstructuredGrid> contacts_grid(const std::vector<PairRecord>& pairs,
                                                   const std::vector<ForceSegment>& lines, ContactExtras extras) {
  if (lines.size() != pairs.size()) throw std::logic_error("a frame's pairs and force lines differ in number");
  const auto n = static_cast<vtkIdType>(pairs.size());
  ContactColumns columns(n, 2 * n, extras);
  for (vtkIdType k = 0; k < n; ++k) {
    const ForceSegment& line = lines[static_cast<std::size_t>(k)];
    columns.set_point(2 * k, line.a), columns.set_point(2 * k + 1, line.b);
    columns.set_line(k, 2 * k, 2 * k + 1, pairs[static_cast<std::size_t>(k)], line);
  }
  return columns.take();
}

vtkSmartPointer<vtkUnstructuredGrid> contacts_grid(const World& w, const std::vector<ContactPair>& pairs,
                                                   const FramePiece& piece, ContactExtras extras) {
  const auto written = [&](const ContactPair& p) { return piece.writes_pair(w, p.a, p.b); };
  const vtkIdType n =
      piece.written.empty() ? static_cast<vtkIdType>(pairs.size()) : std::count_if(pairs.begin(), pairs.end(), written);
  ContactColumns columns(n, 2 * n, extras);
  LineEnds ends(w, columns);
  vtkIdType k = 0;
  for (const ContactPair& p : pairs) {
    if (!written(p)) continue;
    const ContactLine line = contact_line(w, p);
    const vtkIdType from = ends.at(p.a, line.line.a), to = ends.at(p.b, line.line.b);
    columns.set_line(k++, from, to, line.pair, line.line);
  }
  return columns.take();
}

}  // namespace sphero
