#include "shapes/shape_file.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "text/message_text.h"

namespace sphero {
namespace {

struct Line {
  int number = 0;
  std::vector<std::string> words;
};

class LineReader {
 public:
  LineReader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  // The next line that holds words, with comments removed.
  std::optional<Line> next() {
    std::string text;
    while (std::getline(in_, text)) {
      ++number_;
      if (const auto control = first_control_byte(text))
        fail(number_, describe(*control) + ": a shape file is plain text; remove it");
      if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
      std::istringstream split(text);
      Line line{number_, {}};
      for (std::string word; split >> word;) line.words.push_back(word);
      if (!line.words.empty()) return line;
    }
    return std::nullopt;
  }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw ShapeError(fmt::format("{}:{}: {}", source_, line, fit_for_message(message)));
  }
  int last_line() const { return number_; }

 private:
  std::istream& in_;
  std::string source_;
  int number_ = 0;
};

// Infinities and NaN parse: make_shape names the coordinate that holds one.
double number_in(const LineReader& reader, const Line& line, const std::string& word, const char* what) {
  const auto value = parse_number(word);
  if (!value) reader.fail(line.number, fmt::format("expected a number for {}, found '{}'", what, word));
  return *value;
}

void expect_word_count(const LineReader& reader, const Line& line, std::size_t count, const char* usage) {
  if (line.words.size() != count)
    reader.fail(line.number, fmt::format("expected '{}', found {} word(s)", usage, line.words.size()));
}

}  // namespace

Shape parse_shape(std::istream& in, const std::string& source_name, const std::string& default_name) {
  LineReader reader(in, source_name);
  const auto header = reader.next();
  if (!header || header->words[0] != "sphero-shape")
    reader.fail(header ? header->number : 1, "not a Sphero shape file: the first line must be 'sphero-shape 1'");
  if (header->words.size() != 2 || header->words[1] != "1")
    reader.fail(header->number, "unsupported shape format version; this Sphero reads 'sphero-shape 1'");

  std::string name = default_name;
  std::optional<SkeletonKind> kind;
  std::optional<double> radius;
  std::vector<Vec2> vertices;
  bool have_vertices = false;

  std::map<std::string, int> line_of;  // name, kind and radius: where each was given
  while (const auto line = reader.next()) {
    const std::string& key = line->words[0];
    if (key == "name" || key == "kind" || key == "radius")
      if (const auto [first, fresh] = line_of.emplace(key, line->number); !fresh)
        reader.fail(
            line->number, fmt::format("'{}' is given twice (first on line {}); a shape has one", key, first->second));
    if (key == "name") {
      expect_word_count(reader, *line, 2, "name WORD");
      name = line->words[1];
    } else if (key == "kind") {
      expect_word_count(reader, *line, 2, "kind point|segment|polyline|polygon");
      try {
        kind = skeleton_kind_from_string(line->words[1]);
      } catch (const ShapeError& e) {
        reader.fail(line->number, e.what());
      }
    } else if (key == "radius") {
      expect_word_count(reader, *line, 2, "radius VALUE");
      radius = number_in(reader, *line, line->words[1], "the radius");
    } else if (key == "vertices") {
      expect_word_count(reader, *line, 2, "vertices COUNT");
      if (have_vertices) reader.fail(line->number, "a second 'vertices' block; a shape file holds one shape");
      const double count = number_in(reader, *line, line->words[1], "the vertex count");
      if (!(count >= 1 && count <= static_cast<double>(kMaxSkeletonVertices)) || count != std::floor(count))
        reader.fail(line->number, fmt::format("the vertex count {} must be a whole number from 1 to {}", line->words[1],
                                              kMaxSkeletonVertices));
      for (int i = 0; i < static_cast<int>(count); ++i) {
        const auto vertex = reader.next();
        if (!vertex)
          reader.fail(reader.last_line(), fmt::format("the file ends after {} of the {} announced vertices", i, count));
        expect_word_count(reader, *vertex, 2, "X Y");
        vertices.push_back(
            {number_in(reader, *vertex, vertex->words[0], "x"), number_in(reader, *vertex, vertex->words[1], "y")});
      }
      have_vertices = true;
    } else {
      if (have_vertices && parse_number(key))
        reader.fail(line->number, fmt::format("a vertex line after the {} announced; correct the count in 'vertices'",
                                              vertices.size()));
      reader.fail(line->number, fmt::format("unknown key '{}'; the keys are name, kind, radius and vertices", key));
    }
  }
  if (!kind) reader.fail(reader.last_line(), "missing 'kind point|segment|polyline|polygon'");
  if (!radius) reader.fail(reader.last_line(), "missing 'radius VALUE'");
  if (!have_vertices) reader.fail(reader.last_line(), "missing the 'vertices COUNT' block");
  try {
    return make_shape(name, *kind, std::move(vertices), *radius);
  } catch (const ShapeError& e) {
    throw ShapeError(fmt::format("{}: {}", source_name, e.what()));
  }
}

Shape read_shape_file(const std::filesystem::path& path) {
  if (std::filesystem::is_directory(path))
    throw ShapeError(fmt::format("{}: a folder, not a shape file", path.string()));
  std::ifstream in(path);
  if (!in)
    throw ShapeError(fmt::format("{}: cannot open the shape file (does it exist, and is it readable?)", path.string()));
  return parse_shape(in, path.string(), path.stem().string());
}

void write_shape(std::ostream& out, const Shape& shape) {
  out << "sphero-shape 1\n";
  out << "name " << shape.name << "\n";
  out << "kind " << to_string(shape.kind) << "\n";
  out << fmt::format("radius {}\n", shape.radius);
  out << "vertices " << shape.vertices.size() << "\n";
  // fmt's shortest round-trip representation: reading gives the same bits.
  for (Vec2 v : shape.vertices) out << fmt::format("{} {}\n", v.x, v.y);
}

}  // namespace sphero
