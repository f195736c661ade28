#include "io/vtu_writer.h"

#include <fmt/format.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtk_lz4.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace sphero {
namespace {

// The file says LittleEndian and holds the values as they lie in memory.
static_assert(std::endian::native == std::endian::little, "a .vtu is written little-endian");

// LZ4 looks back at most 64 KiB, so larger blocks would not compress better.
constexpr std::size_t kBlockSize = 65536;

// LZ4's acceleration (1 is its default; higher skips faster past bytes
// that match nothing). An array of one block or less is compressed
// hardest: its time is negligible and its bytes are most of a small
// frame's. In larger arrays, whole numbers (ids, counts, connectivity)
// repeat and are worth looking for matches in; floating-point values
// seldom repeat 4 bytes, and most of the time spent on them finds nothing.
constexpr int kSmallAcceleration = 1, kAcceleration = 16, kFloatAcceleration = 64;

int acceleration_for(int vtk_type, std::size_t size) {
  if (size <= kBlockSize) return kSmallAcceleration;
  return vtk_type == VTK_DOUBLE || vtk_type == VTK_FLOAT ? kFloatAcceleration : kAcceleration;
}

}  // namespace

const char* vtu_type_word(int vtk_type) {
  switch (vtk_type) {
    case VTK_CHAR:
    case VTK_SIGNED_CHAR:
      return "Int8";
    case VTK_UNSIGNED_CHAR:
      return "UInt8";
    case VTK_SHORT:
      return "Int16";
    case VTK_UNSIGNED_SHORT:
      return "UInt16";
    case VTK_INT:
      return "Int32";
    case VTK_UNSIGNED_INT:
      return "UInt32";
    case VTK_LONG:
      return sizeof(long) == 8 ? "Int64" : "Int32";
    case VTK_LONG_LONG:
      return "Int64";
    case VTK_ID_TYPE:
      return sizeof(vtkIdType) == 8 ? "Int64" : "Int32";
    case VTK_UNSIGNED_LONG:
    case VTK_UNSIGNED_LONG_LONG:
      return sizeof(unsigned long) == 8 || vtk_type != VTK_UNSIGNED_LONG ? "UInt64" : "UInt32";
    case VTK_FLOAT:
      return "Float32";
    case VTK_DOUBLE:
      return "Float64";
    default:
      throw std::invalid_argument(fmt::format("a .vtu cannot hold arrays of VTK type {}", vtk_type));
  }
}

namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The XML elements and the appended data they point into, built together.
class Appended {
 public:
  // Compresses `size` bytes at `data` as VTK's blocks (a header of 32-bit
  // words: the number of blocks, the block size, the size of a partial last
  // block or 0, each block's compressed size; then the blocks) and returns
  // their offset; `vtk_type` is the values' type.
  std::size_t add(const void* data, std::size_t size, int vtk_type = VTK_INT) {
    const int acceleration = acceleration_for(vtk_type, size);
    const std::size_t offset = payload_.size();
    const std::size_t blocks = (size + kBlockSize - 1) / kBlockSize;
    std::vector<std::uint32_t> header{static_cast<std::uint32_t>(blocks), static_cast<std::uint32_t>(kBlockSize),
                                      static_cast<std::uint32_t>(size % kBlockSize)};
    header.resize(3 + blocks);
    std::size_t end = offset + header.size() * 4;
    const auto* bytes = static_cast<const char*>(data);
    for (std::size_t b = 0; b < blocks; ++b) {
      const int length = static_cast<int>(std::min(kBlockSize, size - b * kBlockSize));
      // Straight into the payload, grown by the most a block can take.
      const auto bound = static_cast<std::size_t>(LZ4_compressBound(length));
      grow_to(end + bound);
      const int stored = LZ4_compress_fast_extState(
          state_.data(), bytes + b * kBlockSize, payload_.data() + end, length, static_cast<int>(bound), acceleration);
      if (stored <= 0) throw std::runtime_error("LZ4 could not compress an array");
      end += static_cast<std::size_t>(stored);
      header[3 + b] = static_cast<std::uint32_t>(stored);
    }
    payload_.resize(end);
    std::memcpy(payload_.data() + offset, header.data(), header.size() * 4);
    return offset;
  }

  // A data array's element, its values appended; `tuples` only in field data.
  void add_array(std::string& xml, vtkDataArray* a, bool tuples) {
    const std::size_t size = static_cast<std::size_t>(a->GetNumberOfValues()) * a->GetDataTypeSize();
    element(xml, "DataArray", vtu_type_word(a->GetDataType()), a, tuples,
            add(a->GetVoidPointer(0), size, a->GetDataType()));
  }

  // A string array's element: its values, each followed by a zero byte.
  void add_strings(std::string& xml, vtkStringArray* a, bool tuples) {
    std::string values;
    for (vtkIdType k = 0; k < a->GetNumberOfValues(); ++k) {
      values += a->GetValue(k);
      values += '\0';
    }
    element(xml, "Array", "String", a, tuples, add(values.data(), values.size()));
  }

  // Room for `bytes` of arrays compressed, so that the payload is not
  // copied as it grows.
  void reserve(std::size_t bytes) { payload_.reserve(bytes + bytes / 200 + 4096); }
  Bytes take_payload() { return std::move(payload_); }

 private:
  // At least `size` bytes (reserve() has made room for them).
  void grow_to(std::size_t size) {
    if (size > payload_.size()) payload_.resize(size);
  }

