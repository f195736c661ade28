#include "morphology/offset_curve.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <optional>
#include <utility>

#include "geometry/mitre.h"
#include "geometry/polygon.h"

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;
// A turn this small (radians) is straight: an arc of it would be
// rounding, and its end points could come out in the wrong order.
constexpr double kStraight = 1e-12;
// Shares of the skeleton's size: cuts nearer than kMerge along a piece are
// one cut; loop ends within kJoin of a start join it.
constexpr double kMerge = 1e-11, kJoin = 1e-9;
// A point of the curve is inside the region where a feature is nearer than
// r by this share of the skeleton's size: rounding moves a point of the
// curve by far less.
constexpr double kInside = 1e-13;
// Beyond these, the curve crosses itself too often for this method to be
// quick (and its cuts would take hundreds of megabytes): the exact offsets
// take over.
constexpr long kMostPairs = 30'000'000, kMostCuts = 2'000'000;
// Places of pieces in the grid's cells (a long edge across many cells
// takes many): beyond, the pairs visited would grow as the square of the
// vertices.
constexpr std::size_t kMostPlaces = 4'000'000;

struct Box {
  Vec2 low, high;
};

// A piece of the offset curve: the segment from `from` to `to`, or the arc
// of radius r about `centre` turning counter-clockwise by `sweep` from the
// angle `first` (from `from` to `to`).
struct Piece {
  Vec2 from, to;
  bool arc = false;
  Vec2 centre;
  double first = 0.0, sweep = 0.0;
  int edge = -1;  // a side's loop edge
  // Where other pieces cross it: a segment's share of its length, an arc's
  // angle from `first`; each point computed once, for both pieces.
  std::vector<std::pair<double, Vec2>> cuts;

  double length(double r) const { return arc ? r * sweep : norm(to - from); }
  Vec2 at(double where, double r) const {
    if (!arc) return from + where * (to - from);
    const double angle = first + where;
    return centre + r * Vec2{std::cos(angle), std::sin(angle)};
  }
  Box box(double r) const {
    if (arc) return {centre - Vec2{r, r}, centre + Vec2{r, r}};
    return {{std::min(from.x, to.x), std::min(from.y, to.y)}, {std::max(from.x, to.x), std::max(from.y, to.y)}};
  }
};

struct Segment {
  Vec2 a, b;
};

double distance_to_segment(Vec2 p, const Segment& s) {
  const Vec2 d = s.b - s.a;
  const double t = std::clamp(dot(p - s.a, d) / norm2(d), 0.0, 1.0);
  return norm(p - (s.a + t * d));
}

// A square grid over the skeleton's reach, each cell listing the items
// whose boxes overlap it (compressed rows: one array of members).
class Cells {
 public:
  Cells(Box extent, double size) : low_(extent.low), size_(size) {
    nx_ = std::max(1, static_cast<int>(std::ceil((extent.high.x - extent.low.x) / size)));
    ny_ = std::max(1, static_cast<int>(std::ceil((extent.high.y - extent.low.y) / size)));
  }
  std::array<int, 4> range(const Box& b) const {
    return {cell(b.low.x - low_.x, nx_), cell(b.low.y - low_.y, ny_), cell(b.high.x - low_.x, nx_),
            cell(b.high.y - low_.y, ny_)};
  }
  // False, filling nothing, where the boxes would take more than `most`
  // places in all (long edges across many cells).
  bool fill(const std::vector<Box>& boxes, std::size_t most) {
    std::size_t places = 0;
    for (const Box& b : boxes) {
      const auto [x0, y0, x1, y1] = range(b);
      places += static_cast<std::size_t>(x1 - x0 + 1) * static_cast<std::size_t>(y1 - y0 + 1);
      if (places > most) return false;
    }
    begin_.assign(static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_) + 1, 0);
    for_each_cell_of(boxes, [&](std::size_t cell, int) { ++begin_[cell + 1]; });
    for (std::size_t c = 1; c < begin_.size(); ++c) begin_[c] += begin_[c - 1];
    members_.resize(begin_.back());
    std::vector<std::size_t> next(begin_.begin(), begin_.end() - 1);
    for_each_cell_of(boxes, [&](std::size_t cell, int item) { members_[next[cell]++] = item; });
    return true;
  }
  std::size_t index(int ix, int iy) const {
    return static_cast<std::size_t>(iy) * static_cast<std::size_t>(nx_) + static_cast<std::size_t>(ix);
  }
  const int* begin(std::size_t cell) const { return members_.data() + begin_[cell]; }
  const int* end(std::size_t cell) const { return members_.data() + begin_[cell + 1]; }
  int columns() const { return nx_; }
  int rows() const { return ny_; }

 private:
  int cell(double offset, int count) const {
    return std::clamp(static_cast<int>(std::floor(offset / size_)), 0, count - 1);
  }
  template <class Visit>
  void for_each_cell_of(const std::vector<Box>& boxes, Visit&& visit) const {
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      const auto [x0, y0, x1, y1] = range(boxes[k]);
      for (int iy = y0; iy <= y1; ++iy)
        for (int ix = x0; ix <= x1; ++ix) visit(index(ix, iy), static_cast<int>(k));
    }
  }

  Vec2 low_;
  double size_;
  int nx_ = 1, ny_ = 1;
  std::vector<std::size_t> begin_;
  std::vector<int> members_;
};

