// A part of a world: the bodies of one rank's subdomain with their
// neighbours (solver/parallel), as a world of its own whose bodies keep
// their relative order, so that every sum the engine adds in body or
// candidate order runs over them in the whole world's order.
#pragma once

#include <vector>

#include "engine/contact.h"
#include "engine/world.h"

namespace sphero {

// The bodies listed (increasing indices of `whole`) as a world of their
// own: body k of the result is body bodies[k] of `whole`. Materials, laws,
// fields and the cell are shared; span_bodies are renumbered (−1 where the
// body named is not kept).
World world_subset(const World& whole, const std::vector<int>& bodies);

// Renumbers contact records between the two worlds: `local_of` maps a body
// of `from` to its index in `to` (−1 where absent). Records with a body not
// in `to` are dropped; vertex and feature indices follow their bodies.
std::vector<Contact> renumber_contacts(const std::vector<Contact>& contacts, const World& from, const World& to,
                                       const std::vector<int>& local_of);

}  // namespace sphero
