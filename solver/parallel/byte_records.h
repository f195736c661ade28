// Plain records as bytes, and memory let go at once: what ranks send each
// other and what a checkpoint in parts is made of. No MPI here.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

namespace sphero {

// Lets a vector's memory go now (clear() and `= {}` keep its capacity).
template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// Plain records to bytes and back (trivially copyable types only).
template <class T>
void append_bytes(std::vector<char>& bytes, const std::vector<T>& records) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = bytes.size();
  bytes.resize(at + records.size() * sizeof(T));
  if (!records.empty()) std::memcpy(bytes.data() + at, records.data(), records.size() * sizeof(T));
}
template <class T>
std::vector<T> records_of(const std::vector<char>& bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> records(bytes.size() / sizeof(T));
  if (!records.empty()) std::memcpy(records.data(), bytes.data(), records.size() * sizeof(T));
  return records;
}

}  // namespace sphero
