#include "io/pvtu_file.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/run_manifest.h"
#include "io/vtu_file.h"
#include "io/vtu_preflight.h"
#include "io/vtu_writer.h"

namespace sphero {
namespace {

constexpr std::uintmax_t kMaxSummaryBytes = 64 << 20;
constexpr std::size_t kMaxPieces = 1 << 20;

// The type word of a piece's array, as the piece's file names it.
std::string type_word(int vtk_type) { return vtk_type == VTK_STRING ? "String" : vtu_type_word(vtk_type); }

std::string whole_text(const std::filesystem::path& file) {
  if (std::filesystem::is_directory(file)) throw std::runtime_error(file.string() + ": a folder, not a .pvtu file");
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  if (error) throw std::runtime_error(file.string() + ": missing");
  if (size > kMaxSummaryBytes)
    throw std::runtime_error(
        fmt::format("{}: {} bytes, more than a .pvtu of pieces needs; the file is damaged", file.string(), size));
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error(file.string() + ": cannot read");
  return text.str();
}

// A piece's name as the summary gives it: a .vtu beside the summary (or
// below it), never above it or elsewhere.
std::filesystem::path piece_path(const std::filesystem::path& pvtu, const std::string& source) {
  const std::filesystem::path name(source);
  bool climbs = false;
  for (const auto& part : name) climbs |= part == "..";
  if (source.empty() || name.is_absolute() || climbs || name.extension() != ".vtu")
    throw std::runtime_error(
        fmt::format("{}: the piece '{}' is not a .vtu beside the file; the file is damaged", pvtu.string(), source));
  const auto path = pvtu.parent_path() / name;
  if (!std::filesystem::exists(path))
    throw std::runtime_error(
        fmt::format("{}: its piece {} is missing (copy the run's directory whole)", pvtu.string(), path.string()));
  return path;
}

// Where a cell of a piece goes in the whole frame: the order a serial run
// writes. Particles and state by id; pairs and vertex contacts by their two
// bodies; walls first, then the grains' contact points on them by pair.
// Ties keep the pieces' order: a run writes each pair's records whole, in
// one piece, in the serial order.
using CellKey = std::array<long long, 3>;

class CellOrder {
 public:
  explicit CellOrder(vtkUnstructuredGrid* grid) {
    vtkCellData* d = grid->GetCellData();
    a_ = d->GetArray("body_a"), b_ = d->GetArray("body_b");
    if (!a_ || !b_) a_ = d->GetArray("vertex_body"), b_ = d->GetArray("edge_body");
    if (!a_ || !b_) a_ = b_ = nullptr;
    part_ = d->GetArray("part"), grain_ = d->GetArray("grain"), id_ = d->GetArray("id");
  }
  CellKey key(vtkIdType c) const {
    // A damaged file's numbers may be anything: outside ±2⁶² they sort last.
    const auto number = [c](vtkDataArray* a) {
      const double x = a->GetComponent(c, 0);
      return std::abs(x) < 0x1p62 ? static_cast<long long>(x) : std::numeric_limits<long long>::max();
    };
    if (a_) return pair_key(0, number(a_), number(b_));
    if (part_ && grain_ && id_) return number(part_) == 3 ? pair_key(1, number(id_), number(grain_)) : CellKey{0, 0, 0};
    if (id_) return {0, number(id_), 0};
    return {0, 0, 0};
  }

