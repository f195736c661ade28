#include "parallel/ranks.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace sphero {

bool MpiRuntime::launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

MpiRuntime::MpiRuntime(int& argc, char**& argv) {
  if (!launched()) return;
  int provided = 0;
  // Only the main thread calls MPI; the engine's own threads never do.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
}

MpiRuntime::~MpiRuntime() {
  if (active_) MPI_Finalize();
}

Ranks::Ranks() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  running_ = initialised && !finalised;
  if (!running_) return;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

std::vector<double> Ranks::reduce(const std::vector<double>& values, MPI_Op op) const {
  std::vector<double> out = values;
  if (running_) MPI_Allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_DOUBLE, op, comm_);
  return out;
}

double Ranks::max(double value) const { return reduce({value}, MPI_MAX)[0]; }
double Ranks::min(double value) const { return reduce({value}, MPI_MIN)[0]; }
std::vector<double> Ranks::max(const std::vector<double>& values) const { return reduce(values, MPI_MAX); }
std::vector<double> Ranks::min(const std::vector<double>& values) const { return reduce(values, MPI_MIN); }
std::vector<double> Ranks::sum(const std::vector<double>& values) const { return reduce(values, MPI_SUM); }

std::vector<std::int64_t> Ranks::sum(const std::vector<std::int64_t>& values) const {
  std::vector<std::int64_t> out = values;
  if (running_) MPI_Allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM, comm_);
  return out;
}

namespace {

// The unit byte buffers travel in: a byte, or where the largest buffer of
// any rank (which every rank must work out alike) would overflow an int
// count, a contiguous run of bytes (each rank's part padded to whole
// units).
class ByteUnit {
 public:
  // largest_count: the bytes one MPI count may stand for (counts are ints).
  ByteUnit(std::uint64_t largest, std::uint64_t largest_count) {
    bytes_ = std::max<std::uint64_t>(1, (largest + largest_count - 1) / largest_count);
    if (bytes_ == 1) return;
    MPI_Type_contiguous(static_cast<int>(bytes_), MPI_CHAR, &type_);
    MPI_Type_commit(&type_);
  }
  ~ByteUnit() {
    if (bytes_ > 1) MPI_Type_free(&type_);
  }
  ByteUnit(const ByteUnit&) = delete;
  ByteUnit& operator=(const ByteUnit&) = delete;
  MPI_Datatype type() const { return type_; }
  std::size_t padded(std::uint64_t bytes) const {
    return static_cast<std::size_t>((bytes + bytes_ - 1) / bytes_ * bytes_);
  }
  int count(std::uint64_t bytes) const { return static_cast<int>(padded(bytes) / bytes_); }

 private:
  std::uint64_t bytes_ = 1;
  MPI_Datatype type_ = MPI_CHAR;
};

// Per rank, its part's place (in units) in a buffer of the parts one after
// the other, and the count of units of each.
struct Layout {
  std::vector<int> counts, at;
  std::vector<std::size_t> byte_at;  // where each part starts, in bytes
  std::size_t bytes = 0;             // the whole buffer
};

Layout layout_of(const ByteUnit& unit, const std::vector<std::uint64_t>& sizes) {
  Layout l;
  int units = 0;
  for (std::uint64_t size : sizes) {
    l.counts.push_back(unit.count(size));
    l.at.push_back(units);
    l.byte_at.push_back(l.bytes);
    units += l.counts.back();
    l.bytes += unit.padded(size);
  }
  return l;
}

std::uint64_t total(const std::vector<std::uint64_t>& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0});
}

// The parts of `buffer` (laid out by `l`) cut back to their sizes.
std::vector<std::vector<char>> parts_of(const std::vector<char>& buffer, const Layout& l,
                                        const std::vector<std::uint64_t>& sizes) {
  std::vector<std::vector<char>> parts(sizes.size());
  for (std::size_t q = 0; q < sizes.size(); ++q)
    parts[q].assign(
        buffer.begin() + static_cast<long>(l.byte_at[q]), buffer.begin() + static_cast<long>(l.byte_at[q] + sizes[q]));
  return parts;
}

// The parts of `buffer` (laid out by `l`) one after the other, their
// padding taken out in place.
std::vector<char> compacted(std::vector<char> buffer, const Layout& l, const std::vector<std::uint64_t>& sizes) {
  std::size_t at = 0;
  for (std::size_t q = 0; q < sizes.size(); ++q) {
    if (sizes[q] > 0) std::memmove(buffer.data() + at, buffer.data() + l.byte_at[q], sizes[q]);  // at ≤ byte_at[q]
    at += sizes[q];
  }
  buffer.resize(at);
  return buffer;
}

}  // namespace

