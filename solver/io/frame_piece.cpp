#include "io/frame_piece.h"

#include <fmt/format.h>

namespace sphero {

bool FramePiece::writes_pair(const World& w, int a, int b) const {
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  if (w.is_wall[ua]) return writes(ub);
  if (w.is_wall[ub]) return writes(ua);
  return writes(w.id[ua] < w.id[ub] ? ua : ub);
}

std::string FramePiece::file_name(const std::string& field, int frame) const {
  if (whole()) return frame_stem(field, frame) + ".vtu";
  return fmt::format("{}_{}.vtu", frame_stem(field, frame), index);
}

std::string frame_stem(const std::string& field, int frame) { return fmt::format("{}_{:05d}", field, frame); }

}  // namespace sphero