  static void element(std::string& xml, const char* tag, const char* type, vtkAbstractArray* a, bool tuples,
                      std::size_t offset) {
    xml += fmt::format("<{} type=\"{}\"", tag, type);
    if (a->GetName() != nullptr) xml += fmt::format(" Name=\"{}\"", escaped(a->GetName()));
    if (a->GetNumberOfComponents() > 1) xml += fmt::format(" NumberOfComponents=\"{}\"", a->GetNumberOfComponents());
    if (tuples) xml += fmt::format(" NumberOfTuples=\"{}\"", a->GetNumberOfTuples());
    xml += fmt::format(" format=\"appended\" offset=\"{}\"/>\n", offset);
  }

  Bytes payload_;
  std::vector<char> state_ = std::vector<char>(static_cast<std::size_t>(LZ4_sizeofState()));
};

void add_arrays(std::string& xml, Appended& data, vtkFieldData* arrays, bool tuples) {
  for (int k = 0; k < arrays->GetNumberOfArrays(); ++k) {
    vtkAbstractArray* a = arrays->GetAbstractArray(k);
    if (auto* values = vtkDataArray::SafeDownCast(a)) data.add_array(xml, values, tuples);
    else if (auto* strings = vtkStringArray::SafeDownCast(a)) data.add_strings(xml, strings, tuples);
    else
      throw std::invalid_argument(fmt::format("a .vtu cannot hold the array '{}'", a->GetName() ? a->GetName() : ""));
  }
}

// An id array's values from `from` on (VTK's offsets begin with a 0 the
// file leaves out), in 32 bits when `narrow`.
void add_ids(std::string& xml, Appended& data, vtkDataArray* ids, vtkIdType from, bool narrow, const char* name) {
  const vtkIdType count = ids == nullptr ? 0 : std::max<vtkIdType>(ids->GetNumberOfValues() - from, 0);
  std::size_t offset = 0;
  if (count > 0 && ids->GetDataType() == VTK_TYPE_INT32 && narrow) {
    offset = data.add(static_cast<const std::int32_t*>(ids->GetVoidPointer(0)) + from, count * 4);
  } else if (count > 0 && ids->GetDataTypeSize() == 8 && ids->GetDataType() != VTK_DOUBLE) {
    const auto* wide = static_cast<const std::int64_t*>(ids->GetVoidPointer(0)) + from;
    if (narrow) {
      const std::vector<std::int32_t> values(wide, wide + count);
      offset = data.add(values.data(), values.size() * 4);
    } else {
      offset = data.add(wide, static_cast<std::size_t>(count) * 8);
    }
  } else {
    std::vector<std::int64_t> values;
    for (vtkIdType k = 0; k < count; ++k) values.push_back(static_cast<std::int64_t>(ids->GetComponent(from + k, 0)));
    std::vector<std::int32_t> values32(values.begin(), values.end());
    offset = narrow ? data.add(values32.data(), values32.size() * 4) : data.add(values.data(), values.size() * 8);
  }
  xml += fmt::format("<DataArray type=\"{}\" Name=\"{}\" format=\"appended\" offset=\"{}\"/>\n",
                     narrow ? "Int32" : "Int64", name, offset);
}

}  // namespace

VtuParts vtu_parts(vtkUnstructuredGrid* grid) {
  Appended data;
  data.reserve(static_cast<std::size_t>(grid->GetActualMemorySize()) * 1024);
  std::string xml;
  xml += "<UnstructuredGrid>\n";
  if (grid->GetFieldData()->GetNumberOfArrays() > 0) {
    xml += "<FieldData>\n";
    add_arrays(xml, data, grid->GetFieldData(), true);
    xml += "</FieldData>\n";
  }
  xml += fmt::format(
      "<Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", grid->GetNumberOfPoints(), grid->GetNumberOfCells());
  xml += "<PointData>\n";
  add_arrays(xml, data, grid->GetPointData(), false);
  xml += "</PointData>\n<CellData>\n";
  add_arrays(xml, data, grid->GetCellData(), false);
  xml += "</CellData>\n<Points>\n";
  if (vtkPoints* points = grid->GetPoints()) data.add_array(xml, points->GetData(), false);
  else
    xml += fmt::format(
        "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"appended\" "
        "offset=\"{}\"/>\n",
        data.add(nullptr, 0));
  xml += "</Points>\n<Cells>\n";
  vtkCellArray* cells = grid->GetCells();
  // Connectivity and offsets in 32 bits where they fit: a frame's main
  // cost after its own data.
  const bool narrow =
      grid->GetNumberOfPoints() < 2147483647 && (cells == nullptr || cells->GetNumberOfConnectivityIds() < 2147483647);
  add_ids(xml, data, cells ? cells->GetConnectivityArray() : nullptr, 0, narrow, "connectivity");
  add_ids(xml, data, cells ? cells->GetOffsetsArray() : nullptr, 1, narrow, "offsets");
  vtkUnsignedCharArray* types = grid->GetCellTypesArray();
  const std::size_t type_count = types ? static_cast<std::size_t>(types->GetNumberOfValues()) : 0;
  xml += fmt::format("<DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" offset=\"{}\"/>\n",
                     data.add(type_count ? types->GetPointer(0) : nullptr, type_count));
  xml += "</Cells>\n</Piece>\n</UnstructuredGrid>\n";

  VtuParts parts;
  parts.head =
      "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt32\" compressor=\"vtkLZ4DataCompressor\">\n";
  parts.head += xml;
  parts.head += "<AppendedData encoding=\"raw\">\n_";
  parts.payload = data.take_payload();
  parts.tail = "\n</AppendedData>\n</VTKFile>\n";
  return parts;
}

std::string vtu_bytes(vtkUnstructuredGrid* grid) {
  const VtuParts parts = vtu_parts(grid);
  return parts.head + std::string(parts.payload.begin(), parts.payload.end()) + parts.tail;
}

}  // namespace sphero