// The skeleton as a closed loop run counter-clockwise (a path: out and
// back), its features (edges; a path's segments once), and the curve.
class OffsetCurve {
 public:
  OffsetCurve(std::span<const Vec2> skeleton, bool closed, double r) : r_(r) {
    loop_.assign(skeleton.begin(), skeleton.end());
    if (closed && signed_area(loop_) < 0.0) std::reverse(loop_.begin(), loop_.end());
    const std::size_t features = closed ? loop_.size() : loop_.size() - 1;
    for (std::size_t k = 0; k < features; ++k) features_.push_back({loop_[k], loop_[(k + 1) % loop_.size()]});
    if (!closed)
      for (std::size_t k = skeleton.size() - 1; k-- > 1;) loop_.push_back(skeleton[k]);
    Box b{loop_[0], loop_[0]};
    for (const Vec2 p : loop_)
      b = {{std::min(b.low.x, p.x), std::min(b.low.y, p.y)}, {std::max(b.high.x, p.x), std::max(b.high.y, p.y)}};
    extent_ = {b.low - Vec2{2 * r, 2 * r}, b.high + Vec2{2 * r, 2 * r}};
    size_ = norm(extent_.high - extent_.low);
  }

  bool make_pieces();
  bool cut();
  std::vector<BoundaryPiece> kept_pieces() const;
  double size() const { return size_; }

 private:
  bool cut_pair(int i, int j);
  void add_cut(Piece& p, double where, Vec2 point) const;
  bool near_other_feature(Vec2 point) const;
  double cell_size() const;

  double r_;
  std::vector<Vec2> loop_;
  std::vector<Segment> features_;
  std::vector<Piece> pieces_;
  Box extent_;
  double size_ = 0.0;
  std::optional<Cells> feature_cells_;
  // Per loop edge: its side ends at the next corner's mitre tip, where the
  // next side starts.
  std::vector<char> met_at_tip_;
};

// Cells about r across, or more where that would make too many of them.
double OffsetCurve::cell_size() const {
  const double most = 2.0 * std::sqrt(static_cast<double>(loop_.size())) + 1.0;
  const Vec2 span = extent_.high - extent_.low;
  return std::max({r_, span.x / most, span.y / most});
}

// The turn from edge `in` to edge `out`: positive to the left; a path's
// end turns back by π.
double turn_between(Vec2 in, Vec2 out) {
  const double c = cross(in, out), d = dot(in, out);
  return c == 0.0 && d < 0.0 ? kPi : std::atan2(c, d);
}

