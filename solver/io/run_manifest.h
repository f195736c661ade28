// run.sphero, the manifest of a run's folder (docs/FILE-FORMATS.md): its
// format, the arc resolution its outlines were drawn at, the fields each
// frame holds and, for a periodic run, its cell. ParaView's run reader
// opens it; the analysis reads the cell from it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/world.h"

namespace sphero {

inline constexpr int kRunManifestFormat = 3;

struct RunManifest {
  int format = kRunManifestFormat;
  int arc_resolution = 24;
  std::vector<std::string> fields;
  PeriodicCell cell;  // no periodic axis before format 3
};

std::string run_manifest_text(const RunManifest& manifest);
// Throws std::runtime_error naming the file and the line of a value that
// is not what the format allows.
RunManifest read_run_manifest(const std::filesystem::path& file);

}  // namespace sphero
