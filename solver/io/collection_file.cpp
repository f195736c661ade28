#include "io/collection_file.h"

#include <fmt/format.h>

#include <string>

#include "io/atomic_file.h"

namespace sphero {

void write_collection_atomically(const std::filesystem::path& pvd, const std::vector<CollectionEntry>& entries) {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const CollectionEntry& e : entries)
    xml += fmt::format("    <DataSet timestep=\"{}\" part=\"0\" file=\"{}\"/>\n", e.time, e.file);
  xml += "  </Collection>\n</VTKFile>\n";
  write_text_atomically(pvd, xml);
}

}  // namespace sphero
