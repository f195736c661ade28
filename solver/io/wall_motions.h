// The motions a scene imposes on walls (`wall = ...`, `set_wall = ...`),
// set on the bodies of a world being laid out or of a state a stage
// continues. A wall is referred to by its name or by its body number, as
// energy.csv and the walls' frames number them (wallN).
#pragma once

#include <string>
#include <vector>

#include "engine/world.h"
#include "io/scene.h"

namespace sphero {

// A body as wall motions see it.
struct WallView {
  bool is_wall = false;
  std::string name;     // its shape's name
  double length = 0.0;  // its skeleton's, which a pressure plate's force acts on
  BodyConstraint* constraint = nullptr;
  int number = 0;  // what a scene calls it by number: its id (World::id), or its place in a list of bodies
};

std::vector<WallView> wall_views(std::vector<BodySpec>& bodies);
std::vector<WallView> wall_views(World& world);

class WallMotions {
 public:
  explicit WallMotions(std::vector<WallView> bodies);

  // The body of the wall `reference` names (WallChange::wall); throws
  // SceneError at `at` listing the walls when there is none.
  std::size_t need_wall(const std::string& reference, const SceneLocation& at, const std::string& key) const;
  // Sets wall `wall`'s motion to `m`, or throws SceneError at `at`.
  void apply(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key);

 private:
  void set_motion(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key);
  std::string named_ones() const { return wall_names_.empty() ? "" : ", named " + wall_names_; }

  std::vector<WallView> bodies_;
  std::string wall_numbers_;  // "0, 100 to 103", for messages
  std::string wall_names_;    // "left, right, bottom, top"
};

}  // namespace sphero