bool OffsetCurve::make_pieces() {
  const std::size_t m = loop_.size();
  const auto edge = [&](std::size_t k) { return loop_[(k + 1) % m] - loop_[k % m]; };
  std::vector<Vec2> normal(m), from(m), to(m);
  for (std::size_t k = 0; k < m; ++k) {
    const Vec2 d = edge(k);
    if (norm2(d) == 0.0) return false;      // a repeated vertex
    normal[k] = Vec2{d.y, -d.x} / norm(d);  // outward: right of a counter-clockwise run
    from[k] = loop_[k] + r_ * normal[k], to[k] = loop_[(k + 1) % m] + r_ * normal[k];
  }
  // At a reflex corner the two sides cross where the mitre's tip is; the
  // stretches beyond it lie inside, nearer the other edge than r by a
  // margin that vanishes with the turn, so they end there, where that
  // does not take more than half of either edge.
  met_at_tip_.assign(m, 0);
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t next = (k + 1) % m;
    const double turn = turn_between(edge(k), edge(next));
    if (turn >= -kStraight || turn <= -0.5 * kPi) continue;
    const double reach = r_ * std::tan(-0.5 * turn);
    if (reach >= 0.5 * std::min(norm(edge(k)), norm(edge(next)))) continue;
    to[k] = from[next] = mitre_tip(loop_[next], normal[k], normal[next], r_);
    met_at_tip_[k] = 1;
  }
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t next = (k + 1) % m;
    Piece side;
    side.edge = static_cast<int>(k);
    side.from = from[k], side.to = to[k];
    pieces_.push_back(side);
    const double turn = turn_between(edge(k), edge(next));
    if (turn <= kStraight) continue;  // reflex or straight: the sides meet where they cross
    Piece corner;
    corner.arc = true, corner.centre = loop_[next];
    corner.from = to[k], corner.to = from[next];
    corner.first = std::atan2(normal[k].y, normal[k].x), corner.sweep = turn;
    pieces_.push_back(corner);
  }
  return true;
}

void OffsetCurve::add_cut(Piece& p, double where, Vec2 point) const { p.cuts.emplace_back(where, point); }

namespace crossing {

constexpr double kSlack = 1e-12;

// Where along segment piece p (share of its length) a point of its line
// falls, if on it.
std::optional<double> on_segment(double t) {
  if (t < -kSlack || t > 1.0 + kSlack) return std::nullopt;
  return std::clamp(t, 0.0, 1.0);
}

// The angle from an arc's start at which `point` (on its circle) lies, if
// on the arc.
std::optional<double> on_arc(const Piece& arc, Vec2 point) {
  double angle = std::atan2(point.y - arc.centre.y, point.x - arc.centre.x) - arc.first;
  while (angle < 0.0) angle += 2.0 * kPi;
  while (angle >= 2.0 * kPi) angle -= 2.0 * kPi;
  if (angle > 2.0 * kPi - kSlack) angle = 0.0;
  if (angle > arc.sweep + kSlack) return std::nullopt;
  return std::min(angle, arc.sweep);
}

}  // namespace crossing

// Cuts pieces i and j where they cross; false where two segments run
// along each other (the curve is degenerate there).
bool OffsetCurve::cut_pair(int i, int j) {
  Piece &p = pieces_[static_cast<std::size_t>(i)], &q = pieces_[static_cast<std::size_t>(j)];
  if (!p.arc && !q.arc) {
    const Vec2 d1 = p.to - p.from, d2 = q.to - q.from, w = q.from - p.from;
    const double den = cross(d1, d2);
    if (std::abs(den) <= 1e-14 * norm(d1) * norm(d2)) {
      // Parallel: along each other only where on one line and overlapping.
      if (std::abs(cross(w, d1)) > kMerge * size_ * norm(d1)) return true;
      const double length = norm2(d1), t0 = dot(w, d1) / length, t1 = dot(q.to - p.from, d1) / length;
      const double overlap = std::min(1.0, std::max(t0, t1)) - std::max(0.0, std::min(t0, t1));
      return overlap * norm(d1) <= kMerge * size_;
    }
    const auto t = crossing::on_segment(cross(w, d2) / den), u = crossing::on_segment(cross(w, d1) / den);
    if (!t || !u) return true;
    const Vec2 point = p.from + *t * d1;
    add_cut(p, *t, point), add_cut(q, *u, point);
    return true;
  }
  if (p.arc && q.arc) {
    const Vec2 between = q.centre - p.centre;
    const double apart = norm(between);
    if (apart == 0.0) return false;  // one corner twice
    if (apart > 2.0 * r_) return true;
    const Vec2 along = between / apart, across{-along.y, along.x};
    const double height = std::sqrt(std::max(0.0, r_ * r_ - 0.25 * apart * apart));
    for (const double side : {-1.0, 1.0}) {
      const Vec2 point = p.centre + 0.5 * apart * along + side * height * across;
      const auto a = crossing::on_arc(p, point), b = crossing::on_arc(q, point);
      if (a && b) add_cut(p, *a, point), add_cut(q, *b, point);
      if (height == 0.0) break;
    }
    return true;
  }
  Piece &line = p.arc ? q : p, &arc = p.arc ? p : q;
  const Vec2 d = line.to - line.from, f = line.from - arc.centre;
  const double a = norm2(d), b = 2.0 * dot(d, f), c = norm2(f) - r_ * r_;
  const double discriminant = b * b - 4.0 * a * c;
  if (discriminant < 0.0) return true;
  const double root = std::sqrt(discriminant);
  for (const double t_raw : {(-b - root) / (2.0 * a), (-b + root) / (2.0 * a)}) {
    const auto t = crossing::on_segment(t_raw);
    if (!t) continue;
    const Vec2 point = line.from + *t * d;
    if (const auto angle = crossing::on_arc(arc, point)) add_cut(line, *t, point), add_cut(arc, *angle, point);
    if (root == 0.0) break;
  }
  return true;
}

