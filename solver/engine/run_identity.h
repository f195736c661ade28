// A run's identity: 128 random bits given when a run begins, kept by its
// restarts and its stages, and written in its folder's run.sphero and in
// every checkpoint it writes (not in its frames or energy.csv, so that the
// data of two runs stay comparable byte for byte). A branch or a --from
// run is a run of its own, which records its parent's identity. It is how
// a checkpoint is known to belong to the run in a folder, wherever the
// file lies.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace sphero {

struct RunIdentity {
  std::array<std::uint64_t, 2> bits{};  // all zero: unknown (a file from before identities)

  bool known() const { return bits[0] != 0 || bits[1] != 0; }
  // 32 lower-case hexadecimal digits; "unknown" where it is not known.
  std::string text() const;
  // A new identity from the system's random source: never unknown.
  static RunIdentity fresh();
  // The identity `text()` gives; none for anything else.
  static std::optional<RunIdentity> parse(const std::string& text);
  bool operator==(const RunIdentity&) const = default;
};

// A run and the run it continues as a branch or a --from run (unknown for
// a run begun from a scene).
struct RunLineage {
  RunIdentity run, parent;
  bool operator==(const RunLineage&) const = default;
  // A new run's: a fresh identity, `parent` its parent's.
  static RunLineage begun(RunIdentity parent = {}) { return {RunIdentity::fresh(), parent}; }
};

}  // namespace sphero
