// The .shape format: every mistake names the file and the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "shapes/shape_file.h"

namespace sphero {
namespace {

std::string parse_error(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_shape(in, "grain.shape", "grain");
  } catch (const ShapeError& e) {
    return e.what();
  }
  return "";
}

TEST(ShapeFile, ReadsAWellFormedFileWithComments) {
  std::istringstream in(
      "# a pebble\n"
      "sphero-shape 1\n"
      "kind polygon   # closed\n"
      "radius 0.15\n"
      "\n"
      "vertices 3\n"
      "-0.5 -0.3\n"
      "0.55 -0.25\n"
      "0.05 0.5\n");
  const Shape s = parse_shape(in, "pebble.shape", "pebble");
  EXPECT_EQ(s.name, "pebble");
  EXPECT_EQ(s.kind, SkeletonKind::polygon);
  EXPECT_DOUBLE_EQ(s.radius, 0.15);
  ASSERT_EQ(s.vertices.size(), 3u);
  EXPECT_DOUBLE_EQ(s.vertices[1].x, 0.55);
}

TEST(ShapeFile, WriteThenReadGivesTheSameShapeBitForBit) {
  const Shape original = make_shape("odd", SkeletonKind::polyline, {{0.1, 1.0 / 3.0}, {2.0 / 7.0, -1e-9}}, 0.3);
  std::stringstream file;
  write_shape(file, original);
  const Shape back = parse_shape(file, "odd.shape", "x");
  EXPECT_EQ(back.name, "odd");
  EXPECT_EQ(back.vertices, original.vertices);
  EXPECT_EQ(back.radius, original.radius);
}

TEST(ShapeFile, ErrorsNameFileAndLine) {
  EXPECT_EQ(parse_error("hello\n"), "grain.shape:1: not a Sphero shape file: the first line must be 'sphero-shape 1'");
  EXPECT_NE(parse_error("sphero-shape 2\n").find("grain.shape:1: unsupported"), std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nkind polygon\ncolour red\n").find("grain.shape:3: unknown key 'colour'"),
            std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nradius big\n").find("grain.shape:2: expected a number for the radius"),
            std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nkind blob\n").find("grain.shape:2: unknown skeleton kind 'blob'"),
            std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nkind point\nradius 1\nvertices 2\n0 0\n").find("ends after 1 of the 2"),
            std::string::npos);
  EXPECT_NE(
      parse_error("sphero-shape 1\nkind point\nradius 1\nvertices 1\n0 0 0\n").find("grain.shape:5: expected 'X Y'"),
      std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nkind point\nvertices 1\n0 0\n").find("missing 'radius"), std::string::npos);
  for (const char* count : {"0", "2.5", "1e18", "nan", "-3"})
    EXPECT_NE(
        parse_error(std::string("sphero-shape 1\nvertices ") + count + "\n").find("grain.shape:2: the vertex count"),
        std::string::npos)
        << count;
  EXPECT_NE(parse_error("sphero-shape 1\nradius 1\nvertices 1\n0 0\n").find("missing 'kind"), std::string::npos);
}

TEST(ShapeFile, GeometryErrorsNameTheFile) {
  const std::string message = parse_error("sphero-shape 1\nkind polygon\nradius 0.1\nvertices 4\n0 0\n2 2\n2 0\n0 2\n");
  EXPECT_NE(message.find("grain.shape: shape 'grain': the polygon intersects itself"), std::string::npos) << message;
  EXPECT_NE(
      parse_error("sphero-shape 1\nkind point\nradius -2\nvertices 1\n0 0\n").find("negative"), std::string::npos);
  EXPECT_NE(parse_error("sphero-shape 1\nkind point\nradius 1\nvertices 1\nnan 0\n").find("not a finite number"),
            std::string::npos);
}

TEST(ShapeFile, MangledFilesAreRefusedNeverCrash) {
  // Random byte edits of a valid file: each either parses into a valid shape
  // or is refused with a ShapeError that names the file.
  const std::string valid =
      "sphero-shape 1\nname l\nkind polygon\nradius 0.1\nvertices 6\n0 0\n2 0\n2 1\n1 1\n1 2\n0 2\n";
  const std::string alphabet = "0123456789.-+eE \n#abnix";
  std::mt19937_64 generator(2026);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(generator() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = generator() % text.size();
      switch (generator() % 3) {
        case 0:
          text[at] = alphabet[generator() % alphabet.size()];
          break;
        case 1:
          text.erase(at, 1);
          break;
        default:
          text.insert(at, 1, alphabet[generator() % alphabet.size()]);
          break;
      }
    }
    std::istringstream in(text);
    try {
      const Shape shape = parse_shape(in, "mangled.shape", "mangled");
      EXPECT_FALSE(shape.vertices.empty());
    } catch (const ShapeError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind("mangled.shape", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(refused, 1000);
}

TEST(ShapeFile, MissingFileSaysSo) {
  try {
    read_shape_file("/no/such/dir/grain.shape");
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/dir/grain.shape: cannot open"), std::string::npos);
  }
}

TEST(ShapeFile, EveryShapeInTheLibraryReads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SPHERO_DATA_DIR "/shapes")) {
    if (entry.path().extension() != ".shape") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW(read_shape_file(entry.path()));
    ++count;
  }
  EXPECT_GE(count, 8);
}

}  // namespace
}  // namespace sphero
