// libFuzzer target: any bytes as a run's run.sphero, read as the readers
// and a restart read it (its format, fields, cell and the run's identity),
// and as the folder a checkpoint of a known run would continue.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "io/run_manifest.h"
#include "scratch_folder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path run = scratch_folder("manifest");
  std::ofstream(run / "run.sphero", std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    const sphero::RunManifest manifest = sphero::read_run_manifest(run / "run.sphero");
    (void)sphero::run_manifest_text(manifest);
  } catch (const std::exception&) {
  }
  const sphero::RunIdentity held = sphero::run_in_folder(run);
  (void)held.text();
  (void)sphero::folder_holds_run_of(run, run / "final.ckpt", sphero::RunIdentity::fresh());
  return 0;
}
