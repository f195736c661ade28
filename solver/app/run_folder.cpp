#include "app/run_folder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <system_error>
#include <vector>

#include "app/analysis_files.h"
#include "io/run_manifest.h"
#include "io/scene.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;

// What an earlier run left in a directory we may overwrite: its frames,
// collections, manifest, energy log, checkpoints, the tables `sphero
// analyze` derived from it (stale after a new run) and any temporary files
// of a killed write. Nothing else is touched (figures included).
void clear_run_files(const fs::path& directory) {
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    if (name.rfind(kFolderLockName, 0) == 0) continue;  // the claim, and others' being made
    const bool ours = ext == ".vtu" || ext == ".pvtu" || ext == ".pvd" || ext == ".ckpt" || name == "energy.csv" ||
                      name == "run.sphero" || is_analysis_file(name) ||
                      (name.rfind(".", 0) == 0 && name.find(".tmp") != std::string::npos);
    if (ours && entry.is_regular_file()) fs::remove(entry.path());
  }
}

// How a refusal names a folder's run and a checkpoint's.
std::string runs_named(const fs::path& out, const RunIdentity& checkpoint_run) {
  const RunIdentity folder = run_in_folder(out);
  if (!folder.known()) return "";
  return fmt::format(
      ", run {} (its run.sphero) against run {} (the checkpoint's)", folder.text(), checkpoint_run.text());
}

// What --output names must be a folder or nothing yet: a file, a link to
// nothing and a loop of links are named as such before anything is read
// or written there.
void refuse_an_output_that_is_no_folder(const fs::path& out) {
  const std::string name = out.string();
  std::error_code error;
  const fs::file_status entry = fs::symlink_status(out, error);
  const auto looped = [&] { return error == std::make_error_code(std::errc::too_many_symbolic_link_levels); };
  if (!looped() && entry.type() == fs::file_type::not_found) return;  // created below
  if (error && !looped())
    throw SceneError(fmt::format("the output directory '{}' cannot be examined: {}", name, error.message()));
  // A link to itself shows its loop only when followed.
  const fs::file_status target = looped() ? entry : fs::status(out, error);
  if (looped())
    throw SceneError(
        fmt::format("the output directory '{}' leads through a loop of symbolic links; give another "
                    "folder with --output DIR",
                    name));
  if (fs::is_symlink(entry) && !fs::exists(target))
    throw SceneError(
        fmt::format("the output directory '{}' is a symbolic link to '{}', which does not exist: create "
                    "that folder, or give another with --output DIR",
                    name, fs::read_symlink(out, error).string()));
  if (!fs::is_directory(target))
    throw SceneError(
        fmt::format("the output directory '{}' is a file, not a folder: give a folder's name with --output "
                    "DIR (--overwrite replaces a run's files in a folder, never a file)",
                    name));
}

// A run continuing a checkpoint with --from writes into a folder of its
// own: never into the run the checkpoint came from.
void refuse_the_checkpoints_folder(const RunOptions& options, const fs::path& out, const RunIdentity& parent) {
  if (options.from.empty() || !options.restart.empty()) return;
  const FolderRun held = folder_run_for(out, options.from, parent);
  if (held == FolderRun::the_checkpoints)
    throw SceneError(fmt::format(
        "--from {}: the output directory '{}' is the run the checkpoint came from; a run continued with --from "
        "writes into a folder of its own (--output DIR)",
        options.from, out.string()));
  // It may be that run: never replaced by its child.
  if (held == FolderRun::cannot_be_told)
    throw SceneError(fmt::format(
        "--from {}: the output directory '{}' may be the run the checkpoint came from, and its run.sphero cannot "
        "be read ({}); a run continued with --from writes into a folder of its own (--output DIR)",
        options.from, out.string(), *manifest_damage(out)));
}

// A restart into a folder whose run cannot be told: refused unless the
// user replaces that run.
void refuse_a_folder_of_an_unknown_run(const RunOptions& options, const fs::path& out) {
  if (options.overwrite) return;
  throw SceneError(fmt::format(
      "the output directory '{}' holds a run whose run.sphero cannot be read ({}), so whether '{}' continues it "
      "cannot be told: mend run.sphero, branch the checkpoint into a new folder with --output DIR, or pass "
      "--overwrite to replace that run",
      out.string(), *manifest_damage(out), options.restart));
}

