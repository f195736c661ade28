// Memory held by a vector, by its capacity (for memory_bytes reports).
#pragma once

#include <cstddef>
#include <vector>

namespace sphero {

template <class T>
std::size_t capacity_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace sphero
