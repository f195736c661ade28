#include "parallel/ranks.h"

#include <cstdio>
#include <cstdlib>
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

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, at.begin() + 1);
  return at;
}

}  // namespace

std::vector<char> Ranks::all_gather(const std::vector<char>& bytes) const {
  if (!running_) return bytes;
  const int mine = static_cast<int>(bytes.size());
  std::vector<int> counts(static_cast<std::size_t>(size_));
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  const std::vector<int> at = displacements(counts);
  std::vector<char> out(static_cast<std::size_t>(at.back() + counts.back()));
  MPI_Allgatherv(bytes.data(), mine, MPI_CHAR, out.data(), counts.data(), at.data(), MPI_CHAR, comm_);
  return out;
}

std::vector<char> Ranks::gather(const std::vector<char>& bytes) const {
  if (!running_) return bytes;
  const int mine = static_cast<int>(bytes.size());
  std::vector<int> counts(static_cast<std::size_t>(size_));
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<char> out;
  std::vector<int> at;
  if (root()) {
    at = displacements(counts);
    out.resize(static_cast<std::size_t>(at.back() + counts.back()));
  }
  MPI_Gatherv(bytes.data(), mine, MPI_CHAR, out.data(), counts.data(), at.data(), MPI_CHAR, 0, comm_);
  return out;
}

std::vector<std::vector<char>> Ranks::exchange(const std::vector<std::vector<char>>& outgoing) const {
  if (!running_) return outgoing;
  const auto p = static_cast<std::size_t>(size_);
  std::vector<int> send_counts(p), receive_counts(p);
  for (std::size_t q = 0; q < p; ++q) send_counts[q] = static_cast<int>(outgoing[q].size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm_);
  std::vector<char> send;
  for (const std::vector<char>& part : outgoing) send.insert(send.end(), part.begin(), part.end());
  const std::vector<int> send_at = displacements(send_counts), receive_at = displacements(receive_counts);
  std::vector<char> received(static_cast<std::size_t>(receive_at.back() + receive_counts.back()));
  MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_CHAR, received.data(), receive_counts.data(),
                receive_at.data(), MPI_CHAR, comm_);
  std::vector<std::vector<char>> incoming(p);
  for (std::size_t q = 0; q < p; ++q)
    incoming[q].assign(received.begin() + receive_at[q], received.begin() + receive_at[q] + receive_counts[q]);
  return incoming;
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
