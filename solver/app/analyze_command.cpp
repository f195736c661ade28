// `sphero analyze RUN_DIR [options]`: per-frame granular quantities of a run
// into RUN_DIR/analysis.csv, with the distributions (coordination.csv,
// roses.csv, ke_histogram.csv), the chains of each frame (chains_NNNNN.csv)
// and, with --add-fields, per-particle results written back into the frames.
// `sphero analyze PACKING.vtu`: a packing or state file's packing fraction,
// void ratio, local packing and coordination.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/energy/energy_statistics.h"
#include "analysis/frame_analysis.h"
#include "analysis/statistics/scaled_histogram.h"
#include "app/analysis_files.h"
#include "app/analysis_options.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/run_folder.h"
#include "io/atomic_file.h"
#include "io/frame_reader.h"
#include "io/packing_frame.h"
#include "io/state_vtu.h"
#include "packing/touching_pairs.h"
#include "text/csv_row.h"

namespace sphero::app {
namespace {

// energy.csv's rows by time: (translational, rotational, first-law residual).
std::map<double, std::array<double, 3>> energy_rows(const std::filesystem::path& run) {
  std::map<double, std::array<double, 3>> rows;
  const EnergyTable table = read_energy_table(run);
  if (table.rows.empty()) return rows;
  const std::size_t time = table.column("time_s"), translational = table.column("kinetic_translational_J"),
                    rotational = table.column("kinetic_rotational_J"), residual = table.column("first_law_residual_J");
  for (const auto& row : table.rows) rows[row[time]] = {row[translational], row[rotational], row[residual]};
  return rows;
}

std::string chains_csv(const FrameData& data, const analysis::FrameSummary& s) {
  std::string csv =
      "# force chains after Peters et al. (2005); particles by body id, end to end\n"
      "chain,particles,length_m,mean_major_stress_N_per_m,orientation_deg,ids\n";
  for (std::size_t k = 0; k < s.chains.chains.size(); ++k) {
    const auto& c = s.chains.chains[k];
    std::string ids;
    for (int p : c.particles) {
      if (!ids.empty()) ids += ' ';
      ids += std::to_string(data.particles[static_cast<std::size_t>(p)].id);
    }
    csv += fmt::format("{},{},{},{},{},{}\n", k, c.particles.size(), c.length, c.mean_stress,
                       analysis::axis_degrees(c.orientation), ids);
  }
  return csv;
}

// Per particle of the frame: the fields --add-fields writes back.
std::vector<ParticleField> particle_fields(const FrameData& data, const analysis::FrameSummary& s, bool exclude_walls) {
  ParticleField local{"local_packing_fraction", 1, s.local_packing_fraction};
  ParticleField chain{"chain_id", 1, {}}, p{"pressure", 1, {}}, q{"deviator_stress", 1, {}},
      major{"major_stress_direction", 3, {}};
  for (std::size_t i = 0; i < data.particles.size(); ++i) {
    const Stress sigma = analysis::particle_stress(data.particles[i], exclude_walls);
    chain.values.push_back(s.chains.chain_of[i]);
    p.values.push_back(sigma.pressure());
    q.values.push_back(sigma.deviator());
    const Vec2 d = sigma.major_direction();
    major.values.insert(major.values.end(), {d.x, d.y, 0.0});
  }
  return {local, chain, p, q, major};
}

// The tables of an analysis, filled frame by frame.
class AnalysisTables {
 public:
  explicit AnalysisTables(const analysis::AnalysisOptions& o) : o_(o) {
    coordination_ = "# fraction of the window's particles with z contacts\nframe,time_s,z,fraction\n";
    roses_ = fmt::format(
        "# orientation distributions over {} bins of the contact-normal axis angle (contacts between particles):\n"
        "# normal_density: probability density per radian (1/pi when isotropic); mean_normal_force_N: of the bin's "
        "contacts\nframe,time_s,theta_deg,normal_density_per_rad,mean_normal_force_N\n",
        o.rose_bins);
  }

