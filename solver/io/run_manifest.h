// run.sphero, the manifest of a run's folder (docs/FILE-FORMATS.md): its
// format, the arc resolution its outlines are drawn at, the fields each
// frame holds, its shape table, for a periodic run its cell, and the run's
// identity. ParaView's run reader opens it; the analysis reads the cell
// from it; a restart reads whose run the folder holds.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/run_identity.h"
#include "engine/world.h"

namespace sphero {

inline constexpr int kRunManifestFormat = 6;

struct RunManifest {
  int format = kRunManifestFormat;
  int arc_resolution = 24;
  std::vector<std::string> fields;
  PeriodicCell cell;  // no periodic axis before format 3
  // The run's shape table (io/shape_table.h), which its state frames name
  // their shapes in; none before format 4, whose frames drew their outlines.
  std::string shapes;
  // The run's identity and its parent's (unknown before format 5).
  RunLineage lineage;
};

std::string run_manifest_text(const RunManifest& manifest);
// Throws std::runtime_error naming the file and the line of a value that
// is not what the format allows.
RunManifest read_run_manifest(const std::filesystem::path& file);

// The run a folder's run.sphero names; unknown where it names none (a run
// from before identities) or cannot be read (then not a run Sphero can
// continue: the manifest's reader says why where the run is read).
RunIdentity run_in_folder(const std::filesystem::path& folder);

// Whose run `folder` holds, for the checkpoint `checkpoint` of the run
// `checkpoint_run`: the checkpoint's where the folder's run.sphero names
// it, wherever the checkpoint lies; where it names none (a folder from
// before runs had identities, or one that lost its manifest), where the
// checkpoint lies in the folder; a run that cannot be told where
// run.sphero cannot be read.
enum class FolderRun { the_checkpoints, another, cannot_be_told };
FolderRun folder_run_for(const std::filesystem::path& folder, const std::filesystem::path& checkpoint,
                         const RunIdentity& checkpoint_run);
bool folder_holds_run_of(const std::filesystem::path& folder, const std::filesystem::path& checkpoint,
                         const RunIdentity& checkpoint_run);
// Why the folder's run.sphero cannot be read (the reader's message), or
// nothing where it reads or is absent.
std::optional<std::string> manifest_damage(const std::filesystem::path& folder);

}  // namespace sphero