 private:
  static CellKey pair_key(long long group, long long a, long long b) { return {group, std::min(a, b), std::max(a, b)}; }
  vtkDataArray *a_ = nullptr, *b_ = nullptr, *part_ = nullptr, *grain_ = nullptr, *id_ = nullptr;
};

// What a piece says it is (absent in pieces written before pieces said
// so: their times are still held against each other).
struct PieceIdentity {
  std::optional<std::array<double, 3>> frame_index_count;
  std::optional<double> time;
  std::optional<std::string> run;
};

PieceIdentity identity_of(vtkUnstructuredGrid* piece) {
  PieceIdentity id;
  vtkDataArray* marks = piece->GetFieldData()->GetArray("sphero_piece");
  if (marks != nullptr && marks->GetNumberOfComponents() == 3 && marks->GetNumberOfTuples() == 1)
    id.frame_index_count = {marks->GetComponent(0, 0), marks->GetComponent(0, 1), marks->GetComponent(0, 2)};
  vtkDataArray* time = piece->GetFieldData()->GetArray("TimeValue");
  if (time != nullptr && time->GetNumberOfTuples() == 1) id.time = time->GetTuple1(0);
  auto* run = vtkStringArray::SafeDownCast(piece->GetFieldData()->GetAbstractArray("sphero_run"));
  if (run != nullptr && run->GetNumberOfValues() == 1) id.run = run->GetValue(0);
  return id;
}

// Refuses pieces that are not the frame's: of another frame or time, of a
// frame cut into another number of pieces, or one piece under two names.
class PieceCheck {
 public:
  PieceCheck(const std::filesystem::path& pvtu, std::size_t pieces) : pvtu_(pvtu), pieces_(pieces) {
    // The frame its name gives (state_00012.pvtu: 12), where it gives one.
    const std::string stem = pvtu.stem().string();
    const auto underscore = stem.rfind('_');
    const std::string digits = underscore == std::string::npos ? "" : stem.substr(underscore + 1);
    if (!digits.empty() && digits.size() <= 9 && digits.find_first_not_of("0123456789") == std::string::npos)
      named_frame_ = std::stod(digits);
    if (const RunIdentity run = run_in_folder(pvtu.parent_path()); run.known()) folder_run_ = run.text();
  }

  void check(vtkUnstructuredGrid* piece, const std::filesystem::path& name) {
    const PieceIdentity id = identity_of(piece);
    const std::string file = name.filename().string();
    check_run(id, file);
    if (id.time && first_time_ && *id.time != *first_time_)
      refuse(fmt::format("its piece {} is of t = {:.17g} s, its piece {} of t = {:.17g} s", file, *id.time, first_file_,
                         *first_time_));
    if (id.time && !first_time_) first_time_ = id.time, first_file_ = file;
    if (!id.frame_index_count) return;
    const auto [frame, index, count] = *id.frame_index_count;
    if (count != static_cast<double>(pieces_) || !(index >= 0 && index < count))
      refuse(fmt::format(
          "its piece {} says it is piece {:g} of {:g}, but the file names {} pieces", file, index, count, pieces_));
    if (named_frame_ && frame != *named_frame_)
      refuse(fmt::format("its piece {} is of frame {:g}, the file of frame {:g}", file, frame, *named_frame_));
    if (first_frame_ && frame != *first_frame_)
      refuse(fmt::format(
          "its piece {} is of frame {:g}, its piece {} of frame {:g}", file, frame, first_file_, *first_frame_));
    if (!first_frame_) first_frame_ = frame;
    if (const auto [at, fresh] = index_file_.emplace(index, file); !fresh)
      refuse(fmt::format("its pieces {} and {} are both piece {:g} of the frame", at->second, file, index));
  }

 private:
  // Every piece of the run whose folder it lies in, where the pieces and
  // the folder's run.sphero say which (pieces written before runs had
  // identities say none: a frame's pieces all or none).
  void check_run(const PieceIdentity& id, const std::string& file) {
    if (!id.run) {
      if (first_run_)
        refuse(fmt::format("its piece {} does not say which run it is of, its piece {} does", file, first_run_file_));
      if (silent_file_.empty()) silent_file_ = file;
      return;
    }
    if (!silent_file_.empty())
      refuse(fmt::format("its piece {} does not say which run it is of, its piece {} does", silent_file_, file));
    if (folder_run_ && *id.run != *folder_run_)
      refuse(fmt::format("its piece {} is of run {}, the folder's run.sphero of run {}", file, *id.run, *folder_run_));
    if (first_run_ && *id.run != *first_run_)
      refuse(fmt::format(
          "its piece {} is of run {}, its piece {} of run {}", file, *id.run, first_run_file_, *first_run_));
    if (!first_run_) first_run_ = id.run, first_run_file_ = file;
  }

  [[noreturn]] void refuse(const std::string& what) const {
    throw std::runtime_error(
        fmt::format("{}: {}; a piece of another frame or run? the file is damaged (copy a "
                    "run's directory whole)",
                    pvtu_.string(), what));
  }

