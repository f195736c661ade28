// The raw appended data of a VTK XML file, decoded array by array as VTK
// decodes it (uncompressed, or blocks of LZ4, zlib or LZMA), every size held
// against the bytes the file has and against what the compressor can give,
// so that a damaged header or block is refused before anything trusts it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sphero {

// At most this many bytes in one array: 10^8 points' coordinates and more.
inline constexpr std::uint64_t kLargestVtuArray = std::uint64_t{1} << 33;

class AppendedData {
 public:
  // `bytes` is the whole file, `start` where its data begins (just after
  // '_'), or nothing when it has none; `compressor` is the root element's
  // attribute ("" for none); `file` names it in messages. Keeps references.
  AppendedData(std::string_view bytes, std::optional<std::size_t> start, bool wide_headers,
               const std::string& compressor, const std::string& file);

  // The decoded bytes of the array at `offset`; `name` names it in messages.
  // Throws std::runtime_error naming the file and the damage.
  std::vector<unsigned char> decode(long long offset, const std::string& name) const;

 private:
  std::uint64_t word_at(std::uint64_t at) const;
  void within_file(std::uint64_t start, std::uint64_t length) const;
  std::vector<unsigned char> raw(std::uint64_t start) const;
  std::vector<unsigned char> compressed(std::uint64_t start, const std::string& name) const;
  std::uint64_t most_decoded(std::uint64_t stored) const;
  bool uncompress(const char* in, std::uint64_t in_size, unsigned char* out, std::uint64_t out_size) const;

  std::string_view bytes_;
  std::optional<std::size_t> start_;
  std::uint64_t word_;
  const std::string& compressor_;
  const std::string& file_;
};

}  // namespace sphero