// A word as the shell reads it back.
std::string shell_word(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@") ==
          std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted.append("'\\''");  // close, an escaped quote, reopen
    else quoted.push_back(c);
  }
  quoted.push_back('\'');
  return quoted;
}

// Whether the folder holds anything but locks (this command's, and those
// other claimants are making as they find it taken).
bool holds_files(const fs::path& out) {
  for (const auto& entry : fs::directory_iterator(out))
    if (entry.path().filename().string().rfind(kFolderLockName, 0) != 0) return true;
  return false;
}

FolderLock claim_output(const fs::path& out, const RunOptions& options,
                        const std::function<void(const std::string&)>& notice, const std::string& command) {
  std::error_code cannot;
  fs::create_directories(out, cannot);
  if (cannot)
    throw SceneError(fmt::format("the output directory '{}' cannot be created: {}", out.string(), cannot.message()));
  try {
    return FolderLock::claim(out, command, options.take_over, notice);
  } catch (const FolderBusy& e) {
    throw SceneError(e.what());
  }
}

}  // namespace

FolderLock prepare_output_directory(const fs::path& out, const RunOptions& options,
                                    const std::function<void(const std::string&)>& notice, const std::string& command,
                                    const RunIdentity& checkpoint_run) {
  refuse_the_checkpoints_folder(options, out, checkpoint_run);
  refuse_an_output_that_is_no_folder(out);
  FolderLock claim = claim_output(out, options, notice, command);
  const bool holds_a_run = fs::exists(out / "energy.csv") || fs::exists(out / "run.sphero");
  const FolderRun held =
      options.restart.empty() ? FolderRun::another : folder_run_for(out, options.restart, checkpoint_run);
  if (!options.restart.empty() && held == FolderRun::cannot_be_told) refuse_a_folder_of_an_unknown_run(options, out);
  if (!options.restart.empty() && holds_a_run && held != FolderRun::the_checkpoints) {
    // Continuing here would splice the checkpoint's run into another one.
    if (!options.overwrite)
      throw SceneError(
          fmt::format("the output directory '{}' holds another run than the one that wrote '{}'{}: a "
                      "checkpoint continues only its own run; branch it into a new folder with --output DIR, "
                      "or pass --overwrite to replace that run",
                      out.string(), options.restart, runs_named(out, checkpoint_run)));
    clear_run_files(out);
  }
  if (options.restart.empty() && holds_files(out)) {
    if (!options.overwrite)
      throw SceneError(
          fmt::format("the output directory '{}' already holds files; choose another with --output DIR "
                      "or pass --overwrite",
                      out.string()));
    clear_run_files(out);
  }
  return claim;
}

FolderLock claim_folder(const fs::path& folder, const std::string& command, bool take_over) {
  try {
    return FolderLock::claim(
        folder, command, take_over, [&](const std::string& notice) { fmt::print(stderr, "{}: {}\n", command, notice); },
        true);
  } catch (const FolderBusy& e) {
    throw SceneError(e.what());
  }
}

std::string continue_command(const RunOptions& options, const fs::path& out, const fs::path& checkpoint) {
  std::vector<std::string> words{"sphero", "run"};
  if (!options.scene_file.empty()) words.push_back(shell_word(options.scene_file));
  const auto& given = options.overrides;
  for (std::size_t k = 0; k < given.size(); ++k) {
    if (given[k] == "--output") {
      ++k;  // and its value: the directory is named below
      continue;
    }
    if (given[k].rfind("--output=", 0) != 0) words.push_back(shell_word(given[k]));
  }
  if (!options.from.empty()) words.insert(words.end(), {"--from", shell_word(options.from)});
  words.insert(words.end(), {"--output", shell_word(out.string()), "--restart", shell_word(checkpoint.string())});
  return fmt::format("{}", fmt::join(words, " "));
}

}  // namespace sphero::app
