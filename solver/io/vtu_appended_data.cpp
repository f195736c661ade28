#include "io/vtu_appended_data.h"

#include <fmt/format.h>
#include <vtk_lz4.h>
#include <vtk_lzma.h>
#include <vtk_zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "text/message_text.h"

namespace sphero {

AppendedData::AppendedData(std::string_view bytes, std::optional<std::size_t> start, bool wide_headers,
                           const std::string& compressor, const std::string& file)
    : bytes_(bytes), start_(start), word_(wide_headers ? 8 : 4), compressor_(compressor), file_(file) {}

std::vector<unsigned char> AppendedData::decode(long long offset, const std::string& name) const {
  if (!start_) throw std::runtime_error(file_ + ": appended arrays without appended data; the file is damaged");
  if (offset < 0) throw std::runtime_error(file_ + ": an appended array without a valid offset; the file is damaged");
  const std::uint64_t at = *start_ + static_cast<std::uint64_t>(offset);
  return compressor_.empty() ? raw(at) : compressed(at, name);
}

std::uint64_t AppendedData::word_at(std::uint64_t at) const {
  if (at > bytes_.size() || bytes_.size() - at < word_)
    throw std::runtime_error(file_ + ": an appended array's header lies past the end of the file; the file is damaged");
  std::uint64_t v = 0;
  std::memcpy(&v, bytes_.data() + at, word_);
  return v;
}

void AppendedData::within_file(std::uint64_t start, std::uint64_t length) const {
  if (length > kLargestVtuArray || start > bytes_.size() || bytes_.size() - start < length)
    throw std::runtime_error(
        fmt::format("{}: an appended array claims {} bytes past its place; the file is damaged", file_, length));
}

std::vector<unsigned char> AppendedData::raw(std::uint64_t start) const {
  const std::uint64_t length = word_at(start);
  within_file(start + word_, length);
  const auto* from = reinterpret_cast<const unsigned char*>(bytes_.data() + start + word_);
  return {from, from + length};
}

// VTK's block header: the number of blocks, the block size, the size of a
// partial last block (0: it is whole), then each block's compressed size.
std::vector<unsigned char> AppendedData::compressed(std::uint64_t start, const std::string& name) const {
  const std::uint64_t blocks = word_at(start), block = word_at(start + word_), last = word_at(start + 2 * word_);
  if (blocks > (bytes_.size() - std::min<std::uint64_t>(bytes_.size(), start)) / word_ || block > kLargestVtuArray ||
      last > block || (blocks > 0 && block == 0) || (blocks == 0 && last != 0))
    throw std::runtime_error(file_ + ": an appended array's block header is impossible; the file is damaged");
  const std::uint64_t decoded = last == 0 ? blocks * block : (blocks - 1) * block + last;
  std::uint64_t stored_in_all = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t stored = word_at(start + (3 + b) * word_);
    within_file(start, stored);
    stored_in_all += stored;
  }
  if (decoded > kLargestVtuArray || decoded > most_decoded(stored_in_all))
    throw std::runtime_error(
        fmt::format("{}: the array '{}' claims {} bytes from {} compressed ones, more than {} "
                    "gives; the file is damaged",
                    file_, fit_for_message(name, 30), decoded, stored_in_all, compressor_));
  std::vector<unsigned char> out(decoded);
  std::uint64_t from = start + (3 + blocks) * word_, to = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t stored = word_at(start + (3 + b) * word_);
    const std::uint64_t size = b + 1 == blocks && last != 0 ? last : block;
    within_file(from, stored);
    if (!uncompress(bytes_.data() + from, stored, out.data() + to, size))
      throw std::runtime_error(
          fmt::format("{}: the array '{}': block {} does not decompress to its {} bytes; the file is damaged", file_,
                      fit_for_message(name, 30), b, size));
    from += stored;
    to += size;
  }
  return out;
}

// LZ4 and zlib expand at most about 255 and 1032 times, so that a damaged
// size is refused before it is allocated; LZMA has no bound below the
// array limit.
std::uint64_t AppendedData::most_decoded(std::uint64_t stored) const {
  if (compressor_ == "vtkLZ4DataCompressor") return 256 * stored + 4096;
  if (compressor_ == "vtkZLibDataCompressor") return 1040 * stored + 4096;
  return kLargestVtuArray;
}

bool AppendedData::uncompress(const char* in, std::uint64_t in_size, unsigned char* out, std::uint64_t out_size) const {
  if (compressor_ == "vtkLZ4DataCompressor") {
    constexpr std::uint64_t kMost = std::numeric_limits<int>::max();
    return in_size <= kMost && out_size <= kMost &&
           LZ4_decompress_safe(in, reinterpret_cast<char*>(out), static_cast<int>(in_size),
                               static_cast<int>(out_size)) == static_cast<int>(out_size);
  }
  if (compressor_ == "vtkZLibDataCompressor") {
    uLongf size = out_size;
    return ::uncompress(out, &size, reinterpret_cast<const Bytef*>(in), in_size) == Z_OK && size == out_size;
  }
  std::uint64_t memory = kLargestVtuArray;
  std::size_t in_at = 0, out_at = 0;
  return lzma_stream_buffer_decode(&memory, 0, nullptr, reinterpret_cast<const std::uint8_t*>(in), &in_at, in_size, out,
                                   &out_at, out_size) == LZMA_OK &&
         out_at == out_size;
}

}  // namespace sphero
