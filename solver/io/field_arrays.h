// The arrays of each field's file, and a scene's choice among them
// (`fields = state:velocity,angular_velocity,contacts,walls`).
//
// A field's list of fields is its file names ("state", "contacts", ...)
// followed, where the scene chose arrays, by entries "field:array" (or
// "field:all"); a field named without a choice writes its default arrays.
// Whatever the choice, a file keeps the arrays its readers cannot do
// without (a body's id, shape, placement and density; a contact's bodies).
#pragma once

#include <string>
#include <vector>

class vtkUnstructuredGrid;

namespace sphero {

// The field array in which a reader that fills blocks' arrays in for one
// another (the ParaView reader) says what a run's file really lacked.
inline constexpr const char* kMissingArraysField = "sphero_missing_arrays";

struct FieldArrays {
  std::vector<std::string> kept;        // always written
  std::vector<std::string> by_default;  // written unless the scene chooses
  std::vector<std::string> on_request;  // written only when chosen (derivable on reading)
  std::vector<std::string> analysed;    // of the defaults, those the analysis reads
};

// The arrays of `field`'s file (one of kFrameFields). "position" names the
// state's points, which are always written.
const FieldArrays& arrays_of(const std::string& field);

// Whether `entry` of a list of fields is an array choice ("field:array").
bool is_array_choice(const std::string& entry);

// The file fields of `fields`, without the array choices.
std::vector<std::string> file_fields(const std::vector<std::string>& fields);

// Parses a scene's `fields` value: comma-separated fields, each optionally
// followed by `:array` and further arrays of it up to the next field name.
// Throws std::invalid_argument naming an unknown field or array.
std::vector<std::string> parse_field_choice(const std::string& text);

// The arrays of `field`'s file that `fields` asks for: its kept ones and its
// chosen ones, or its defaults where nothing of it was chosen.
std::vector<std::string> chosen_arrays(const std::vector<std::string>& fields, const std::string& field);

// Removes from `grid` (the file of `field`) the cell arrays `fields` does
// not ask for.
void keep_chosen_arrays(vtkUnstructuredGrid* grid, const std::vector<std::string>& fields, const std::string& field);

// The arrays the analysis reads of `field` that `grid` (its file as read)
// lacks.
std::vector<std::string> missing_analysed_arrays(vtkUnstructuredGrid* grid, const std::string& field);

}  // namespace sphero
