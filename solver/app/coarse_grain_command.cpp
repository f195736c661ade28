// `sphero coarse-grain RUN_DIR --width W`: the run's frames as continuum
// fields on a grid (analysis/fields/coarse_grained_fields.h), written as
// fields_NNNNN.vti with fields.pvd beside them, or their mean over the
// frames as fields_mean.vti, for ParaView.
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <deque>
#include <filesystem>
#include <future>
#include <sstream>

#include <unistd.h>

#include "analysis/fields/coarse_grained_fields.h"
#include "app/analysis_files.h"
#include "app/analysis_options.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/run_folder.h"
#include "io/collection_file.h"
#include "io/frame_reader.h"
#include "io/image_vti.h"
#include "io/run_manifest.h"
#include "text/message_text.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;
using analysis::CoarseGrainedSums;

struct Request {
  analysis::CoarseGrainingOptions fields;
  FrameRange frames;
  bool average = false;
  double time_width = 0.0;  // s; 0: each frame alone
  int threads = 1;
  fs::path output;
};

std::array<double, 4> window_numbers(const std::string& text) {
  std::array<double, 4> w{};
  std::stringstream in(text);
  std::size_t k = 0;
  for (std::string part; std::getline(in, part, ',');) {
    const auto value = parse_finite(part);
    if (!value || k >= 4) throw std::invalid_argument(fmt::format("--window: expected X0,Y0,X1,Y1, found '{}'", text));
    w[k++] = *value;
  }
  if (k != 4) throw std::invalid_argument(fmt::format("--window: expected X0,Y0,X1,Y1, found '{}'", text));
  if (!(w[2] > w[0] && w[3] > w[1])) throw std::invalid_argument("--window: expected X0 < X1 and Y0 < Y1");
  return w;
}

double positive(const po::variables_map& vm, const char* option) {
  const double v = vm[option].as<double>();
  if (!(std::isfinite(v) && v > 0.0))
    throw std::invalid_argument(fmt::format("--{}: expected a positive length, not {}", option, v));
  return v;
}

