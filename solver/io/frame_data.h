// One frame of a run as plain data: particles, touching pairs, walls and
// the force network, vertex contacts, every body's state — made in memory
// from the engine (io/frame_grids.h), written from there, and what the
// readers give back: the contract between what `sphero run` writes and
// what the analysis, the figures, Python and the ParaView plugin read. No
// VTK.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "geometry/vec2.h"
#include "shapes/shape.h"

namespace sphero {

struct ForceSegment {
  Vec2 a, b;  // the two ends of the contact line
  double magnitude = 0.0;
  bool sliding = false;
};

// Per particle, what the run wrote beside its outline.
struct ParticleRecord {
  int id = 0;                      // the body's id in the run (World::id)
  Vec2 centre;                     // centre of mass
  double area = 0.0;               // exact area
  std::array<double, 4> stress{};  // xx, xy, yx, yy, compression positive (Love–Weber)
  int coordination = 0;
  double kinetic_energy = 0.0;          // translational + rotational
  std::array<double, 4> wall_stress{};  // the part of `stress` due to contacts with walls
  double radius = 0.0;                  // sphero-radius (0 where the file does not say)
  std::string shape{};                  // the shape's name (empty where the file does not say)
  Vec2 velocity{};                      // of the centre of mass (0 where the file does not say)
  double angular_velocity = 0.0;
  double mass = 0.0;  // per unit thickness, from the state frame's density (0 where the frame has none)
  int material = 0;
};

// Per touching pair of bodies.
struct PairRecord {
  int body_a = 0, body_b = 0;
  Vec2 branch;                    // a's centre to b's (or to the contact point for a wall)
  Vec2 normal;                    // unit contact normal, from a towards b
  Vec2 force;                     // on a, summed over the pair's vertex contacts
  double normal_force = 0.0;      // sum of the vertex contacts' normal forces (the unclipped dashpot can make it < 0)
  double tangential_force = 0.0;  // |force less its normal part|
  double overlap = 0.0;           // the deepest of its vertex contacts'
  int vertex_contacts = 0;
};

// A wall (a body of the run's `wall` lines): its skeleton and the force the
// grains exert on it.
struct WallContact {
  Vec2 point;      // where a grain's vertex contact acts
  Vec2 force;      // on the wall
  int grain = -1;  // the grain touching (−1 where the file does not say)
};
struct WallRecord {
  int id = 0;
  std::vector<Vec2> skeleton;  // open path, world frame
  Vec2 force;                  // total, on the wall
  std::vector<WallContact> contacts;
};

// One vertex contact (contact_points_NNNNN.vtu): a vertex of one body
// against an edge (or a vertex) of another.
struct VertexContactRecord {
  int vertex_body = 0, edge_body = 0;
  int vertex = 0, edge = 0;       // along each body's skeleton: the vertex, the edge's first vertex
  bool vertex_to_vertex = false;  // the edge is a second vertex
  bool sliding = false;
  Vec2 point;                 // of application, where the vertex body is drawn
  Vec2 normal;                // unit, from the vertex towards the edge
  Vec2 force;                 // on the vertex body; the edge body gets −force
  double normal_force = 0.0;  // the force's normal part is −normal_force · normal (< 0 only by the dashpot)
  double overlap = 0.0;
  Vec2 edge_offset;  // point − edge_offset: the point in the edge body's frame (periodic images)
};

// A body's shape (skeleton in the body frame, sphero-radius) and where it is.
struct PlacedShape {
  Shape shape;
  Vec2 position;
  double angle = 0.0;
};

// A row of a run's shape table (io/shape_table.h): a shape in its body
// frame, centred on its centre of mass, with its mass properties.
struct ShapeRow {
  Shape shape;
  double area = 0.0;
  double polar_moment = 0.0;  // about the centre of mass: inertia per unit density
};

// Per body, grains and walls, what a state frame holds: enough to restart
// from as a packing (io/state_vtu.h).
struct StateRecord {
  int id = 0;
  std::string shape;           // its shape's name, or a wall's
  std::vector<Vec2> skeleton;  // world frame
  bool closed = false;         // a closed polygon (else a point, segment or polyline)
  int material = 0;
  bool wall = false;
  std::array<bool, 3> held{};  // x, y, rotation
  double radius = 0.0;         // sphero-radius
  Vec2 centre;                 // of mass
  double angle = 0.0;
  Vec2 velocity;
  double angular_velocity = 0.0;
  double density = 0.0;
  std::array<double, 3> imposed_velocity{};  // steady (a vibration's share of a step left out)
  Vec2 imposed_force;
  double imposed_torque = 0.0;
  std::array<double, 4> vibration{};  // amplitude x, y, frequency, tap interval
  double pressure = 0.0;              // a pressure plate's, with its inward direction
  Vec2 inward;
  std::array<int, 2> span{-1, -1};  // the ids of the bodies whose distance is its span
  // A light state frame (format 2) names its shape by its row in the run's
  // shape table (io/shape_table.h) and carries what the analysis needs of
  // a grain that its contacts alone do not give.
  int shape_row = -1;                     // -1: the skeleton above is all there is
  std::shared_ptr<const ShapeRow> exact;  // that row, where read from a file
  int coordination = 0;
  std::array<double, 4> stress{};       // as ParticleRecord's
  std::array<double, 4> wall_stress{};  // as ParticleRecord's
};

struct FrameData {
  double time = 0.0;
  std::vector<ParticleRecord> particles;    // parallel to outlines
  std::vector<PairRecord> pairs;            // parallel to forces
  std::vector<std::vector<Vec2>> outlines;  // one closed polygon per particle
  // Per particle, its exact shape and placement where the source holds the
  // skeletons — a packing, a state file, a run that wrote state frames —
  // else empty.
  std::vector<PlacedShape> exact_shapes;
  std::vector<WallRecord> walls;
  std::vector<std::vector<Vec2>> wall_outlines;
  std::vector<ForceSegment> forces;
  std::vector<VertexContactRecord> vertex_contacts;  // empty where the run did not write them
  std::vector<StateRecord> states;                   // empty where the run did not write the state
  // A rigid run's contacts act by percussions over its time step: dt, by
  // which the forces are the percussions' rates (0 for the soft model, and
  // in a frame read from files, whose percussion arrays hold dt × forces).
  double percussion_dt = 0.0;
  // The arrays the analysis reads that the frame's files left out, as
  // "field:array" (a run that chose its arrays: io/field_arrays.h).
  std::vector<std::string> missing_arrays;
};

}  // namespace sphero
