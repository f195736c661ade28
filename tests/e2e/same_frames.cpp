// same_frames [--last] RUN_A RUN_B: every frame of two runs (or with
// --last, the last of each), read back as the analysis reads them
// (io/frame_reader.h, whole .vtu or pieces in a .pvtu), is the same record
// for record and bit for bit. Prints the first difference and exits 1, or
// the count of frames compared.
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "io/frame_reader.h"

namespace {

std::string bits(double x) { return fmt::format("{:a}", x); }
std::string bits(sphero::Vec2 v) { return bits(v.x) + "," + bits(v.y); }

// Every record of a frame, one line each, numbers in hexadecimal.
std::vector<std::string> lines_of(const sphero::FrameData& f) {
  std::vector<std::string> out{"time " + bits(f.time)};
  for (std::size_t k = 0; k < f.particles.size(); ++k) {
    const sphero::ParticleRecord& p = f.particles[k];
    std::string line =
        fmt::format("particle {} {} {} {} {} {} {} {}", p.id, bits(p.centre), bits(p.area), p.coordination,
                    bits(p.kinetic_energy), bits(p.radius), p.shape, f.outlines[k].size());
    for (double s : p.stress) line += " " + bits(s);
    for (double s : p.wall_stress) line += " " + bits(s);
    for (sphero::Vec2 q : f.outlines[k]) line += " " + bits(q);
    out.push_back(line);
  }
  for (const sphero::PlacedShape& s : f.exact_shapes) {
    std::string line =
        "exact " + s.shape.name + " " + bits(s.position) + " " + bits(s.angle) + " " + bits(s.shape.radius);
    for (sphero::Vec2 v : s.shape.vertices) line += " " + bits(v);
    out.push_back(line);
  }
  for (std::size_t k = 0; k < f.pairs.size(); ++k) {
    const sphero::PairRecord& p = f.pairs[k];
    const sphero::ForceSegment& s = f.forces[k];
    out.push_back(fmt::format("pair {} {} {} {} {} {} {} {} {} {}", p.body_a, p.body_b, bits(p.branch), bits(p.normal),
                              bits(p.force), bits(p.normal_force), bits(s.a), bits(s.b), bits(s.magnitude), s.sliding));
  }
  for (const sphero::WallRecord& w : f.walls) {
    std::string line = fmt::format("wall {} {}", w.id, bits(w.force));
    for (sphero::Vec2 q : w.skeleton) line += " " + bits(q);
    out.push_back(line);
    for (const sphero::WallContact& c : w.contacts)
      out.push_back(fmt::format("wall {} touch {} {} {}", w.id, c.grain, bits(c.point), bits(c.force)));
  }
  for (const auto& outline : f.wall_outlines) {
    std::string line = "wall outline";
    for (sphero::Vec2 q : outline) line += " " + bits(q);
    out.push_back(line);
  }
  for (const sphero::VertexContactRecord& c : f.vertex_contacts)
    out.push_back(fmt::format("contact {} {} {} {} {} {} {} {} {} {} {} {}", c.vertex_body, c.edge_body, c.vertex,
                              c.edge, c.vertex_to_vertex, c.sliding, bits(c.point), bits(c.normal), bits(c.force),
                              bits(c.normal_force), bits(c.overlap), bits(c.edge_offset)));
  return out;
}

// The first difference between frame `fa` of run a and frame `fb` of run b, or "".
std::string difference(const char* a, int fa, const char* b, int fb) {
  const auto la = lines_of(sphero::read_frame(a, fa)), lb = lines_of(sphero::read_frame(b, fb));
  for (std::size_t k = 0; k < std::max(la.size(), lb.size()); ++k) {
    const std::string x = k < la.size() ? la[k] : "(none)", y = k < lb.size() ? lb[k] : "(none)";
    if (x != y) return fmt::format("frame {}, record {}:\n  {}: {}\n  {}: {}\n", fa, k, a, x, b, y);
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  const bool last = argc == 4 && std::string(argv[1]) == "--last";
  if (argc != 3 && !last) {
    std::fprintf(stderr, "usage: same_frames [--last] RUN_A RUN_B\n");
    return 2;
  }
  const char *a = argv[argc - 2], *b = argv[argc - 1];
  try {
    const int frames_a = sphero::frame_count(a), frames_b = sphero::frame_count(b);
    if (last) {
      const std::string d = difference(a, frames_a - 1, b, frames_b - 1);
      fmt::print(
          d.empty() ? stdout : stderr, "{}", d.empty() ? "the last frames are the same, record for record\n" : d);
      return d.empty() ? 0 : 1;
    }
    if (frames_a != frames_b) {
      fmt::print(stderr, "{} has {} frames, {} has {}\n", a, frames_a, b, frames_b);
      return 1;
    }
    for (int frame = 0; frame < frames_a; ++frame) {
      const std::string d = difference(a, frame, b, frame);
      if (!d.empty()) {
        fmt::print(stderr, "{}", d);
        return 1;
      }
    }
    fmt::print("{} frames the same, record for record\n", frames_a);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "same_frames: {}\n", e.what());
    return 1;
  }
}
