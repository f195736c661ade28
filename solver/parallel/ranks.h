// The MPI ranks a run is spread over: starting and ending MPI when the
// program was launched by mpirun, and the few collective operations the
// distributed engine needs, with byte buffers for its records.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "parallel/byte_records.h"

namespace sphero {

// MPI for the life of the program, when mpirun (or another launcher of
// OpenMPI, MPICH or PMIx) started it; nothing otherwise, so that a plain
// `sphero` never pays for MPI's start-up.
class MpiRuntime {
 public:
  MpiRuntime(int& argc, char**& argv);
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;
  // Whether the environment says a launcher started this process.
  static bool launched();
  bool active() const { return active_; }

 private:
  bool active_ = false;
};

// MPI_COMM_WORLD as the engine sees it. Every call is collective unless
// said otherwise; an MPI error stops every rank with its message (MPI's
// default), never a hang.
class Ranks {
 public:
  Ranks();  // MPI_COMM_WORLD; one rank when MPI is not running
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  MPI_Comm comm() const { return comm_; }

  double max(double value) const;
  double min(double value) const;
  // Elementwise over every rank's values (the same length everywhere).
  std::vector<double> max(const std::vector<double>& values) const;
  std::vector<double> min(const std::vector<double>& values) const;
  // Elementwise sums of every rank's values (the same length everywhere).
  std::vector<double> sum(const std::vector<double>& values) const;
  std::vector<std::int64_t> sum(const std::vector<std::int64_t>& values) const;
  // Every rank's bytes, one after the other in rank order, on every rank.
  std::vector<char> all_gather(const std::vector<char>& bytes) const;
  // Every rank's bytes in rank order, on rank 0 only (empty elsewhere).
  std::vector<char> gather(const std::vector<char>& bytes) const;
  // outgoing[q] to rank q; returns what every rank sent here, in rank
  // order. (Taken by value: each part is let go once sent.) Buffers of any
  // size: beyond what an int counts, they travel in larger units.
  std::vector<std::vector<char>> exchange(std::vector<std::vector<char>> outgoing) const;
  // The bytes one MPI count stands for at most (2^30): larger buffers
  // travel in units of several bytes. Lowered by tests, to take that path
  // with small buffers.
  void limit_count_to(std::uint64_t bytes) { largest_count_ = bytes; }
  // Point to point, not collective: a rank other than 0 sends its bytes to
  // rank 0, which takes them from each rank in the order it chooses, so
  // that it holds one rank's bytes at a time. Any size, in pieces an int
  // counts.
  void send_to_root(const std::vector<char>& bytes) const;
  std::vector<char> receive_from(int rank) const;
  // `text` from rank `from` to every rank.
  std::string broadcast(const std::string& text, int from) const;
  // Ends every rank's run now with `message` printed by this one: the way
  // out of a failure one rank met alone, where the others would wait.
  [[noreturn]] void abort(const std::string& message) const;

 private:
  std::vector<double> reduce(const std::vector<double>& values, MPI_Op op) const;

  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0, size_ = 1;
  std::uint64_t largest_count_ = std::uint64_t{1} << 30;
  bool running_ = false;
};

}  // namespace sphero
