// A .pvd collection: the data sets of a time series with their times,
// which ParaView opens as one time-aware source.
#pragma once

#include <filesystem>
#include <vector>

#include "io/frame_reader.h"

namespace sphero {

// Written whole or not at all; file names relative to the collection's folder.
void write_collection_atomically(const std::filesystem::path& pvd, const std::vector<CollectionEntry>& entries);

}  // namespace sphero
