// What the OpenCL backend's tests share: where the kernels are, and a
// comparison to the bit.
#pragma once

#include <cstring>
#include <filesystem>
#include <vector>

namespace sphero::opencl_test {

inline const std::filesystem::path kKernels = SPHERO_DATA_DIR "/opencl";

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace sphero::opencl_test