  void add(int frame, const analysis::FrameSummary& s, const std::map<double, std::array<double, 3>>& energies,
           bool first) {
    if (first)
      for (const auto& w : s.walls)
        columns_ += fmt::format(",wall{0}_face{1}_sigma_n,wall{0}_face{1}_tau", w.wall, w.face);
    all_exact_ = all_exact_ && s.packing_exact;
    const auto row = energies.find(s.time);
    const double ratio = row != energies.end() && row->second[0] > 0.0 ? row->second[1] / row->second[0] : NAN;
    const double residual = row != energies.end() ? row->second[2] : NAN;
    rows_ += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", frame, s.time,
                         s.stress.xx, s.stress.yy, 0.5 * (s.stress.xy + s.stress.yx), s.pressure, s.deviator,
                         s.packing_fraction, s.void_ratio, o_.local_packing ? s.mean_local_packing_fraction : NAN,
                         s.width, s.height, s.coordination, s.particles, s.rattlers, s.chains.chains.size(),
                         s.chains.fraction_in_chains, s.chains.mean_orientation_degrees, s.fabric_xx, s.fabric_yy,
                         s.fabric_xy, s.anisotropy, ratio, residual);
    for (const auto& w : s.walls) rows_ += fmt::format(",{},{}", w.normal_stress, w.shear_stress);
    rows_ += "\n";
    for (std::size_t z = 0; z < s.coordination_distribution.size(); ++z)
      coordination_ += fmt::format("{},{},{},{}\n", frame, s.time, z, s.coordination_distribution[z]);
    for (const analysis::ShapeGroup& g : s.shapes)
      shapes_ += fmt::format("{},{},{},{},{},{},{}\n", frame, s.time, csv_field(g.shape), g.grains, g.area,
                             g.mean_centre.x, g.mean_centre.y);
    for (std::size_t k = 0; k < s.normal_density.size(); ++k)
      roses_ += fmt::format("{},{},{},{},{}\n", frame, s.time, (static_cast<double>(k) + 0.5) * 180.0 / o_.rose_bins,
                            s.normal_density[k], s.mean_normal_force[k]);
  }

  void write(const std::filesystem::path& dir) const {
    std::string header =
        "# stresses in N/m (2D), compression positive: Love-Weber over the particles whose centre is in the window "
        "(wall contacts {});\n"
        "# p = (s1 + s2)/2, q = (s1 - s2)/2; packing fraction and void ratio: {}; local "
        "packing fraction: set-Voronoi cells, mean over the window's particles;\n"
        "# width, height: box around the particles (m); wallW_faceK: stress on face K of wall W (normal, "
        "compression positive, and shear along the face), force over the covered length\n";
    header = fmt::format(fmt::runtime(header), o_.exclude_walls ? "excluded" : "included",
                         all_exact_ ? "the exact area of each particle's part inside the window"
                                    : "the exact areas of the particles whose centre is in the window");
    write_text_atomically(dir / kAnalysisTable, header + columns_ + "\n" + rows_);
    write_text_atomically(dir / kCoordinationTable, coordination_);
    write_text_atomically(dir / kRosesTable, roses_);
    write_text_atomically(dir / kShapesTable, shapes_);
  }