bool OffsetCurve::cut() {
  const std::size_t count = pieces_.size();
  std::vector<Box> boxes;
  boxes.reserve(count);
  for (const Piece& p : pieces_) boxes.push_back(p.box(r_));
  const double size = cell_size();
  Cells cells(extent_, size);
  if (!cells.fill(boxes, kMostPlaces)) return false;
  // Pieces next to each other only touch where one ends and the other
  // starts: tangentially where one is an arc, at a mitre's tip otherwise.
  const auto touching_neighbours = [&](std::size_t i, std::size_t j) {
    const bool next = j == i + 1 || (i == 0 && j == count - 1);
    if (!next) return false;
    const std::size_t before = j == i + 1 ? i : j;
    return pieces_[i].arc || pieces_[j].arc || met_at_tip_[static_cast<std::size_t>(pieces_[before].edge)];
  };
  long pairs = 0, cuts = 0;
  for (int iy = 0; iy < cells.rows(); ++iy)
    for (int ix = 0; ix < cells.columns(); ++ix) {
      const std::size_t cell = cells.index(ix, iy);
      for (const int* a = cells.begin(cell); a != cells.end(cell); ++a)
        for (const int* b = a + 1; b != cells.end(cell); ++b) {
          if (++pairs > kMostPairs) return false;  // pairs visited, in every cell they share
          const auto i = static_cast<std::size_t>(std::min(*a, *b)), j = static_cast<std::size_t>(std::max(*a, *b));
          // Each pair once: in the first cell both boxes cover.
          const auto ri = cells.range(boxes[i]), rj = cells.range(boxes[j]);
          if (ix != std::max(ri[0], rj[0]) || iy != std::max(ri[1], rj[1])) continue;
          if (ri[2] < rj[0] || rj[2] < ri[0] || ri[3] < rj[1] || rj[3] < ri[1]) continue;
          if (touching_neighbours(i, j)) continue;
          const std::size_t before = pieces_[i].cuts.size();
          if (!cut_pair(static_cast<int>(i), static_cast<int>(j))) return false;
          cuts += static_cast<long>(pieces_[i].cuts.size() - before);
          if (cuts > kMostCuts) return false;
        }
    }
  std::vector<Box> feature_boxes;
  for (const Segment& s : features_)
    feature_boxes.push_back(
        {{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)}});
  feature_cells_.emplace(extent_, size);
  return feature_cells_->fill(feature_boxes, kMostPlaces);
}

// Whether a feature lies nearer to `point` than r (by more than rounding):
// a point of the curve that is, lies inside the region.
bool OffsetCurve::near_other_feature(Vec2 point) const {
  const double inside = r_ - kInside * size_;
  const auto [x0, y0, x1, y1] = feature_cells_->range({point - Vec2{r_, r_}, point + Vec2{r_, r_}});
  for (int iy = y0; iy <= y1; ++iy)
    for (int ix = x0; ix <= x1; ++ix) {
      const std::size_t cell = feature_cells_->index(ix, iy);
      for (const int* f = feature_cells_->begin(cell); f != feature_cells_->end(cell); ++f)
        if (distance_to_segment(point, features_[static_cast<std::size_t>(*f)]) < inside) return true;
    }
  return false;
}