Request request(const po::variables_map& vm, const fs::path& run) {
  Request r;
  analysis::CoarseGrainingOptions& o = r.fields;
  o.kernel.width = positive(vm, "width");
  o.cell = vm.count("cell") ? positive(vm, "cell") : 0.5 * o.kernel.width;
  try {
    o.kernel.kind = analysis::kernel_kind_from_string(vm["kernel"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--kernel: ") + e.what());
  }
  o.kernel.gaussian_cutoff = vm["cutoff"].as<double>();
  if (!(o.kernel.gaussian_cutoff >= 1.0 && o.kernel.gaussian_cutoff <= 10.0))
    throw std::invalid_argument("--cutoff: expected 1 to 10 widths");
  if (vm.count("window")) o.window = window_numbers(vm["window"].as<std::string>());
  if (fs::exists(run / "run.sphero")) {
    const PeriodicCell cell = read_run_manifest(run / "run.sphero").cell;
    o.periodic = cell.periodic, o.cell_low = cell.low, o.cell_size = cell.size;
  }
  r.frames = frame_range(vm, frame_count(run));
  r.average = vm.count("average") > 0;
  if (vm.count("time-width")) {
    r.time_width = positive(vm, "time-width");
    if (r.average) throw std::invalid_argument("give --average or --time-width, not both");
  }
  const int threads = vm["threads"].as<int>();
  if (threads < 0 || threads > 1024) throw std::invalid_argument("--threads: expected 0 (one per core) to 1024");
  r.threads = threads > 0 ? threads : default_thread_count();
  r.output = vm.count("output") ? fs::path(vm["output"].as<std::string>()) : run;
  return r;
}

// Files an earlier coarse-graining left in the folder, which this one's
// collection would not list.
void remove_earlier_fields(const fs::path& folder) {
  for (const auto& entry : fs::directory_iterator(folder))
    if (is_fields_file(entry.path().filename().string())) fs::remove(entry.path());
}

// The new fields files gather in a hidden folder beside the old ones and
// replace them only once every frame is done: a frame that fails leaves
// the earlier coarse-graining as it was.
class FieldsFolder {
 public:
  explicit FieldsFolder(fs::path output)
      : output_(std::move(output)), staging_(output_ / fmt::format(".fields-{}", ::getpid())) {
    fs::remove_all(staging_);
    fs::create_directory(staging_);
  }
  ~FieldsFolder() {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
  FieldsFolder(const FieldsFolder&) = delete;
  FieldsFolder& operator=(const FieldsFolder&) = delete;
  void write(const std::string& name, const CoarseGrainedSums& sums) {
    write_image_vti(staging_ / name, analysis::field_image(sums));
    written_.push_back({sums.time, name});
  }
  void commit(const std::string& collection) {
    remove_earlier_fields(output_);
    for (const CollectionEntry& e : written_) fs::rename(staging_ / e.file, output_ / e.file);
    write_collection_atomically(output_ / collection, written_);
  }

 private:
  fs::path output_, staging_;
  std::vector<CollectionEntry> written_;
};

// The frames' sums, a batch at a time (one frame per thread), handed to
// `take` in frame order.
template <class Take>
void coarse_grain_frames(const fs::path& run, const Request& r, const analysis::FieldGrid& grid, Take take) {
  for (int first = r.frames.first; first <= r.frames.last; first += r.threads) {
    const int last = std::min(r.frames.last, first + r.threads - 1);
    std::vector<std::future<CoarseGrainedSums>> work;
    for (int frame = first; frame <= last; ++frame)
      work.push_back(std::async(std::launch::async, [&, frame] {
        try {
          return analysis::coarse_grain(read_frame(run, frame), grid, r.fields.kernel);
        } catch (const std::exception& e) {
          throw std::runtime_error(fmt::format("{}: frame {}: {}", run.string(), frame, e.what()));
        }
      }));
    for (int frame = first; frame <= last; ++frame) take(frame, work[static_cast<std::size_t>(frame - first)].get());
  }
}

// Each frame's fields become the Gaussian mean in time (analysis::
// time_weight) of the frames around it, as soon as the frames within the
// kernel's reach after it are in; only those frames are held.
class TimeSmoothing {
 public:
  explicit TimeSmoothing(double width) : width_(width), reach_(analysis::kTimeReach * width) {}
  template <class Emit>
  void add(int frame, CoarseGrainedSums sums, Emit emit) {
    window_.push_back({frame, std::move(sums)});
    while (next_ < window_.size() && window_.back().sums.time - window_[next_].sums.time > reach_) {
      emit(window_[next_].frame, smoothed(next_));
      ++next_;
    }
    // Frames farther than the reach before the next one to emit serve no later one.
    while (next_ > 0 && next_ < window_.size() && window_[next_].sums.time - window_.front().sums.time > reach_)
      window_.pop_front(), --next_;
  }
  template <class Emit>
  void finish(Emit emit) {
    for (; next_ < window_.size(); ++next_) emit(window_[next_].frame, smoothed(next_));
  }

 private:
  struct Held {
    int frame;
    CoarseGrainedSums sums;
  };
  CoarseGrainedSums smoothed(std::size_t centre) const {
    const double t = window_[centre].sums.time;
    double total = 0.0;
    for (const Held& h : window_) total += analysis::time_weight(h.sums.time - t, width_);
    CoarseGrainedSums mean;
    for (const Held& h : window_)
      if (const double w = analysis::time_weight(h.sums.time - t, width_); w > 0.0)
        analysis::accumulate(mean, h.sums, w / total);
    mean.time = t;
    return mean;
  }
  double width_, reach_;
  std::deque<Held> window_;
  std::size_t next_ = 0;
};

}  // namespace

int run_coarse_grain_command(const std::vector<std::string>& args) {
  std::string run_argument;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "width", po::value<double>()->required(),
      "W, the kernel's width in m: its standard deviation (about one grain diameter; see docs/ANALYSIS.md)")(
      "cell", po::value<double>(), "H, the grid's spacing in m, at most W (default W/2)")(
      "kernel", po::value<std::string>()->default_value("gaussian"), "gaussian (cut at --cutoff widths) or lucy")(
      "cutoff", po::value<double>()->default_value(3.0), "the Gaussian's cutoff in widths, 1 to 10")(
      "window", po::value<std::string>(),
      "X0,Y0,X1,Y1: the grid's extent (default: the box around the first frame's particles, grown by the kernel's "
      "reach; a periodic axis spans its period)")(
      "frames", po::value<std::string>(), "A:B, the frames to coarse-grain (default all)")(
      "average", "one field, the mean over the frames, as fields_mean.vti")(
      "time-width", po::value<double>(),
      "T in s: each frame's fields the Gaussian mean in time (width T, cut at 3T) of the frames around it")(
      "threads", po::value<int>()->default_value(0), "frames coarse-grained at once (default 0: one per core)")(
      "output,o", po::value<std::string>(), "the folder to write into (default the run's)")(
      "take-over", "write into a folder whose lock names a process of another host that has ended");
  po::variables_map vm;
  if (const auto stop = parse_command_line(args, options, run_argument, true, "coarse-grain",
                                           "usage: sphero coarse-grain RUN_DIR --width W [--cell H] [options]\n", vm))
    return *stop;
  const fs::path run(run_argument);
  const Request r = request(vm, run);
  const FrameData first = read_frame(run, r.frames.first);
  const analysis::FieldGrid grid = analysis::field_grid(first, r.fields);
  if (fs::exists(r.output) && !fs::is_directory(r.output))
    throw std::invalid_argument(fmt::format("--output: {} is a file, not a folder", r.output.string()));
  fs::create_directories(r.output);
  const FolderLock claim = claim_folder(r.output, "sphero coarse-grain", vm.count("take-over") > 0);
  FieldsFolder folder(r.output);
  const auto frame_name = [](int frame) { return fmt::format("fields_{:05d}.vti", frame); };
  std::string collection = "fields.pvd";
  if (r.average) {
    // A running sum: the frames are not kept.
    CoarseGrainedSums total;
    const double weight = 1.0 / (r.frames.last - r.frames.first + 1);
    coarse_grain_frames(run, r, grid, [&](int, const CoarseGrainedSums& s) { analysis::accumulate(total, s, weight); });
    folder.write("fields_mean.vti", total);
    collection = "fields_mean.pvd";
  } else if (r.time_width > 0.0) {
    TimeSmoothing smoothing(r.time_width);
    const auto emit = [&](int frame, const CoarseGrainedSums& s) { folder.write(frame_name(frame), s); };
    coarse_grain_frames(
        run, r, grid, [&](int frame, CoarseGrainedSums s) { smoothing.add(frame, std::move(s), emit); });
    smoothing.finish(emit);
  } else {
    coarse_grain_frames(
        run, r, grid, [&](int frame, const CoarseGrainedSums& s) { folder.write(frame_name(frame), s); });
  }
  folder.commit(collection);
  fmt::print("{}: {} × {} nodes {:g} × {:g} m apart, {} kernel of width {:g} m (reach {:g} m), frames {} to {}{}\n",
             (r.output / collection).string(), grid.nx, grid.ny, grid.hx, grid.hy,
             analysis::to_string(r.fields.kernel.kind), r.fields.kernel.width, r.fields.kernel.cutoff(), r.frames.first,
             r.frames.last,
             r.average            ? ", averaged"
             : r.time_width > 0.0 ? fmt::format(", smoothed over {:g} s", r.time_width)
                                  : "");
  return 0;
}

}  // namespace sphero::app
