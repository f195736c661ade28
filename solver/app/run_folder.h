// A run's output folder: what may be written there (a new run into an
// empty folder or with --overwrite, a restart into the folder its
// checkpoint came from, --from into a folder of its own), and the command
// that continues a run stopped early.
#pragma once

#include <filesystem>
#include <string>

#include "app/run_options.h"

namespace sphero::app {

// Refuses, naming the folder and what to do, an output that is no folder,
// one that holds files (without --overwrite, whose earlier run's files it
// then clears) or another run than a restart's, or (for --from) the folder
// of the checkpoint's own run; then creates the folder.
void prepare_output_directory(const std::filesystem::path& out, const RunOptions& options);

// The command that continues an interrupted run: the same scene and keys,
// into the same output directory, from its checkpoint.
std::string continue_command(const RunOptions& options, const std::filesystem::path& out,
                             const std::filesystem::path& checkpoint);

}  // namespace sphero::app
