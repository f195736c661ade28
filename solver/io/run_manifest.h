// run.sphero, the manifest of a run's folder (docs/FILE-FORMATS.md): its
// format, the arc resolution its outlines are drawn at, the fields each
// frame holds, its shape table and, for a periodic run, its cell. ParaView's run reader
// opens it; the analysis reads the cell from it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/world.h"

namespace sphero {

inline constexpr int kRunManifestFormat = 4;

struct RunManifest {
  int format = kRunManifestFormat;
  int arc_resolution = 24;
  std::vector<std::string> fields;
  PeriodicCell cell;  // no periodic axis before format 3
  // The run's shape table (io/shape_table.h), which its state frames name
  // their shapes in; none before format 4, whose frames drew their outlines.
  std::string shapes;
};

std::string run_manifest_text(const RunManifest& manifest);
// Throws std::runtime_error naming the file and the line of a value that
// is not what the format allows.
RunManifest read_run_manifest(const std::filesystem::path& file);

}  // namespace sphero