 private:
  const analysis::AnalysisOptions& o_;
  std::string columns_ =
      "frame,time_s,sigma_xx,sigma_yy,sigma_xy,p,q,packing_fraction,void_ratio,mean_local_packing_fraction,width_m,"
      "height_m,coordination,particles,rattlers,chains,fraction_in_chains,chain_orientation_deg,fabric_xx,fabric_yy,"
      "fabric_xy,fabric_anisotropy,rotational_over_translational,first_law_residual_J";
  std::string rows_, coordination_, roses_;
  std::string shapes_ =
      "# the grains of each shape whose centre is in the window: count, area (m2) and the mean of their centres (m)\n"
      "frame,time_s,shape,grains,area_m2,mean_x_m,mean_y_m\n";
  bool all_exact_ = true;
};

// A histogram as CSV after its header: the bin centre, the density and,
// when given, a prediction per bin.
void write_histogram_table(const std::filesystem::path& file, std::string table, double bin_width,
                           const std::vector<double>& density, const std::vector<double>& predicted) {
  for (std::size_t b = 0; b < density.size(); ++b) {
    table += fmt::format("{},{}", (static_cast<double>(b) + 0.5) * bin_width, density[b]);
    table += predicted.empty() ? "\n" : fmt::format(",{}\n", predicted[b]);
  }
  write_text_atomically(file, table);
}

// The per-particle kinetic energies of the analysed frames, as a histogram
// of ε = E / ⟨E⟩ against Maxwell–Boltzmann.
void write_kinetic_energy_histogram(const std::filesystem::path& dir, const std::vector<std::vector<double>>& kinetic,
                                    int bins) {
  const analysis::EnergyHistogram h = analysis::kinetic_energy_histogram(kinetic, bins, 5.0);
  write_histogram_table(
      dir / kKineticEnergyHistogram,
      fmt::format("# per-particle kinetic energy over the analysed frames, eps = E / <E> of each frame "
                  "({} samples);\n# maxwell_boltzmann: (3/2)^(3/2) eps^(1/2) exp(-3 eps / 2) / "
                  "Gamma(3/2), three quadratic degrees of freedom\neps,density,maxwell_boltzmann\n",
                  h.samples),
      h.bin_width, h.density, h.predicted);
}

struct AnalysedFrame {
  analysis::FrameSummary summary;
  std::vector<double> kinetic_energies;
  std::vector<double> contact_normal_forces;  // of the vertex contacts between two grains
};

// The normal forces of the frame's vertex contacts between grains (walls
// left out: their contacts say more about the box than the sample).
std::vector<double> grain_contact_normal_forces(const FrameData& data) {
  std::set<int> grains;
  for (const ParticleRecord& p : data.particles) grains.insert(p.id);
  std::vector<double> forces;
  for (const VertexContactRecord& c : data.vertex_contacts)
    if (grains.count(c.vertex_body) && grains.count(c.edge_body)) forces.push_back(c.normal_force);
  return forces;
}

// P(f/⟨f⟩) of the vertex contacts' normal forces over the analysed frames.
void write_force_distribution(const std::filesystem::path& dir, const std::vector<std::vector<double>>& forces,
                              int bins) {
  const analysis::ScaledHistogram h = analysis::scaled_histogram(forces, bins, 5.0);
  write_histogram_table(dir / kForceDistribution,
                        fmt::format("# normal forces of the vertex contacts between grains (contact_points_NNNNN.vtu), "
                                    "f / <f> of each frame ({} contacts);\n# density: normalised over all contacts, "
                                    "those beyond the last bin included\nf_over_mean,density\n",
                                    h.samples),
                        h.bin_width, h.density, {});
}

// One frame of a run: read, analysed, its chains written (and its fields
// added to its particles file).
AnalysedFrame analyse_frame_files(const std::filesystem::path& dir, int frame, const analysis::AnalysisOptions& o,
                                  bool add_fields) {
  const FrameData data = read_frame(dir, frame);
  AnalysedFrame a{analysis::analyze_frame(data, o), {}, grain_contact_normal_forces(data)};
  for (const ParticleRecord& p : data.particles) a.kinetic_energies.push_back(p.kinetic_energy);
  write_text_atomically(dir / chains_file(frame), chains_csv(data, a.summary));
  if (add_fields) add_particle_fields(dir, frame, particle_fields(data, a.summary, o.exclude_walls));
  return a;
}

// A packing or state file: packing fraction, void ratio, local packing and
// coordination, with contacts where the outlines touch (within `gap`); no
// stresses, chains or fabric, which need contact forces and normals.
int analyze_packing(const std::string& file, analysis::AnalysisOptions o, double gap_fraction) {
  const std::vector<BodySpec> bodies = read_state_vtu(file);
  FrameData frame = packing_frame(bodies, kPackingArcResolution);
  if (frame.particles.empty()) throw std::invalid_argument(file + ": holds walls but no grains to analyse");
  double sizes = 0.0;
  for (const ParticleRecord& p : frame.particles) sizes += std::sqrt(p.area);
  const double gap = gap_fraction * sizes / static_cast<double>(frame.particles.size());
  std::map<int, int> contacts;  // body id -> touching neighbours (walls count)
  for (const auto& [i, j] : touching_pairs(bodies, gap)) ++contacts[i], ++contacts[j];
  for (ParticleRecord& p : frame.particles) p.coordination = contacts.count(p.id) ? contacts[p.id] : 0;
  const analysis::FrameSummary s = analysis::analyze_frame(frame, o);
  std::string grains = "id,area_m2,local_packing_fraction,coordination\n";
  for (std::size_t k = 0; k < frame.particles.size(); ++k)
    grains += fmt::format("{},{},{},{}\n", frame.particles[k].id, frame.particles[k].area,
                          o.local_packing ? s.local_packing_fraction[k] : NAN, frame.particles[k].coordination);
  const std::string table = std::filesystem::path(file).replace_extension().string() + "-grains.csv";
  write_text_atomically(table, grains);
  fmt::print(
      "sphero analyze: {} ({} grains in the window, {} walls)\n  packing fraction {:.6f}, void ratio {:.6f}{}\n"
      "  coordination {:.4f} ({} rattlers with fewer than 2 contacts; outlines within {:.3g} m count as "
      "touching)\n  per grain: {}\n",
      file, s.particles, frame.walls.size(), s.packing_fraction, s.void_ratio,
      o.local_packing ? fmt::format(", mean local packing fraction {:.6f}", s.mean_local_packing_fraction) : "",
      s.coordination, s.rattlers, gap, table);
  return 0;
}

}  // namespace

