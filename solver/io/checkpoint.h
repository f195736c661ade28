// Checkpoints: the engine's whole state in one binary file, so that a run of
// 2T equals a run of T plus a restart for T, bit for bit (tangential
// springs, neighbour lists and the energy ledger included), whole or in
// parts (one per rank of a run on ranks). Written atomically. Native byte order and layout: a checkpoint is for
// restarting on the same kind of machine, not for archiving.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <vector>

#include "engine/engine.h"

namespace sphero {

struct BodyRecord;
struct CandidateStream;
struct StatePart;

// Any unreadable, truncated or foreign checkpoint.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write_checkpoint(std::ostream& out, const EngineSnapshot& snapshot);
EngineSnapshot read_checkpoint(std::istream& in, const std::string& source_name);

void save_checkpoint(const std::filesystem::path& path, const EngineSnapshot& snapshot);
// Reads a checkpoint of either kind (a checkpoint in parts put together).
EngineSnapshot load_checkpoint(const std::filesystem::path& path);

// A checkpoint in parts, as a run on ranks writes it without putting the
// whole state anywhere: `header` (parallel/state_parts.h), then part k's
// bytes (checkpoint_part_bytes of that part) as part_bytes(k) gives them,
// in turn. The same state in the same parts gives the same bytes.
std::vector<char> checkpoint_part_bytes(const StatePart& part);
// The same bytes from a part's `bodies` bodies given one at a time (each
// call of each_body passes every body, in order, to its argument; it is
// called twice), so that a rank need not hold its records and their bytes
// at once.
using PartBodies = std::function<void(const std::function<void(const BodyRecord&)>&)>;
std::vector<char> checkpoint_part_bytes(std::size_t bodies, const PartBodies& each_body,
                                        const CandidateStream& candidates);
void write_checkpoint_in_parts(std::ostream& out, const EngineSnapshot& header, int parts,
                               const std::function<std::vector<char>(int)>& part_bytes);
void save_checkpoint_in_parts(const std::filesystem::path& path, const EngineSnapshot& header, int parts,
                              const std::function<std::vector<char>(int)>& part_bytes);

}  // namespace sphero
