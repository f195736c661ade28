// A run's output folder: what may be written there (a new run into an
// empty folder or with --overwrite, a restart into the folder its
// checkpoint came from, --from into a folder of its own), and the command
// that continues a run stopped early.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "app/run_options.h"
#include "engine/run_identity.h"
#include "io/folder_lock.h"

namespace sphero::app {

// Refuses, naming the folder and what to do, an output that is no folder
// or (for --from) the folder of the checkpoint's own run; creates the
// folder and claims it (io/folder_lock.h: refused where another process
// writes there; `notice` hears of a dead one's lock taken over); then
// refuses one that holds files (without --overwrite, whose earlier run's
// files it then clears) or, for a restart, another run than the
// checkpoint's. `checkpoint_run` is the run the checkpoint of --restart
// (or, without it, of --from) says it is of: a restart continues a folder
// only where its run.sphero names that run, wherever the checkpoint lies
// (a folder whose run.sphero names none: only where the checkpoint lies
// in it; io/run_manifest.h). The claim lasts as long as the lock
// returned.
FolderLock prepare_output_directory(const std::filesystem::path& out, const RunOptions& options,
                                    const std::function<void(const std::string&)>& notice,
                                    const std::string& command = "sphero run", const RunIdentity& checkpoint_run = {});

// Claims an existing folder that `command` writes into (a run's, for
// `sphero analyze`'s tables or `sphero coarse-grain`'s fields), saying on
// stderr where a dead process's lock is taken over; throws SceneError
// naming the holder where another process writes there (this process's
// own output, Python's, it shares).
FolderLock claim_folder(const std::filesystem::path& folder, const std::string& command, bool take_over);

// The command that continues an interrupted run: the same scene and keys,
// into the same output directory, from its checkpoint.
std::string continue_command(const RunOptions& options, const std::filesystem::path& out,
                             const std::filesystem::path& checkpoint);

}  // namespace sphero::app
