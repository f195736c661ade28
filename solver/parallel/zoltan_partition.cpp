#include "parallel/zoltan_partition.h"

#include <zoltan.h>

#include <stdexcept>
#include <string>

namespace sphero {
namespace {

struct Objects {
  const std::vector<unsigned long>* ids;
  const std::vector<Vec2>* points;
  const std::vector<float>* weights;
};

int count(void* data, int* error) {
  *error = ZOLTAN_OK;
  return static_cast<int>(static_cast<Objects*>(data)->ids->size());
}

void list(void* data, int /*gid_entries*/, int /*lid_entries*/, ZOLTAN_ID_PTR global, ZOLTAN_ID_PTR local, int /*dim*/,
          float* weights, int* error) {
  const Objects& o = *static_cast<Objects*>(data);
  for (std::size_t k = 0; k < o.ids->size(); ++k) {
    global[k] = static_cast<ZOLTAN_ID_TYPE>((*o.ids)[k]);
    local[k] = static_cast<ZOLTAN_ID_TYPE>(k);
    weights[k] = (*o.weights)[k];
  }
  *error = ZOLTAN_OK;
}

int dimensions(void* /*data*/, int* error) {
  *error = ZOLTAN_OK;
  return 2;
}

void coordinates(void* data, int /*gid_entries*/, int /*lid_entries*/, int n, ZOLTAN_ID_PTR /*global*/,
                 ZOLTAN_ID_PTR local, int /*dim*/, double* xy, int* error) {
  const Objects& o = *static_cast<Objects*>(data);
  for (int k = 0; k < n; ++k) {
    const Vec2 p = (*o.points)[local[k]];
    xy[2 * k] = p.x;
    xy[2 * k + 1] = p.y;
  }
  *error = ZOLTAN_OK;
}

void check(int code, const char* what) {
  if (code != ZOLTAN_OK && code != ZOLTAN_WARN)
    throw std::runtime_error(std::string("Zoltan could not partition the bodies (") + what + " failed)");
}

}  // namespace

std::vector<int> partition_bodies(const Ranks& ranks, const std::vector<unsigned long>& ids,
                                  const std::vector<Vec2>& points, const std::vector<float>& weights,
                                  const char* method) {
  std::vector<int> owner(ids.size(), ranks.rank());
  if (ranks.size() == 1) return owner;
  static const bool initialised = [] {
    float version = 0.0f;
    return Zoltan_Initialize(0, nullptr, &version) == ZOLTAN_OK;
  }();
  if (!initialised) throw std::runtime_error("Zoltan could not be initialised");
  Zoltan_Struct* zz = Zoltan_Create(ranks.comm());
  Objects objects{&ids, &points, &weights};
  // Quiet first: at its default level Zoltan prints the method it is given.
  for (const auto& [key, value] : {std::pair{"DEBUG_LEVEL", "0"},
                                   {"LB_METHOD", method},
                                   {"NUM_GID_ENTRIES", "1"},
                                   {"NUM_LID_ENTRIES", "1"},
                                   {"OBJ_WEIGHT_DIM", "1"},
                                   {"RETURN_LISTS", "EXPORT"},
                                   {"IMBALANCE_TOL", "1.05"}})
    Zoltan_Set_Param(zz, key, value);
  Zoltan_Set_Num_Obj_Fn(zz, count, &objects);
  Zoltan_Set_Obj_List_Fn(zz, list, &objects);
  Zoltan_Set_Num_Geom_Fn(zz, dimensions, &objects);
  Zoltan_Set_Geom_Multi_Fn(zz, coordinates, &objects);
  int changes = 0, gid_entries = 0, lid_entries = 0, imports = 0, exports = 0;
  ZOLTAN_ID_PTR import_global = nullptr, import_local = nullptr, export_global = nullptr, export_local = nullptr;
  int *import_procs = nullptr, *import_parts = nullptr, *export_procs = nullptr, *export_parts = nullptr;
  const int code = Zoltan_LB_Partition(zz, &changes, &gid_entries, &lid_entries, &imports, &import_global,
                                       &import_local, &import_procs, &import_parts, &exports, &export_global,
                                       &export_local, &export_procs, &export_parts);
  if (code == ZOLTAN_OK || code == ZOLTAN_WARN)
    for (int k = 0; k < exports; ++k) owner[export_local[k]] = export_parts[k];
  Zoltan_LB_Free_Part(&import_global, &import_local, &import_procs, &import_parts);
  Zoltan_LB_Free_Part(&export_global, &export_local, &export_procs, &export_parts);
  Zoltan_Destroy(&zz);
  check(code, "Zoltan_LB_Partition");
  return owner;
}

}  // namespace sphero