std::vector<char> Ranks::all_gather(const std::vector<char>& bytes) const {
  if (!running_) return bytes;
  const std::uint64_t mine = bytes.size();
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(size_));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, comm_);
  const ByteUnit unit(total(sizes), largest_count_);  // every rank has every size
  const Layout l = layout_of(unit, sizes);
  std::vector<char> padded = bytes, out(l.bytes);
  padded.resize(unit.padded(mine));
  MPI_Allgatherv(
      padded.data(), unit.count(mine), unit.type(), out.data(), l.counts.data(), l.at.data(), unit.type(), comm_);
  return compacted(std::move(out), l, sizes);
}

std::vector<char> Ranks::gather(const std::vector<char>& bytes) const {
  if (!running_) return bytes;
  const std::uint64_t mine = bytes.size();
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(size_));
  // Every rank learns every size (one collective, as a gather of the sizes
  // would be), so that all agree on the unit without asking again.
  MPI_Allgather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, comm_);
  const ByteUnit unit(total(sizes), largest_count_);
  std::vector<char> padded = bytes, out;
  padded.resize(unit.padded(mine));
  const Layout l = layout_of(unit, sizes);
  if (root()) out.resize(l.bytes);
  MPI_Gatherv(
      padded.data(), unit.count(mine), unit.type(), out.data(), l.counts.data(), l.at.data(), unit.type(), 0, comm_);
  return root() ? compacted(std::move(out), l, sizes) : std::vector<char>{};
}

std::vector<std::vector<char>> Ranks::exchange(std::vector<std::vector<char>> outgoing) const {
  if (!running_) return outgoing;
  const auto p = static_cast<std::size_t>(size_);
  // Every rank learns what every rank sends every other (one collective,
  // as the exchange of sizes alone would be), so that all agree on the unit
  // from the largest total any rank sends or receives.
  std::vector<std::uint64_t> send_sizes(p), sizes(p * p), receive_sizes(p);
  for (std::size_t q = 0; q < p; ++q) send_sizes[q] = outgoing[q].size();
  MPI_Allgather(
      send_sizes.data(), static_cast<int>(p), MPI_UINT64_T, sizes.data(), static_cast<int>(p), MPI_UINT64_T, comm_);
  std::uint64_t largest = 0;
  for (std::size_t r = 0; r < p; ++r) {
    std::uint64_t sent = 0, received = 0;
    for (std::size_t q = 0; q < p; ++q) sent += sizes[r * p + q], received += sizes[q * p + r];
    largest = std::max({largest, sent, received});
  }
  for (std::size_t q = 0; q < p; ++q) receive_sizes[q] = sizes[q * p + static_cast<std::size_t>(rank_)];
  const ByteUnit unit(largest, largest_count_);
  const Layout out = layout_of(unit, send_sizes), in = layout_of(unit, receive_sizes);
  std::vector<char> send(out.bytes);
  for (std::size_t q = 0; q < p; ++q) {
    std::copy(outgoing[q].begin(), outgoing[q].end(), send.begin() + static_cast<long>(out.byte_at[q]));
    release(outgoing[q]);  // each part goes as soon as it is copied: the buffers of a sharing out are large
  }
  std::vector<char> received(in.bytes);
  MPI_Alltoallv(send.data(), out.counts.data(), out.at.data(), unit.type(), received.data(), in.counts.data(),
                in.at.data(), unit.type(), comm_);
  release(send);
  return parts_of(received, in, receive_sizes);
}

namespace {
constexpr int kPartTag = 7;  // the messages of send_to_root, apart from any other point-to-point traffic
}

// The size, then the bytes in pieces an int counts.
void Ranks::send_to_root(const std::vector<char>& bytes) const {
  if (!running_ || root()) return;
  const std::uint64_t size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, 0, kPartTag, comm_);
  for (std::uint64_t at = 0; at < size; at += largest_count_) {
    const std::uint64_t piece = std::min<std::uint64_t>(largest_count_, size - at);
    MPI_Send(bytes.data() + at, static_cast<int>(piece), MPI_BYTE, 0, kPartTag, comm_);
  }
}

std::vector<char> Ranks::receive_from(int rank) const {
  if (!running_ || !root() || rank <= 0 || rank >= size_) return {};
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, rank, kPartTag, comm_, MPI_STATUS_IGNORE);
  std::vector<char> bytes(size);
  for (std::uint64_t at = 0; at < size; at += largest_count_) {
    const std::uint64_t piece = std::min<std::uint64_t>(largest_count_, size - at);
    MPI_Recv(bytes.data() + at, static_cast<int>(piece), MPI_BYTE, rank, kPartTag, comm_, MPI_STATUS_IGNORE);
  }
  return bytes;
}

std::string Ranks::broadcast(const std::string& text, int from) const {
  if (!running_) return text;
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, from, comm_);
  std::string out = rank_ == from ? text : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(out.data(), length, MPI_CHAR, from, comm_);
  return out;
}

void Ranks::abort(const std::string& message) const {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  if (running_) MPI_Abort(comm_, 1);
  std::exit(1);
}

}  // namespace sphero
