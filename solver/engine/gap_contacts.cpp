#include "engine/gap_contacts.h"

#include "engine/contact_geometry.h"

namespace sphero {

bool gap_contact_of(const WorldView& w, const Candidate& c, int index, double gap, GapContact& out) {
  // contact_geometry with the reach widened by the gap: a "touching" pair
  // is one whose outlines come within the gap, with its overlap less the gap.
  Candidate widened = c;
  widened.reach = c.reach + gap;
  const ContactGeometry g = contact_geometry(w, widened);
  if (!g.touching) return false;
  const double distance = widened.reach - g.overlap;
  out.candidate = index;
  out.vertex_body = c.vertex_body;
  out.edge_body = c.edge_body;
  out.edge_offset = c.edge_offset;
  out.normal = g.normal;
  out.gap = distance - c.reach;
  out.reach = c.reach;
  const double vertex_radius = w.radius[c.vertex_body], edge_radius = w.radius[c.edge_body];
  out.point = 0.5 * ((g.vertex_point + vertex_radius * g.normal) + (g.edge_point - edge_radius * g.normal));
  return true;
}

std::vector<GapContact> gap_contacts(const World& world, const NeighbourList& list, double gap) {
  const WorldView view(world);
  std::vector<GapContact> out;
  const std::vector<Candidate>& candidates = list.candidates();
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const Candidate& c = candidates[k];
    if (world.is_wall[static_cast<std::size_t>(c.vertex_body)] && world.is_wall[static_cast<std::size_t>(c.edge_body)])
      continue;
    GapContact contact;
    if (gap_contact_of(view, c, static_cast<int>(k), gap, contact)) out.push_back(contact);
  }
  return out;
}

}  // namespace sphero
