#include "io/wall_motions.h"

#include <fmt/format.h>

#include <cctype>
#include <stdexcept>

#include "engine/wall_vibration.h"
#include "io/wall_labels.h"

namespace sphero {
namespace {

double path_length(const std::vector<Vec2>& points, bool closed) {
  double length = 0.0;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) length += norm(points[k + 1] - points[k]);
  if (closed && points.size() > 2) length += norm(points.front() - points.back());
  return length;
}

}  // namespace

std::vector<WallView> wall_views(std::vector<BodySpec>& bodies) {
  std::vector<WallView> views;
  for (BodySpec& b : bodies)
    views.push_back({b.is_wall, b.shape.name, path_length(b.shape.vertices, b.shape.is_closed()), &b.constraint,
                     static_cast<int>(views.size())});
  return views;
}

std::vector<WallView> wall_views(World& world) {
  std::vector<WallView> views;
  for (std::size_t i = 0; i < world.size(); ++i)
    views.push_back({world.is_wall[i] != 0, world.shape_name[i],
                     world.is_wall[i] ? path_length(local_skeleton(world, i), world.closed[i] != 0) : 0.0,
                     &world.constraint[i], world.id[i]});
  return views;
}

WallMotions::WallMotions(std::vector<WallView> bodies) : bodies_(std::move(bodies)) {
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].is_wall && !is_unnamed_wall(bodies_[i].name))
      wall_names_ += (wall_names_.empty() ? "" : ", ") + bodies_[i].name;
    if (!bodies_[i].is_wall || (i > 0 && bodies_[i - 1].is_wall && bodies_[i - 1].number + 1 == bodies_[i].number))
      continue;
    std::size_t last = i;
    while (last + 1 < bodies_.size() && bodies_[last + 1].is_wall &&
           bodies_[last + 1].number == bodies_[last].number + 1)
      ++last;
    const int first_number = bodies_[i].number, last_number = bodies_[last].number;
    wall_numbers_ += (wall_numbers_.empty() ? "" : ", ") +
                     (last == i ? fmt::format("{}", first_number) : fmt::format("{} to {}", first_number, last_number));
  }
}

std::size_t WallMotions::need_wall(const std::string& reference, const SceneLocation& at,
                                   const std::string& key) const {
  if (std::isdigit(static_cast<unsigned char>(reference.front()))) {
    const std::size_t number = std::stoul(reference);
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].is_wall && static_cast<std::size_t>(bodies_[i].number) == number) return i;
    fail_at(at, key,
            fmt::format("body {} is not a wall; the walls are {} (numbered as in energy.csv){}", number,
                        wall_numbers_.empty() ? "none" : wall_numbers_, named_ones()));
  }
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].is_wall && bodies_[i].name == reference) return i;
  fail_at(at, key,
          fmt::format("no wall is named '{}'; the walls are {} (numbered as in energy.csv){}", reference,
                      wall_numbers_.empty() ? "none" : wall_numbers_, named_ones()));
}

void WallMotions::apply(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key) {
  set_motion(wall, m, at, key);
  if (!m.amplitude) return;
  BodyConstraint& c = *bodies_[wall].constraint;
  c.vibration = {*m.amplitude, m.frequency, m.tap_interval, {c.imposed_velocity[dof_x], c.imposed_velocity[dof_y]}};
  try {
    check_vibration(c);
  } catch (const std::invalid_argument& e) {
    fail_at(at, key, e.what());
  }
}

void WallMotions::set_motion(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key) {
  BodyConstraint& c = *bodies_[wall].constraint;
  if (!m.pressure) {
    c = BodyConstraint{};
    c.held = {true, true, true};
    if (m.velocity) c.imposed_velocity = {m.velocity->x, m.velocity->y, 0.0};
    return;
  }
  try {
    const double sliding = m.velocity ? (m.inward.x != 0.0 ? m.velocity->y : m.velocity->x) : 0.0;
    c = pressure_plate(*m.pressure, bodies_[wall].length, m.inward, sliding);
  } catch (const std::invalid_argument& e) {
    fail_at(at, key, e.what());
  }
  if (!m.span) return;
  for (int k = 0; k < 2; ++k) {
    const std::size_t end = need_wall((*m.span)[static_cast<std::size_t>(k)], at, key);
    if (end == wall)
      fail_at(
          at, key, fmt::format("span={},{}: a plate's span is between two other walls", (*m.span)[0], (*m.span)[1]));
    c.span_bodies[static_cast<std::size_t>(k)] = static_cast<int>(end);
  }
}

}  // namespace sphero