// Each piece cut where others cross it (cuts closer than kMerge merged),
// and the stretches between cuts that no feature is nearer than r.
std::vector<BoundaryPiece> OffsetCurve::kept_pieces() const {
  std::vector<BoundaryPiece> kept;
  const double merge = kMerge * size_;
  for (const Piece& p : pieces_) {
    std::vector<std::pair<double, Vec2>> cuts = p.cuts;
    std::sort(cuts.begin(), cuts.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const double scale = p.arc ? r_ : norm(p.to - p.from), end = p.arc ? p.sweep : 1.0;
    std::vector<std::pair<double, Vec2>> stops{{0.0, p.from}};
    for (const auto& c : cuts)
      if ((c.first - stops.back().first) * scale > merge && (end - c.first) * scale > merge) stops.push_back(c);
    stops.emplace_back(end, p.to);
    for (std::size_t k = 0; k + 1 < stops.size(); ++k) {
      const double middle = 0.5 * (stops[k].first + stops[k + 1].first);
      if (near_other_feature(p.at(middle, r_))) continue;
      const Vec2 from = stops[k].second, to = stops[k + 1].second;
      kept.push_back(p.arc ? BoundaryPiece::arc(from, to, p.centre, r_, true) : BoundaryPiece::segment(from, to));
    }
  }
  return kept;
}

// The kept pieces chained end to start into closed loops; nullopt where an
// end finds no start within kJoin of the skeleton's size.
std::optional<std::vector<BoundaryLoop>> chain(std::vector<BoundaryPiece> pieces, double size) {
  const double join = kJoin * size;
  std::vector<std::size_t> by_x(pieces.size());
  for (std::size_t k = 0; k < by_x.size(); ++k) by_x[k] = k;
  std::sort(
      by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return pieces[a].start.x < pieces[b].start.x; });
  std::vector<double> xs;
  for (const std::size_t k : by_x) xs.push_back(pieces[k].start.x);
  std::vector<std::size_t> next(pieces.size());
  std::vector<char> taken(pieces.size(), 0);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const Vec2 end = pieces[k].end;
    std::size_t best = pieces.size();
    double best_distance = join;
    for (auto at = std::lower_bound(xs.begin(), xs.end(), end.x - join); at != xs.end() && *at <= end.x + join; ++at) {
      const std::size_t candidate = by_x[static_cast<std::size_t>(at - xs.begin())];
      const double distance = norm(pieces[candidate].start - end);
      if (!taken[candidate] && distance <= best_distance) best = candidate, best_distance = distance;
    }
    if (best == pieces.size()) return std::nullopt;
    next[k] = best, taken[best] = 1;
  }
  std::vector<BoundaryLoop> loops;
  std::vector<char> used(pieces.size(), 0);
  for (std::size_t first = 0; first < pieces.size(); ++first) {
    if (used[first]) continue;
    BoundaryLoop loop;
    for (std::size_t k = first; !used[k]; k = next[k]) {
      used[k] = 1;
      loop.push_back(pieces[k]);
    }
    // Closed exactly: each piece starts where the one before ends.
    for (std::size_t k = 0; k < loop.size(); ++k) loop[(k + 1) % loop.size()].start = loop[k].end;
    loops.push_back(std::move(loop));
  }
  return loops;
}

}  // namespace

std::optional<std::vector<Region>> offset_curve_region(std::span<const Vec2> skeleton, bool closed, double r) {
  if (!(r > 0.0) || skeleton.size() < (closed ? 3u : 2u)) return std::nullopt;
  if (closed && first_self_intersection(skeleton).first >= 0) return std::nullopt;
  OffsetCurve curve(skeleton, closed, r);
  if (!curve.make_pieces() || !curve.cut()) return std::nullopt;
  const auto loops = chain(curve.kept_pieces(), curve.size());
  if (!loops) return std::nullopt;
  Region region;
  int outer = 0;
  for (const BoundaryLoop& loop : *loops) {
    if (integrate(loop).area > 0.0) region.outer = loop, ++outer;
    else region.holes.push_back(loop);
  }
  // The region of a connected skeleton is connected: one outer loop.
  if (outer != 1) return std::nullopt;
  return std::vector<Region>{std::move(region)};
}

}  // namespace sphero
