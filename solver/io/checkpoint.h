// Checkpoints: the engine's whole state in one binary file, so that a run of
// 2T equals a run of T plus a restart for T, bit for bit (tangential
// springs, neighbour lists and the energy ledger included). Written
// atomically. Native byte order and layout: a checkpoint is for restarting
// on the same kind of machine, not for archiving.
#pragma once

#include <filesystem>
#include <iosfwd>

#include "engine/engine.h"

namespace sphero {

// Any unreadable, truncated or foreign checkpoint.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write_checkpoint(std::ostream& out, const EngineSnapshot& snapshot);
EngineSnapshot read_checkpoint(std::istream& in, const std::string& source_name);

void save_checkpoint(const std::filesystem::path& path, const EngineSnapshot& snapshot);
EngineSnapshot load_checkpoint(const std::filesystem::path& path);

}  // namespace sphero
