#include "io/field_arrays.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace sphero {
namespace {

using Names = std::vector<std::string>;

bool contains(const Names& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string joined(const Names& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const std::map<std::string, FieldArrays>& all_arrays() {
  static const std::map<std::string, FieldArrays> arrays = {
      {"state",
       // The imposed motions are kept: a frame reused as a packing would
       // lose its walls' motions and plates silently (a whole frame holds
       // only those some body has, io/state_constraints.h).
       {{"position", "id", "shape", "material", "wall", "angle", "density", "held", "imposed_velocity", "imposed_force",
         "vibration", "plate"},
        {"velocity", "angular_velocity", "coordination_number", "stress_compression_positive", "stress_from_walls"},
        {},
        {"velocity", "angular_velocity", "coordination_number", "stress_compression_positive", "stress_from_walls"}}},
      {"contacts",
       {{"body_a", "body_b"},
        {"sliding", "vertex_contacts", "force_on_a", "normal_force", "tangential_force", "overlap", "contact_normal",
         "percussion_on_a", "normal_percussion", "tangential_percussion"},
        {"force_magnitude", "branch_vector"},
        {"sliding", "vertex_contacts", "force_on_a", "normal_force", "tangential_force", "overlap", "contact_normal"}}},
      {"walls", {{"id", "part", "grain", "force"}, {}, {}, {}}},
      {"contact_points",
       {{"vertex_body", "edge_body", "vertex", "edge", "vertex_to_vertex", "sliding", "normal", "force", "normal_force",
         "tangential_force_vector", "overlap", "edge_offset"},
        {},
        {},
        {}}},
      // Drawn outlines are for viewing, and read whole by readers of runs
      // before light frames: no choice within them.
      {"outlines",
       {{"id", "material", "coordination_number", "shape", "velocity", "angular_velocity", "kinetic_energy",
         "stress_compression_positive", "stress_from_walls", "sphero_radius", "area", "centre_of_mass"},
        {},
        {},
        {}}},
  };
  return arrays;
}

Names every_array(const FieldArrays& a) {
  Names names = a.kept;
  names.insert(names.end(), a.by_default.begin(), a.by_default.end());
  names.insert(names.end(), a.on_request.begin(), a.on_request.end());
  return names;
}

}  // namespace

const FieldArrays& arrays_of(const std::string& field) {
  const auto found = all_arrays().find(field);
  if (found == all_arrays().end()) throw std::invalid_argument("no field '" + field + "'");
  return found->second;
}

bool is_array_choice(const std::string& entry) { return entry.find(':') != std::string::npos; }

std::vector<std::string> file_fields(const std::vector<std::string>& fields) {
  Names files;
  for (const std::string& f : fields)
    if (!is_array_choice(f)) files.push_back(f);
  return files;
}

std::vector<std::string> parse_field_choice(const std::string& text) {
  Names out;
  std::string current;  // the field whose arrays follow, after "field:"
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string token = text.substr(start, comma - start);
    start = comma + 1;
    std::string array;
    if (const auto colon = token.find(':'); colon != std::string::npos) {
      array = token.substr(colon + 1);
      token = token.substr(0, colon);
      if (array.empty())
        throw std::invalid_argument(fmt::format("'{}:' names no array; name one (or all) after the colon", token));
    } else if (!current.empty() && !all_arrays().count(token) && token != "particles") {
      array = token, token = current;
    }
    if (token == "particles") token = "outlines";  // its name before light frames
    if (!all_arrays().count(token))
      throw std::invalid_argument(fmt::format(
          "unknown field '{}'; use state, contacts, walls, contact_points, outlines (a file's arrays follow its "
          "field after a colon: contacts:force_magnitude)",
          token));
    if (!contains(out, token)) out.push_back(token);
    if (array.empty()) {
      current.clear();
      continue;
    }
    current = token;
    const Names names = every_array(arrays_of(token));
    if (array != "all" && !contains(names, array))
      throw std::invalid_argument(
          fmt::format("the field {} has no array '{}'; its arrays are {} (or all)", token, array, joined(names)));
    if (!contains(out, token + ":" + array)) out.push_back(token + ":" + array);
  }
  return out;
}

std::vector<std::string> chosen_arrays(const std::vector<std::string>& fields, const std::string& field) {
  const FieldArrays& a = arrays_of(field);
  Names chosen;
  bool any = false;
  for (const std::string& f : fields)
    if (f.rfind(field + ":", 0) == 0) {
      any = true;
      const std::string array = f.substr(field.size() + 1);
      if (array == "all") return every_array(a);
      chosen.push_back(array);
    }
  Names out = a.kept;
  for (const std::string& name : any ? chosen : a.by_default)
    if (!contains(out, name)) out.push_back(name);
  return out;
}

void keep_chosen_arrays(vtkUnstructuredGrid* grid, const std::vector<std::string>& fields, const std::string& field) {
  const Names keep = chosen_arrays(fields, field);
  vtkCellData* cells = grid->GetCellData();
  for (int k = cells->GetNumberOfArrays() - 1; k >= 0; --k) {
    const char* name = cells->GetArrayName(k);
    if (name != nullptr && !contains(keep, name)) cells->RemoveArray(k);
  }
}

std::vector<std::string> missing_analysed_arrays(vtkUnstructuredGrid* grid, const std::string& field) {
  Names missing;
  for (const std::string& name : arrays_of(field).analysed)
    if (grid->GetCellData()->GetAbstractArray(name.c_str()) == nullptr) missing.push_back(name);
  return missing;
}

}  // namespace sphero
