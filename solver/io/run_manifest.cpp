#include "io/run_manifest.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "text/message_text.h"

namespace sphero {
namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  return parts;
}

std::string periodic_text(const PeriodicCell& cell) {
  if (cell.periodic[0] && cell.periodic[1]) return "x,y";
  if (cell.periodic[0]) return "x";
  if (cell.periodic[1]) return "y";
  return "none";
}

}  // namespace

std::string run_manifest_text(const RunManifest& m) {
  std::string text = fmt::format(
      "# Sphero run: open this file in ParaView (Sphero plugin) to see the run as one time-aware source\n"
      "format = {}\narc_resolution = {}\nfields = {}\nperiodic = {}\n",
      m.format, m.arc_resolution, joined(m.fields), periodic_text(m.cell));
  if (!m.shapes.empty()) text += fmt::format("shapes = {}\n", m.shapes);
  if (m.lineage.run.known()) text += fmt::format("run = {}\n", m.lineage.run.text());
  if (m.lineage.parent.known()) text += fmt::format("parent = {}\n", m.lineage.parent.text());
  if (m.cell.periodic[0] || m.cell.periodic[1])
    text += fmt::format(
        "cell = {},{},{},{}\n", m.cell.low.x, m.cell.low.y, m.cell.low.x + m.cell.size.x, m.cell.low.y + m.cell.size.y);
  return text;
}

RunManifest read_run_manifest(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot be read; is this a run's folder?");
  RunManifest m;
  m.format = 1;
  int line_number = 0;
  bool has_cell = false;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const auto equals = line.find(" = ");
    const std::string key = line.substr(0, equals), value = equals == std::string::npos ? "" : line.substr(equals + 3);
    const auto refuse = [&](const std::string& what) {
      return std::runtime_error(fmt::format("{}:{}: {}; the file is damaged", file.string(), line_number, what));
    };
    const auto whole = [&](double low, double high) {
      const auto n = parse_finite(value);
      if (!n || *n != std::floor(*n) || *n < low || *n > high)
        throw refuse(fmt::format("{} must be a whole number from {} to {}, not '{}'", key, low, high, value));
      return static_cast<int>(*n);
    };
    if (key == "format") m.format = whole(1, kRunManifestFormat);
    if (key == "arc_resolution") m.arc_resolution = whole(3, 4096);
    if (key == "fields") m.fields = split(value);
    if (key == "shapes") {
      if (value.empty() || value.find('/') != std::string::npos)
        throw refuse(fmt::format("shapes must name a file beside run.sphero, not '{}'", value));
      m.shapes = value;
    }
    if (key == "run" || key == "parent") {
      const auto id = RunIdentity::parse(value);
      if (!id) throw refuse(fmt::format("{} must be a run's identity, 32 hexadecimal digits, not '{}'", key, value));
      (key == "run" ? m.lineage.run : m.lineage.parent) = *id;
    }
    if (key == "periodic") {
      if (value != "none" && value != "x" && value != "y" && value != "x,y")
        throw refuse(fmt::format("periodic must be none, x, y or x,y, not '{}'", value));
      m.cell.periodic = {value == "x" || value == "x,y", value == "y" || value == "x,y"};
    }
    if (key == "cell") {
      std::vector<double> numbers;
      for (const std::string& part : split(value)) numbers.push_back(parse_finite(part).value_or(NAN));
      if (numbers.size() != 4 || !(numbers[2] > numbers[0] && numbers[3] > numbers[1]) ||
          !std::isfinite(numbers[2] - numbers[0]) || !std::isfinite(numbers[3] - numbers[1]))
        throw refuse(fmt::format("cell must be X0,Y0,X1,Y1 with X0 < X1 and Y0 < Y1, not '{}'", value));
      m.cell.low = {numbers[0], numbers[1]}, m.cell.size = {numbers[2] - numbers[0], numbers[3] - numbers[1]};
      has_cell = true;
    }
  }
  if ((m.cell.periodic[0] || m.cell.periodic[1]) && !has_cell)
    throw std::runtime_error(file.string() + ": a periodic run without its cell; the file is damaged");
  return m;
}

RunIdentity run_in_folder(const std::filesystem::path& folder) {
  try {
    if (std::filesystem::exists(folder / "run.sphero")) return read_run_manifest(folder / "run.sphero").lineage.run;
  } catch (const std::runtime_error&) {
  }
  return {};
}

std::optional<std::string> manifest_damage(const std::filesystem::path& folder) {
  if (!std::filesystem::exists(folder / "run.sphero")) return std::nullopt;
  try {
    read_run_manifest(folder / "run.sphero");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return std::nullopt;
}

FolderRun folder_run_for(const std::filesystem::path& folder, const std::filesystem::path& checkpoint,
                         const RunIdentity& checkpoint_run) {
  if (std::filesystem::exists(folder / "run.sphero")) {
    RunIdentity held;
    try {
      held = read_run_manifest(folder / "run.sphero").lineage.run;
    } catch (const std::runtime_error&) {
      return FolderRun::cannot_be_told;
    }
    if (held.known()) return held == checkpoint_run ? FolderRun::the_checkpoints : FolderRun::another;
  }
  std::error_code unknown;
  const std::filesystem::path lies_in = checkpoint.has_parent_path() ? checkpoint.parent_path() : ".";
  return std::filesystem::equivalent(lies_in, folder, unknown) ? FolderRun::the_checkpoints : FolderRun::another;
}

bool folder_holds_run_of(const std::filesystem::path& folder, const std::filesystem::path& checkpoint,
                         const RunIdentity& checkpoint_run) {
  return folder_run_for(folder, checkpoint, checkpoint_run) == FolderRun::the_checkpoints;
}

}  // namespace sphero