  const std::filesystem::path& pvtu_;
  std::size_t pieces_;
  std::optional<double> first_time_, first_frame_, named_frame_;
  std::string first_file_, first_run_file_, silent_file_;
  std::optional<std::string> first_run_, folder_run_;
  std::map<double, std::string> index_file_;
};

// Checks that `piece` holds the cell arrays of `model` (the first piece).
void check_arrays(vtkUnstructuredGrid* model, vtkUnstructuredGrid* piece, const std::string& source) {
  for (int a = 0; a < model->GetCellData()->GetNumberOfArrays(); ++a) {
    vtkAbstractArray* want = model->GetCellData()->GetAbstractArray(a);
    vtkAbstractArray* have = piece->GetCellData()->GetAbstractArray(want->GetName());
    if (have == nullptr || have->GetDataType() != want->GetDataType() ||
        have->GetNumberOfComponents() != want->GetNumberOfComponents())
      throw std::runtime_error(
          fmt::format("{}: no cell array '{}' like the first piece's; the pieces do not belong "
                      "together",
                      source, want->GetName()));
  }
}

// Cell `c` of `piece`, its points and its cell arrays' tuples, appended to `out`.
void append_cell(vtkUnstructuredGrid* out, vtkUnstructuredGrid* piece, vtkIdType c, vtkIdList* ids) {
  piece->GetCellPoints(c, ids);
  for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
    ids->SetId(k, out->GetPoints()->InsertNextPoint(piece->GetPoint(ids->GetId(k))));
  out->InsertNextCell(piece->GetCellType(c), ids);
  vtkCellData* cells = out->GetCellData();
  for (int a = 0; a < cells->GetNumberOfArrays(); ++a) {
    vtkAbstractArray* into = cells->GetAbstractArray(a);
    into->InsertNextTuple(c, piece->GetCellData()->GetAbstractArray(into->GetName()));
  }
}

// An empty grid with double points and `model`'s cell arrays and field data.
vtkSmartPointer<vtkUnstructuredGrid> empty_like(vtkUnstructuredGrid* model) {
  auto out = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  out->SetPoints(points);
  out->Allocate(model->GetNumberOfCells());
  out->GetFieldData()->ShallowCopy(model->GetFieldData());
  for (int a = 0; a < model->GetCellData()->GetNumberOfArrays(); ++a) {
    vtkAbstractArray* array = model->GetCellData()->GetAbstractArray(a);
    vtkSmartPointer<vtkAbstractArray> copy = vtkSmartPointer<vtkAbstractArray>::Take(array->NewInstance());
    copy->SetName(array->GetName());
    copy->SetNumberOfComponents(array->GetNumberOfComponents());
    out->GetCellData()->AddArray(copy);
  }
  return out;
}

}  // namespace

void add_piece_identity(vtkUnstructuredGrid* grid, const RunIdentity& run, int frame, int index, int count) {
  vtkNew<vtkIntArray> identity;
  identity->SetName("sphero_piece");
  identity->SetNumberOfComponents(3);
  identity->InsertNextTuple3(frame, index, count);
  grid->GetFieldData()->AddArray(identity);
  if (!run.known()) return;
  vtkNew<vtkStringArray> run_text;
  run_text->SetName("sphero_run");
  run_text->InsertNextValue(run.text());
  grid->GetFieldData()->AddArray(run_text);
}

std::vector<ArrayLayout> layout_of(vtkUnstructuredGrid* grid) {
  std::vector<ArrayLayout> arrays;
  vtkCellData* cells = grid->GetCellData();
  for (int a = 0; a < cells->GetNumberOfArrays(); ++a) {
    vtkAbstractArray* array = cells->GetAbstractArray(a);
    arrays.push_back({array->GetName(), type_word(array->GetDataType()), array->GetNumberOfComponents()});
  }
  return arrays;
}

void write_pvtu_atomically(const std::filesystem::path& pvtu, const std::vector<ArrayLayout>& cell_arrays,
                           const std::vector<std::string>& pieces) {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <PUnstructuredGrid GhostLevel=\"0\">\n    <PCellData>\n";
  for (const ArrayLayout& a : cell_arrays)
    xml += fmt::format(
        "      <PDataArray type=\"{}\" Name=\"{}\" NumberOfComponents=\"{}\"/>\n", a.type, a.name, a.components);
  xml +=
      "    </PCellData>\n    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
      "    </PPoints>\n";
  for (const std::string& piece : pieces) xml += fmt::format("    <Piece Source=\"{}\"/>\n", piece);
  xml += "  </PUnstructuredGrid>\n</VTKFile>\n";
  write_text_atomically(pvtu, xml);
}

std::vector<std::filesystem::path> pvtu_pieces(const std::filesystem::path& pvtu) {
  const std::string text = whole_text(pvtu);
  if (text.find("type=\"PUnstructuredGrid\"") == std::string::npos)
    throw std::runtime_error(pvtu.string() + ": not a parallel unstructured grid (.pvtu) file");
  std::vector<std::filesystem::path> pieces;
  std::map<std::filesystem::path, std::size_t> seen;  // each piece's file, and its number from 1
  const std::string tag = "<Piece ", key = "Source=\"";
  for (auto at = text.find(tag); at != std::string::npos; at = text.find(tag, at + tag.size())) {
    const auto end = text.find('>', at);
    const auto source = text.find(key, at);
    const auto close = source == std::string::npos ? source : text.find('"', source + key.size());
    if (end == std::string::npos || source == std::string::npos || source > end || close > end)
      throw std::runtime_error(pvtu.string() + ": a <Piece> without Source=\"...\"; the file is damaged");
    if (pieces.size() == kMaxPieces)
      throw std::runtime_error(fmt::format("{}: more than {} pieces; the file is damaged", pvtu.string(), kMaxPieces));
    pieces.push_back(piece_path(pvtu, text.substr(source + key.size(), close - source - key.size())));
    // The same file twice (under two spellings or through a link) would
    // count its grains twice.
    const auto [first, fresh] = seen.emplace(std::filesystem::canonical(pieces.back()), pieces.size());
    if (!fresh)
      throw std::runtime_error(fmt::format("{}: pieces {} and {} are the same file, {}; the file is damaged",
                                           pvtu.string(), first->second, pieces.size(), pieces.back().string()));
  }
  if (pieces.empty()) throw std::runtime_error(pvtu.string() + ": names no piece; the file is damaged");
  return pieces;
}

vtkSmartPointer<vtkUnstructuredGrid> read_pvtu(const std::filesystem::path& pvtu) {
  const std::vector<std::filesystem::path> names = pvtu_pieces(pvtu);
  std::vector<vtkSmartPointer<vtkUnstructuredGrid>> pieces;
  struct Place {
    CellKey key;
    std::size_t piece;
    vtkIdType cell;
  };
  std::vector<Place> places;
  PieceCheck identities(pvtu, names.size());
  vtkIdType points = 0;
  for (std::size_t k = 0; k < names.size(); ++k) {
    pieces.push_back(read_vtu(names[k]));
    vtkUnstructuredGrid* piece = pieces.back();
    check_arrays(pieces.front(), piece, fmt::format("{}: its piece {}", pvtu.string(), names[k].filename().string()));
    identities.check(piece, names[k]);
    points += piece->GetNumberOfPoints();
    if (static_cast<vtkIdType>(places.size()) + piece->GetNumberOfCells() > kMaxGridCells || points > kMaxGridPoints)
      throw std::runtime_error(pvtu.string() +
                               ": its pieces hold more cells or points than a frame may "
                               "(docs/FILE-FORMATS.md)");
    const CellOrder order(piece);
    for (vtkIdType c = 0; c < piece->GetNumberOfCells(); ++c) places.push_back({order.key(c), k, c});
  }
  std::stable_sort(places.begin(), places.end(), [](const Place& a, const Place& b) { return a.key < b.key; });
  const vtkSmartPointer<vtkUnstructuredGrid> out = empty_like(pieces.front());
  out->GetFieldData()->RemoveArray("sphero_piece");  // the whole frame is no piece
  vtkNew<vtkIdList> ids;
  for (const Place& p : places) append_cell(out, pieces[p.piece], p.cell, ids);
  return out;
}

}  // namespace sphero