int run_analyze_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string run;
  po::options_description options("options");
  options.add_options()("help,h", "show this help");
  add_analysis_options(options);
  options.add_options()("no-local-packing", "skip the set-Voronoi tessellation (local packing fraction)")(
      "add-fields",
      "write per-particle local_packing_fraction, chain_id, pressure, deviator_stress and "
      "major_stress_direction into each analysed particles_NNNNN.vtu")(
      "histogram-bins", po::value<int>()->default_value(100),
      "bins of the kinetic-energy and contact-force histograms over [0, 5)")(
      "threads", po::value<int>()->default_value(0), "frames analysed at once (default 0: one per core)")(
      "touch-gap", po::value<double>()->default_value(1e-6),
      "a packing file: outlines closer than this fraction of the mean grain size count as touching")(
      "take-over", "write into a run folder whose lock names a process of another host that has ended");
  po::variables_map vm;
  if (const auto stop = parse_command_line(
          args, options, run, true, "analyze", "usage: sphero analyze RUN_DIR|PACKING.vtu [options]\n", vm))
    return *stop;
  analysis::AnalysisOptions o = analysis_options(vm);
  o.local_packing = !vm.count("no-local-packing");
  if (names_a_packing_file(run)) {
    const double gap = vm["touch-gap"].as<double>();
    if (!(gap >= 0.0 && gap < 1.0)) throw std::invalid_argument("--touch-gap: expected a fraction in [0, 1)");
    return analyze_packing(run, o, gap);
  }
  const bool add_fields = vm.count("add-fields") > 0;
  if (add_fields && !o.local_packing)
    throw std::invalid_argument("--add-fields writes the local packing fraction; drop --no-local-packing");
  if (vm["threads"].as<int>() < 0 || vm["threads"].as<int>() > 1024)
    throw std::invalid_argument("--threads: expected 0 (one per core) to 1024");
  const int bins = vm["histogram-bins"].as<int>();
  if (bins < 1 || bins > 100000) throw std::invalid_argument("--histogram-bins: expected 1 to 100000");
  const FrameRange frames = frame_range(vm, frame_count(run));
  const std::filesystem::path dir(run);
  // The tables go into the run's folder: not while another process writes there.
  const FolderLock claim = claim_folder(dir, "sphero analyze", vm.count("take-over") > 0);
  AnalysisTables tables(o);
  const auto energies = energy_rows(dir);
  std::vector<std::vector<double>> kinetic, contact_forces;
  bool contact_points = false;
  const int threads = vm["threads"].as<int>() > 0 ? vm["threads"].as<int>() : default_thread_count();
  // Frames are independent: a batch of them at once, one per thread, then
  // their rows in frame order.
  for (int first = frames.first; first <= frames.last; first += threads) {
    const int last = std::min(frames.last, first + threads - 1);
    std::vector<AnalysedFrame> batch(static_cast<std::size_t>(last - first + 1));
    std::vector<std::future<void>> work;
    for (int frame = first; frame <= last; ++frame)
      work.push_back(std::async(std::launch::async, [&, frame] {
        batch[static_cast<std::size_t>(frame - first)] = analyse_frame_files(dir, frame, o, add_fields);
      }));
    for (auto& w : work) w.get();  // in order, so the first frame's error is the one reported
    for (int frame = first; frame <= last; ++frame) {
      AnalysedFrame& a = batch[static_cast<std::size_t>(frame - first)];
      tables.add(frame, a.summary, energies, frame == frames.first);
      kinetic.push_back(std::move(a.kinetic_energies));
      contact_points = contact_points || !a.contact_normal_forces.empty();
      contact_forces.push_back(std::move(a.contact_normal_forces));
    }
  }
  tables.write(dir);
  write_kinetic_energy_histogram(dir, kinetic, bins);
  if (contact_points) write_force_distribution(dir, contact_forces, bins);
  fmt::print("sphero analyze: frames {} to {} of {} -> {}, {}, {}, {}, {}{}, chains_NNNNN.csv{}\n", frames.first,
             frames.last, run, kAnalysisTable, kCoordinationTable, kRosesTable, kShapesTable, kKineticEnergyHistogram,
             contact_points ? fmt::format(", {}", kForceDistribution) : "",
             add_fields ? "; fields added to particles_NNNNN.vtu" : "");
  return 0;
}

}  // namespace sphero::app
