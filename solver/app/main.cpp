// `sphero COMMAND ...`: dispatches to one file per subcommand.
#include <fmt/format.h>

#include <malloc.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/data_directory.h"
#include "app/vtk_messages.h"
#include "parallel/ranks.h"
#include "text/message_text.h"

namespace {

constexpr const char* kUsage =
    "usage: sphero COMMAND [ARGS...]\n"
    "\n"
    "commands:\n"
    "  run [SCENE.ini]             simulate a scene (default: the built-in hopper of cows)\n"
    "  pack voronoi|gas|lattice    make a packing file (Voronoi-Minkowski, random gas, lattice)\n"
    "  pack compress|deposit       compact a packing: four pressure plates, or gravity into a box\n"
    "  analyze RUN_DIR             stress, packing, coordination, fabric, force chains per frame (CSV)\n"
    "  coarse-grain RUN_DIR --width W\n"
    "                              density, velocity, stress and fabric fields on a grid (VTI, for ParaView)\n"
    "  figure RUN_DIR [--plot P]   force network, packing map, rose, stress-strain, energy… (PNG, SVG, PDF)\n"
    "  bench                       Cundall numbers of the standard scenes (JSON lines or CSV)\n"
    "  plot TABLE.csv --x C --y C  an x-y chart of a table's columns (log axes, a curve per group)\n"
    "  shape info FILE...          mass properties of shape files (table)\n"
    "  shape outline FILE... -o OUT.vtu\n"
    "                              rounded outlines as polygons, for ParaView\n"
    "\n"
    "`sphero COMMAND --help` tells more.\n";

// The rigid model's programs allocate and free vectors and factors of
// hundreds of kilobytes to tens of megabytes every step: glibc would map
// each afresh and hand it back, and every page would fault in again. Kept
// in the heap, they are reused.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory();
  // Under mpirun: MPI for the program's life. Every rank meets the same
  // errors (they come from the same input), and rank 0 alone reports them.
  const sphero::MpiRuntime mpi(argc, argv);
  const sphero::Ranks ranks;
  if (!ranks.root()) std::freopen("/dev/null", "w", stderr);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (ranks.size() > 1 && (args.empty() || args[0] != "run")) {
    fmt::print(stderr, "sphero: only `sphero run` runs on several ranks; run `sphero {}` without mpirun\n",
               args.empty() ? "" : args[0]);
    return 2;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  sphero::app::silence_vtk_messages();
  try {
    if (args[0] == "--version") {
      fmt::print("sphero {}\ndata: {}\n", SPHERO_VERSION, sphero::app::data_directory().string());
      return 0;
    }
    if (args[0] == "shape") return sphero::app::run_shape_command(rest);
    if (args[0] == "run") return sphero::app::run_run_command(rest);
    if (args[0] == "pack") return sphero::app::run_pack_command(rest);
    if (args[0] == "figure") return sphero::app::run_figure_command(rest);
    if (args[0] == "plot") return sphero::app::run_plot_command(rest);
    if (args[0] == "analyze") return sphero::app::run_analyze_command(rest);
    if (args[0] == "coarse-grain") return sphero::app::run_coarse_grain_command(rest);
    if (args[0] == "bench") return sphero::app::run_bench_command(rest);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr,
               "sphero: out of memory: the input asks for more than this machine has (a count, a size or a "
               "resolution too large?)\n");
    return 1;
  } catch (const std::exception& e) {
    // Messages quote user text: keep them one printable line of reason.
    fmt::print(stderr, "sphero: {}\n", sphero::fit_for_message(e.what(), 2000));
    return 1;
  }
  fmt::print(stderr, "sphero: unknown command '{}'\n\n{}", args[0], kUsage);
  return 2;
}
