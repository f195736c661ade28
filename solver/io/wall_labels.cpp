#include "io/wall_labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace sphero {

std::string wall_name_problem(std::string_view name) {
  constexpr std::size_t kLongestName = 32;
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const auto allowed = [&](char c) {
    return letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  if (name.empty() || !letter(name.front()) || !std::all_of(name.begin(), name.end(), allowed))
    return "a wall's name starts with a letter and holds letters, digits, '_' and '-' only";
  if (name.size() > kLongestName) return fmt::format("a wall's name has at most {} characters", kLongestName);
  const bool numbered = name.size() > 4 && name.substr(0, 4) == "wall" &&
                        std::all_of(name.begin() + 4, name.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  if (is_unnamed_wall(name) || numbered)
    return fmt::format("'{}' is what unnamed walls are called; choose another name", name);
  return {};
}

namespace {

std::string velocity_words(const BodyConstraint& c) {
  const auto v = c.steady_imposed_velocity();
  if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0) return "fixed";
  std::string words = fmt::format("velocity ({:g}, {:g}) m/s", v[0], v[1]);
  if (v[2] != 0.0) words += fmt::format(", turning at {:g} rad/s", v[2]);
  return words;
}

}  // namespace

std::string wall_motion_words(const World& world, std::size_t i, const std::string& span_a, const std::string& span_b) {
  const BodyConstraint& c = world.constraint[i];
  std::string words;
  if (c.inward != Vec2{}) {
    words = fmt::format("pressure {:g} N/m inward ({:g}, {:g})", c.pressure, c.inward.x, c.inward.y);
    words += c.follows_span() ? fmt::format(" over the span between {} and {}", span_a, span_b)
                              : fmt::format(", load ({:g}, {:g}) N", c.imposed_force.x, c.imposed_force.y);
    const double sliding = c.inward.x != 0.0 ? c.imposed_velocity[dof_y] : c.imposed_velocity[dof_x];
    if (sliding != 0.0) words += fmt::format(", sliding at {:g} m/s", sliding);
  } else if (!c.holds_all()) {
    words = fmt::format("free, load ({:g}, {:g}) N", c.imposed_force.x, c.imposed_force.y);
  } else {
    words = velocity_words(c);
  }
  const Vibration& v = c.vibration;
  if (v.on())
    words += v.tap_interval > 0.0 ? fmt::format(", tapped every {:g} s (amplitude ({:g}, {:g}) m, {:g} Hz)",
                                                v.tap_interval, v.amplitude.x, v.amplitude.y, v.frequency)
                                  : fmt::format(", vibrating (amplitude ({:g}, {:g}) m, {:g} Hz)", v.amplitude.x,
                                                v.amplitude.y, v.frequency);
  return words;
}

}  // namespace sphero
