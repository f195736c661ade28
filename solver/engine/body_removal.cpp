#include "engine/body_removal.h"

#include "engine/contact_geometry.h"

namespace sphero {
namespace {

// Whether a contact touches a removed body.
bool leaves(const Contact& c, const std::vector<std::uint8_t>& removed) {
  return removed[static_cast<std::size_t>(c.vertex_body)] || removed[static_cast<std::size_t>(c.edge_body)];
}

// What the removed bodies and their contacts carry out of the books: the
// bodies' kinetic and potential energies, the contacts' stored elastic
// energy (as the ledger sums it) as work out, their dissipation as ended.
void book_removal(EngineSnapshot& state, const std::vector<std::uint8_t>& removed) {
  if (!state.books) state.books = books_of(state.ledger);
  const World& w = state.world;
  double work = 0.0;
  const auto take_out = [&](double energy) {
    state.books->external_work.add(-energy);
    work -= energy;
  };
  for (std::size_t i = 0; i < w.size(); ++i)
    if (removed[i])
      for (const double energy : {translational_energy(w, i), rotational_energy(w, i), body_potential(w, i)})
        take_out(energy);
  const bool soft = state.settings.model == Model::soft;
  for (const Contact& c : state.neighbours.contacts) {
    if (!leaves(c, removed)) continue;
    state.books->ended.damping.add(c.damping_total);
    state.books->ended.sliding.add(c.sliding_total);
    if (!soft || !c.active) continue;
    const ContactGeometry g = contact_geometry(w, packed(w, c));
    if (!g.touching) continue;
    const ContactLaw& law = w.law_between(c.vertex_body, c.edge_body);
    take_out(normal_energy_of(law, g.overlap));
    if (law.kt > 0.0) take_out(0.5 * law.kt * norm2(c.xi));
  }
  state.ledger.external_work += work;
}

// The kept contacts, their bodies and vertices numbered as after the
// removal (`new_index` per old body; `new_begin`, the kept bodies' first
// vertices then).
void renumber_contacts(std::vector<Contact>& contacts, const std::vector<std::uint8_t>& removed,
                       const std::vector<int>& new_index, const std::vector<int>& old_begin,
                       const std::vector<int>& new_begin) {
  std::size_t kept = 0;
  for (Contact& c : contacts) {
    if (leaves(c, removed)) continue;
    const auto a = static_cast<std::size_t>(c.vertex_body), b = static_cast<std::size_t>(c.edge_body);
    c.vertex_body = new_index[a], c.edge_body = new_index[b];
    c.vertex += new_begin[static_cast<std::size_t>(c.vertex_body)] - old_begin[a];
    c.feature += new_begin[static_cast<std::size_t>(c.edge_body)] - old_begin[b];
    contacts[kept++] = c;
  }
  contacts.resize(kept);
}

}  // namespace

void remove_bodies(EngineSnapshot& state, const std::vector<std::uint8_t>& removed) {
  World& w = state.world;
  if (removed.size() != w.size()) throw std::logic_error("remove_bodies: one flag per body");
  bool any = false;
  for (const std::uint8_t r : removed) any = any || r;
  if (!any) return;
  derive_orientations_and_seams(w);  // a checkpoint's world has none, and the books need its geometry
  World trial = w;                   // refused spans leave the state as it was
  const std::vector<int> new_index = remove_bodies(trial, removed);
  book_removal(state, removed);
  const std::vector<int> old_begin = w.vertex_begin;
  w = std::move(trial);
  NeighbourListState& list = state.neighbours;
  renumber_contacts(list.contacts, removed, new_index, old_begin, w.vertex_begin);
  keep_bodies(list.reference_position, new_index);
  keep_bodies(list.reference_angle, new_index);
  if (!list.wraps.empty()) keep_bodies(list.wraps, new_index);
  for (auto* history : {&state.r2, &state.r3, &state.r4})
    if (!history->empty()) keep_bodies(*history, new_index);
}

}  // namespace sphero
