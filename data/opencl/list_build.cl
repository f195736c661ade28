// The neighbour list's rebuild on the device (docs/OPENCL.md): the
// skeletons placed, the grains binned into link cells, each searched grain's
// candidate feature pairs found as the CPU's FeaturePairFinder finds them
// (feature_pairs.cpp, skeleton_walk.h, skeleton_chunks.cpp, list_rebuild.cpp),
// then put in the canonical order of candidate_order.cpp, their contact
// state carried over from the previous list, merged with the kept part of
// a partial rebuild, and indexed per body. Every comparison is the CPU's
// operation for operation, so the list is the CPU's to the candidate.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// The skeletons as they now lie, and the shapes' fixed data.
#define SKELETON_ARGS                                                                                        \
  __global const double2 *world_vertex, __global const int *vertex_begin, __global const int *vertex_count, \
      __global const uchar *closed, __global const double2 *seam, const int has_seams,                      \
      __global const char *local_bend, __global const int *local_shift
#define SKELETON world_vertex, vertex_begin, vertex_count, closed, seam, has_seams, local_bend, local_shift

inline double dot2(double2 a, double2 b) { return a.x * b.x + a.y * b.y; }
inline double cross2(double2 a, double2 b) { return a.x * b.y - a.y * b.x; }
inline double norm2_of(double2 a) { return dot2(a, a); }
inline double norm_of(double2 a) { return sqrt(a.x * a.x + a.y * a.y); }
inline double2 scaled(double s, double2 a) { return (double2)(s * a.x, s * a.y); }

// geometry/segment.h.
double2 closest_point_on_segment(double2 p, double2 a, double2 b) {
  const double2 ab = b - a;
  const double len2 = norm2_of(ab);
  if (len2 == 0.0) return a;
  double t = dot2(p - a, ab) / len2;
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  return a + scaled(t, ab);
}
double distance_to_segment(double2 p, double2 a, double2 b) { return norm_of(p - closest_point_on_segment(p, a, b)); }

inline int edge_count(SKELETON_ARGS, int body) { return closed[body] ? vertex_count[body] : vertex_count[body] - 1; }
inline bool seamed(SKELETON_ARGS, int body) { return has_seams && (seam[body].x != 0.0 || seam[body].y != 0.0); }

// skeleton_walk.h.
typedef struct {
  int k;
  double2 shift;
} Along;

Along after(SKELETON_ARGS, int body, int k) {
  const int begin = vertex_begin[body], last = begin + vertex_count[body] - 1;
  Along a = {-1, (double2)(0.0, 0.0)};
  if (k < last) a.k = k + 1;
  else if (closed[body]) a.k = begin;
  else if (seamed(SKELETON, body)) a.k = begin + 1, a.shift = seam[body];
  return a;
}
Along before(SKELETON_ARGS, int body, int k) {
  const int begin = vertex_begin[body], last = begin + vertex_count[body] - 1;
  Along a = {-1, (double2)(0.0, 0.0)};
  if (k > begin) a.k = k - 1;
  else if (closed[body]) a.k = last;
  else if (seamed(SKELETON, body)) a.k = last - 1, a.shift = -seam[body];
  return a;
}
inline double2 position_of(SKELETON_ARGS, Along a) { return world_vertex[a.k] + a.shift; }

inline bool is_feature(SKELETON_ARGS, int body, int k) {
  return !seamed(SKELETON, body) || k != vertex_begin[body] + vertex_count[body] - 1;
}

bool has_inner_side(SKELETON_ARGS, int body, int k) {
  if (closed[body]) {
    const char bend = local_bend[k + local_shift[body]];
    if (bend != 0) return bend > 0;
  }
  const Along in = before(SKELETON, body, k), out = after(SKELETON, body, k);
  if (in.k < 0 || out.k < 0) return false;
  if (!closed[body]) return true;
  const double2 apex = world_vertex[k];
  return cross2(apex - position_of(SKELETON, in), position_of(SKELETON, out) - apex) < 0.0;
}

typedef struct {
  double along, side, length;
} InnerSide;

InnerSide inner_side(SKELETON_ARGS, int body, int corner, double2 apex, bool edge_ends_there, double2 u) {
  const InnerSide none = {-INFINITY, -INFINITY, 1.0};
  const double2 in = apex - position_of(SKELETON, before(SKELETON, body, corner));
  const double2 out = position_of(SKELETON, after(SKELETON, body, corner)) - apex;
  const double turn = cross2(in, out);
  if (turn == 0.0) return none;
  const double2 other = edge_ends_there ? out : -in;
  const double side = cross2(edge_ends_there ? out : in, u);
  const InnerSide s = {dot2(u, other), turn > 0.0 ? side : -side, norm_of(other)};
  return s;
}

// ---- Skeletons and chunk circles (world.cpp's update_body_vertices,
// skeleton_chunks.cpp's chunk_circles).

__kernel void place_vertices(const int n, __global const double2* position, __global const double2* orientation,
                             __global const int* vertex_begin, __global const int* vertex_count,
                             __global const int* local_shift, __global const double2* local_vertex,
                             __global double2* world_vertex) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const double2 p = position[i], cs = orientation[i];
  for (int k = vertex_begin[i]; k < vertex_begin[i] + vertex_count[i]; ++k) {
    const double2 v = local_vertex[k + local_shift[i]];
    world_vertex[k] = (double2)(p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y);
  }
}

#define CHUNK_EDGES 8

__kernel void chunk_circles(const int n, SKELETON_ARGS, __global const double* bounding_radius,
                            __global const int* chunk_first, __global double2* chunk_centre,
                            __global double* chunk_radius) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const int begin = vertex_begin[i], count = vertex_count[i];
  for (int c = 0; c < chunk_first[i + 1] - chunk_first[i]; ++c) {
    const int from = begin + c * CHUNK_EDGES, to = min(from + CHUNK_EDGES, begin + count);
    const int last_end = after(SKELETON, i, to - 1).k;
    double2 low = world_vertex[from], high = low;
    for (int v = from; v <= to; ++v) {
      if (v == to && last_end < 0) break;
      const double2 x = world_vertex[v == to ? last_end : v];
      low = (double2)(x.x < low.x ? x.x : low.x, x.y < low.y ? x.y : low.y);
      high = (double2)(high.x < x.x ? x.x : high.x, high.y < x.y ? x.y : high.y);
    }
    const double2 centre = scaled(0.5, low + high);
    double farthest = 0.0;
    for (int v = from; v <= to; ++v) {
      if (v == to && last_end < 0) break;
      const double d = norm2_of(world_vertex[v == to ? last_end : v] - centre);
      farthest = farthest < d ? d : farthest;
    }
    chunk_centre[chunk_first[i] + c] = centre;
    chunk_radius[chunk_first[i] + c] = sqrt(farthest) * (1.0 + 1e-9) + 1e-12 * bounding_radius[i];
  }
}

// ---- Link cells (link_cells.cpp): the grid is chosen on the host, which
// has the positions at a rebuild; the grains are binned here.

inline int cell_along(double coordinate, double origin, double width, int cells) {
  const int c = (int)floor((coordinate - origin) / width);
  return clamp(c, 0, cells - 1);
}

__kernel void bin_grains(const int count, __global const int* grains, __global const double2* position,
                         const double2 origin, const double2 width, const int2 cells, __global int* cell_of,
                         __global int* cell_count) {
  const int g = get_global_id(0);
  if (g >= count) return;
  const int i = grains[g];
  const int c = cell_along(position[i].x, origin.x, width.x, cells.x) +
                cells.x * cell_along(position[i].y, origin.y, width.y, cells.y);
  cell_of[i] = c;
  atomic_inc(cell_count + c);
}

// Members of a cell land in any order: the candidates they give are put in
// canonical order later, so only which bodies a cell holds matters.
__kernel void fill_cells(const int count, __global const int* grains, __global const int* cell_of,
                         __global int* cursor, __global int* members) {
  const int g = get_global_id(0);
  if (g >= count) return;
  const int i = grains[g];
  members[atomic_inc(cursor + cell_of[i])] = i;
}

// ---- The feature-pair finder (feature_pairs.cpp).

// What the search reads besides the skeletons: the bodies, the chunks'
// circles, the periodic cell and the skin.
#define SEARCH_ARGS                                                                                             \
  SKELETON_ARGS, __global const double2 *position, __global const double *radius,                              \
      __global const double *bounding_radius, __global const int *chunk_first,                                 \
      __global const double2 *chunk_centre, __global const double *chunk_radius, const double skin
#define SEARCH SKELETON, position, radius, bounding_radius, chunk_first, chunk_centre, chunk_radius, skin

// Where a finder puts what it finds: a count (and the count a skin half as
// thick would keep) and, when writing, the first `room` candidates from
// `at` on — keys (vertex body, edge body, vertex, feature, feature end,
// vertex–vertex, image) and shapes (reach, edge offset).
typedef struct {
  int found, halved;
} Tally;
#define OUT_ARGS                                                                                   \
  Tally *tally, const int writing, __global int8 *keys, __global double4 *shapes, const int at, \
      const int room
#define OUT tally, writing, keys, shapes, at, room

void push(SEARCH_ARGS, OUT_ARGS, int vb, int eb, int v, int f, int vertex_vertex, double2 offset, int2 image,
          bool half_too) {
  tally->halved += half_too ? 1 : 0;
  if (writing && tally->found < room) {
    const int end = vertex_vertex ? f : after(SKELETON, eb, f).k;
    keys[at + tally->found] = (int8)(vb, eb, v, f, end, vertex_vertex, image.x, image.y);
    shapes[at + tally->found] = (double4)(radius[vb] + radius[eb], offset.x, offset.y, 0.0);
  }
  tally->found += 1;
}

inline double skeleton_reach(SEARCH_ARGS, int b) {
  return (bounding_radius[b] - radius[b]) * (1.0 + 1e-9) + 1e-12 * bounding_radius[b];
}

// near_ranges: range r of body's vertices (or edges, up to end) worth
// scanning for features within reach of centre; false where its chunk is
// out of reach. Ranges 0 .. range_count - 1 in increasing order.
inline int range_count(SEARCH_ARGS, int body) { return max(1, chunk_first[body + 1] - chunk_first[body]); }
bool range_of(SEARCH_ARGS, int body, double2 offset, double2 centre, double reach, int end, int r, int* from,
              int* to) {
  const int begin = vertex_begin[body];
  if (chunk_first[body + 1] == chunk_first[body]) {
    *from = begin, *to = end;
    return true;
  }
  const int c = chunk_first[body] + r;
  const double within = chunk_radius[c] + reach;
  if (!(norm2_of(chunk_centre[c] + offset - centre) < within * within)) return false;
  *from = begin + r * CHUNK_EDGES, *to = min(begin + (r + 1) * CHUNK_EDGES, end);
  return true;
}

// near_vertices and near_edges, one feature at a time.
inline bool near_vertex(SEARCH_ARGS, int body, int v, double2 offset, double2 centre, double reach) {
  return norm2_of(world_vertex[v] + offset - centre) < reach * reach && is_feature(SKELETON, body, v);
}
inline bool near_edge(SEARCH_ARGS, int body, int start, double2 offset, double2 centre, double reach) {
  const double2 p = world_vertex[start] + offset, q = world_vertex[after(SKELETON, body, start).k] + offset;
  return norm2_of(centre - closest_point_on_segment(centre, p, q)) < reach * reach;
}

// Loops over the features of `body` near `centre`, as near_vertices and
// near_edges select them.
#define FOR_NEAR(body, offset, centre, reach, end, x, NEAR, ...)                                     \
  for (int r_##x = 0; r_##x < range_count(SEARCH, body); ++r_##x) {                               \
    int from_##x, to_##x;                                                                          \
    if (!range_of(SEARCH, body, offset, centre, reach, end, r_##x, &from_##x, &to_##x)) continue; \
    for (int x = from_##x; x < to_##x; ++x) {                                                      \
      if (!NEAR(SEARCH, body, x, offset, centre, reach)) continue;                                 \
      __VA_ARGS__                                                                                  \
    }                                                                                              \
  }
#define VERTEX_END(body) (vertex_begin[body] + vertex_count[body])
#define EDGE_END(body) (vertex_begin[body] + edge_count(SKELETON, body))

bool near_cone(SEARCH_ARGS, int body, int k, double2 offset, double2 p, double slack) {
  const double2 apex = world_vertex[k] + offset;
  const Along around[2] = {after(SKELETON, body, k), before(SKELETON, body, k)};
  for (int m = 0; m < 2; ++m) {
    if (around[m].k < 0) continue;
    const double2 along = world_vertex[around[m].k] + around[m].shift + offset - apex;
    if (dot2(p - apex, along) > slack * norm_of(along)) return false;
  }
  return true;
}

bool near_inner_side(SEARCH_ARGS, int body, int corner, bool edge_ends_there, double2 x, double2 offset,
                     double slack) {
  if (!has_inner_side(SKELETON, body, corner)) return false;
  const double2 apex = world_vertex[corner];
  const InnerSide s = inner_side(SKELETON, body, corner, apex, edge_ends_there, x - (apex + offset));
  return s.along > -slack * s.length && s.side > -slack * s.length;
}

inline bool within_half_skin(double apart, double cutoff, double skin) {
  const double reach = cutoff - skin / 2.0;
  return apart < reach * reach;
}

// add_vertices_on_edges: the vertices of vb selected near centre_v (vb
// moved by offset_v) against the edges of eb selected near centre_e (eb
// moved by offset_e), eb's image moved by offset from vb.
void add_vertices_on_edges(SEARCH_ARGS, OUT_ARGS, int vb, double2 offset_v, double2 centre_v, double reach_v, int eb,
                           double2 offset_e, double2 centre_e, double reach_e, double2 offset, int2 image,
                           double cutoff) {
  FOR_NEAR(eb, offset_e, centre_e, reach_e, EDGE_END(eb), start, near_edge, {
    const int end = after(SKELETON, eb, start).k;
    const double2 p = world_vertex[start] + offset, q = world_vertex[end] + offset;
    const double2 edge = q - p;
    const double length = norm_of(edge);
    const double slack = skin + (length + cutoff) * (skin / 2.0) / bounding_radius[eb];
    const double lowest = -slack * length, highest = length * (length + slack);
    FOR_NEAR(vb, offset_v, centre_v, reach_v, VERTEX_END(vb), v, near_vertex, {
      const double2 x = world_vertex[v];
      const double side = cross2(edge, x - p);
      if (fabs(side) >= cutoff * length) continue;
      if (closed[eb] && side > slack * length) continue;
      const double apart = norm2_of(x - closest_point_on_segment(x, p, q));
      if (!(apart < cutoff * cutoff)) continue;
      const double along = dot2(x - p, edge);
      const bool listed = along > lowest
                              ? (along < highest || near_inner_side(SEARCH, eb, end, true, x, offset, slack))
                              : near_inner_side(SEARCH, eb, start, false, x, offset, slack);
      if (listed) push(SEARCH, OUT, vb, eb, v, start, 0, offset, image, within_half_skin(apart, cutoff, skin));
    })
  })
}

void add_vertex_corner_pairs(SEARCH_ARGS, OUT_ARGS, int a, int b, double2 shift, int2 image, double cutoff,
                             double reach_a, double reach_b) {
  const double2 none = (double2)(0.0, 0.0);
  const double turn = skin / 2.0 * (1.0 / bounding_radius[a] + 1.0 / bounding_radius[b]);
  const double slack = skin + cutoff * turn;
  const bool a_point = vertex_count[a] == 1, b_point = vertex_count[b] == 1;
  const double2 centre_a = position[b] + shift, centre_b = position[a];
  FOR_NEAR(a, none, centre_a, reach_b, VERTEX_END(a), v, near_vertex, {
    FOR_NEAR(b, shift, centre_b, reach_a, VERTEX_END(b), u, near_vertex, {
      const double2 other = world_vertex[u] + shift;
      const double apart = norm2_of(other - world_vertex[v]);
      if (!(apart < cutoff * cutoff)) continue;
      const bool half_too = within_half_skin(apart, cutoff, skin);
      if (a_point && b_point) {
        push(SEARCH, OUT, a, b, v, u, 1, shift, image, half_too);
        continue;
      }
      if (!b_point && near_cone(SEARCH, b, u, shift, world_vertex[v], slack))
        push(SEARCH, OUT, a, b, v, u, 1, shift, image, half_too);
      if (!a_point && near_cone(SEARCH, a, v, none, other, slack))
        push(SEARCH, OUT, b, a, u, v, 1, -shift, -image, half_too);
    })
  })
}

// FeaturePairFinder::add_pair (with contact lists); returns whether it
// listed any.
bool add_pair(SEARCH_ARGS, OUT_ARGS, int a, int b, double2 shift, int2 image) {
  const int before_count = tally->found;
  const double cutoff = radius[a] + radius[b] + skin;
  const double reach_a = skeleton_reach(SEARCH, a) + cutoff, reach_b = skeleton_reach(SEARCH, b) + cutoff;
  const double2 none = (double2)(0.0, 0.0);
  const double2 centre_a = position[b] + shift, centre_b = position[a];  // around which a's (b's) features lie
  bool any = false;
  FOR_NEAR(a, none, centre_a, reach_b, VERTEX_END(a), v, near_vertex, { any = true; break; })
  if (!any) FOR_NEAR(b, shift, centre_b, reach_a, VERTEX_END(b), u, near_vertex, { any = true; break; })
  if (!any) return false;
  add_vertices_on_edges(SEARCH, OUT, a, none, centre_a, reach_b, b, shift, centre_b, reach_a, shift, image, cutoff);
  add_vertices_on_edges(SEARCH, OUT, b, shift, centre_b, reach_a, a, none, centre_a, reach_b, -shift, -image, cutoff);
  add_vertex_corner_pairs(SEARCH, OUT, a, b, shift, image, cutoff, reach_a, reach_b);
  return tally->found > before_count;
}

double skeleton_distance(SEARCH_ARGS, int b, double2 offset, double2 p) {
  if (vertex_count[b] == 1) return norm_of(world_vertex[vertex_begin[b]] + offset - p);
  double d = INFINITY;
  for (int e = 0; e < edge_count(SKELETON, b); ++e) {
    const int start = vertex_begin[b] + e;
    const double x = distance_to_segment(p, world_vertex[start] + offset,
                                         world_vertex[after(SKELETON, b, start).k] + offset);
    d = x < d ? x : d;
  }
  return d;
}

// ---- The pair search (list_rebuild.cpp's PairSearch).

// What the periodic cell and the rebuild add: the wraps (int2 per body),
// which bodies a partial rebuild relists, the link cells and the walls.
#define PAIR_ARGS                                                                                                   \
  const int2 periodic, const double2 period, __global const int2 *wraps, const int partial,                      \
      __global const uchar *relisted, const int2 cells, __global const int *cell_of, __global const int *cell_start, \
      __global const int *members, const int wall_count, __global const int *walls, __global const int2 *wall_periods
#define PAIR periodic, period, wraps, partial, relisted, cells, cell_of, cell_start, members, wall_count, walls, \
             wall_periods

// minimum_image and within_reach, for bodies i < j.
bool within_reach(SEARCH_ARGS, PAIR_ARGS, int i, int j, double2* shift, int2* image) {
  double s[2] = {0.0, 0.0};
  int m[2] = {0, 0};
  const int per[2] = {periodic.x, periodic.y};
  const double L[2] = {period.x, period.y};
  const double gaps[2] = {position[j].x - position[i].x, position[j].y - position[i].y};
  const int wj[2] = {wraps[j].x, wraps[j].y}, wi[2] = {wraps[i].x, wraps[i].y};
  for (int axis = 0; axis < 2; ++axis) {
    if (!per[axis]) continue;
    const double k = -round(gaps[axis] / L[axis]);
    s[axis] = k * L[axis];
    m[axis] = (int)k - wj[axis] + wi[axis];
  }
  *shift = (double2)(s[0], s[1]);
  *image = (int2)(m[0], m[1]);
  return norm_of(position[j] + *shift - position[i]) < bounding_radius[i] + bounding_radius[j] + skin;
}

inline bool decided_from(PAIR_ARGS, int i, int j) {
  if (j == i) return false;
  if (!partial) return j > i;
  return !relisted[j] || j > i;
}

// The candidates of grain i: its pairs with the grains of the 3 × 3 cells
// around it (each cell once), then with every wall through each periodic
// image that can reach it. Returns the body pairs that listed any.
int search_grain(SEARCH_ARGS, PAIR_ARGS, OUT_ARGS, int i) {
  int pairs = 0;
  const int own = cell_of[i];
  const int cx = own % cells.x, cy = own / cells.x;
  int seen[9];
  int seen_count = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int nx = cx + dx, ny = cy + dy;
      if (periodic.x) nx = (nx % cells.x + cells.x) % cells.x;
      if (periodic.y) ny = (ny % cells.y + cells.y) % cells.y;
      if (nx < 0 || ny < 0 || nx >= cells.x || ny >= cells.y) continue;
      const int cell = nx + cells.x * ny;
      bool again = false;
      for (int m = 0; m < seen_count; ++m) again |= seen[m] == cell;
      if (again) continue;
      seen[seen_count++] = cell;
      for (int k = cell_start[cell]; k < cell_start[cell + 1]; ++k) {
        const int j = members[k];
        if (!decided_from(PAIR, i, j)) continue;
        const int low = min(i, j), high = max(i, j);
        double2 shift;
        int2 image;
        if (!within_reach(SEARCH, PAIR, low, high, &shift, &image)) continue;
        pairs += add_pair(SEARCH, OUT, low, high, shift, image) ? 1 : 0;
      }
    }
  for (int k = 0; k < wall_count; ++k) {
    const int b = walls[k];
    const int2 h = wall_periods[k];
    for (int ix = h.x - 1; ix <= h.x + 1; ++ix) {
      if (ix != h.x && !periodic.x) continue;
      for (int iy = h.y - 1; iy <= h.y + 1; ++iy) {
        if (iy != h.y && !periodic.y) continue;
        const double2 shift = (double2)(ix * period.x, iy * period.y);
        if (skeleton_distance(SEARCH, b, shift, position[i]) >= bounding_radius[i] + radius[b] + skin) continue;
        pairs += add_pair(SEARCH, OUT, i, b, shift, (int2)(ix + wraps[i].x, iy + wraps[i].y)) ? 1 : 0;
      }
    }
  }
  return pairs;
}

// Pass 1: each searched grain writes its candidates into slots of its own
// (`room` of them) and counts them all, with its pairs and those a half
// skin keeps. gather_slots then moves the slots of the grains whose
// candidates fitted to the counts' prefix sums; write_candidates searches
// again, whole, the few that did not fit. The same code each time: the same
// candidates.
__kernel void find_candidates(const int count, __global const int* searched, SEARCH_ARGS, PAIR_ARGS,
                              const int room, __global int* found, __global int* pairs, __global int* halved,
                              __global int8* slot_keys, __global double4* slot_shapes) {
  const int s = get_global_id(0);
  if (s >= count) return;
  Tally tally = {0, 0};
  pairs[s] = search_grain(SEARCH, PAIR, &tally, 1, slot_keys, slot_shapes, s * room, room, searched[s]);
  found[s] = tally.found;
  halved[s] = tally.halved;
}

// offset: the prefix sums of the counts; overflowed: 1 where a grain's
// candidates did not fit its slots.
__kernel void gather_slots(const int count, const int room, __global const int* offset,
                           __global const int8* slot_keys, __global const double4* slot_shapes, __global int8* keys,
                           __global double4* shapes, __global int* overflowed) {
  const int s = get_global_id(0);
  if (s >= count) return;
  const int m = offset[s + 1] - offset[s];
  overflowed[s] = m > room ? 1 : 0;
  if (m > room) return;
  for (int k = 0; k < m; ++k) keys[offset[s] + k] = slot_keys[s * room + k], shapes[offset[s] + k] = slot_shapes[s * room + k];
}

// at: the prefix sums of gather_slots' flags; the overflowed grains' indices, in order.
__kernel void list_overflowed(const int count, __global const int* at, __global int* which) {
  const int s = get_global_id(0);
  if (s < count && at[s + 1] > at[s]) which[at[s]] = s;
}

__kernel void write_candidates(const int count, __global const int* which, __global const int* searched,
                               SEARCH_ARGS, PAIR_ARGS, __global const int* offset, __global int8* keys,
                               __global double4* shapes) {
  const int j = get_global_id(0);
  if (j >= count) return;
  const int s = which[j];
  Tally tally = {0, 0};
  search_grain(SEARCH, PAIR, &tally, 1, keys, shapes, offset[s], INT_MAX, searched[s]);
}

// ---- The canonical order (candidate_order.cpp).

// sort_key as a ulong4: three words compared in turn, the fourth free (a
// candidate's index while sorting).
ulong biased(int v) { return ((ulong)((long)v + (1 << 23))) & 0xFFFFFF; }
ulong4 sort_key(int8 c, uint index) {
  const bool vertex_first = c.s0 < c.s1;
  const uint low = (uint)(vertex_first ? c.s0 : c.s1), high = (uint)(vertex_first ? c.s1 : c.s0);
  const int sign = vertex_first ? 1 : -1;
  return (ulong4)(((ulong)low << 32) | high,
                  (biased(sign * c.s6) << 40) | (biased(sign * c.s7) << 16) | ((ulong)c.s5 << 1) |
                      (vertex_first ? 0ul : 1ul),
                  ((ulong)(uint)c.s2 << 32) | (ulong)(uint)c.s3, (ulong)index);
}
inline bool key_less(ulong4 a, ulong4 b) {
  return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z);
}
inline bool key_equal(ulong4 a, ulong4 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// Bucket by the lower body (a counting sort), then sort each bucket whole:
// the order of one sort of all the keys.
__kernel void count_buckets(const int count, __global const int8* keys, __global int* bucket_count) {
  const int k = get_global_id(0);
  if (k >= count) return;
  atomic_inc(bucket_count + min(keys[k].s0, keys[k].s1));
}

__kernel void fill_buckets(const int count, __global const int8* keys, __global int* cursor, __global ulong4* entries) {
  const int k = get_global_id(0);
  if (k >= count) return;
  entries[atomic_inc(cursor + min(keys[k].s0, keys[k].s1))] = sort_key(keys[k], (uint)k);
}

// Heapsort of a[0 .. m) by LESS, one work-item a segment: a bucket can be
// a wall's thousands of candidates.
#define HEAPSORT(name, type, LESS)                                        \
  void name##_sift_down(__global type* a, int root, int end) {            \
    while (2 * root + 1 < end) {                                          \
      int child = 2 * root + 1;                                           \
      if (child + 1 < end && LESS(a[child], a[child + 1])) ++child;       \
      if (!LESS(a[root], a[child])) return;                               \
      const type t = a[root];                                             \
      a[root] = a[child], a[child] = t;                                   \
      root = child;                                                       \
    }                                                                     \
  }                                                                       \
  void name(__global type* a, int m) {                                    \
    for (int root = m / 2 - 1; root >= 0; --root) name##_sift_down(a, root, m); \
    for (int end = m - 1; end > 0; --end) {                               \
      const type t = a[0];                                                \
      a[0] = a[end], a[end] = t;                                          \
      name##_sift_down(a, 0, end);                                        \
    }                                                                     \
  }
#define INT_LESS(x, y) ((x) < (y))
HEAPSORT(sort_keys, ulong4, key_less)
HEAPSORT(sort_ints, int, INT_LESS)

__kernel void sort_buckets(const int n, __global const int* start, __global ulong4* entries) {
  const int b = get_global_id(0);
  if (b < n) sort_keys(entries + start[b], start[b + 1] - start[b]);
}

// Binary search: the index of the first of the m sorted keys not less than key.
int lower_bound(__global const ulong4* sorted, int m, ulong4 key) {
  int low = 0, high = m;
  while (low < high) {
    const int mid = low + (high - low) / 2;
    if (key_less(sorted[mid], key)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// The found candidates in canonical order, each with the state (and
// flags) of its equal in the previous list where there is one.
#define STATE_RECORD 12
__kernel void order_and_carry_over(const int count, __global const ulong4* entries, __global const int8* found_keys,
                                   __global const double4* found_shapes, const int previous_count,
                                   __global const ulong4* previous_sort_keys, __global const double* previous_states,
                                   __global int8* keys, __global double4* shapes, __global double* states,
                                   __global ulong4* sort_keys) {
  const int k = get_global_id(0);
  if (k >= count) return;
  const ulong4 e = entries[k];
  keys[k] = found_keys[e.w];
  shapes[k] = found_shapes[e.w];
  sort_keys[k] = (ulong4)(e.x, e.y, e.z, 0ul);
  const int o = lower_bound(previous_sort_keys, previous_count, e);
  const bool carried = o < previous_count && key_equal(previous_sort_keys[o], e);
  for (int r = 0; r < STATE_RECORD; ++r)
    states[STATE_RECORD * k + r] = carried ? previous_states[STATE_RECORD * o + r] : 0.0;
}

// ---- A partial rebuild's merge (merge_kept): the previous candidates of
// pairs neither of whose bodies was relisted, and the fresh ones, each in
// canonical order, into one list.
__kernel void mark_kept(const int count, __global const int8* keys, __global const uchar* relisted, __global int* kept) {
  const int k = get_global_id(0);
  if (k >= count) return;
  kept[k] = relisted[keys[k].s0] || relisted[keys[k].s1] ? 0 : 1;
}

// kept_at: the prefix sums of mark_kept's flags (a kept candidate's rank).
__kernel void merge_kept(const int count, __global const int* kept_at, __global const int8* keys,
                         __global const double4* shapes, __global const double* states,
                         __global const ulong4* sort_keys, const int fresh_count, __global const ulong4* fresh_sort_keys,
                         __global int8* out_keys, __global double4* out_shapes, __global double* out_states) {
  const int k = get_global_id(0);
  if (k >= count || kept_at[k + 1] == kept_at[k]) return;
  const int to = kept_at[k] + lower_bound(fresh_sort_keys, fresh_count, sort_keys[k]);
  out_keys[to] = keys[k], out_shapes[to] = shapes[k];
  for (int r = 0; r < STATE_RECORD; ++r) out_states[STATE_RECORD * to + r] = states[STATE_RECORD * k + r];
}

// Each fresh candidate goes after the kept ones below it: kept_keys are
// the previous list's keys, kept_at their ranks among the kept.
__kernel void merge_fresh(const int fresh_count, __global const int8* keys, __global const double4* shapes,
                          __global const double* states, __global const ulong4* sort_keys, const int previous_count,
                          __global const ulong4* previous_sort_keys, __global const int* kept_at,
                          __global int8* out_keys, __global double4* out_shapes, __global double* out_states) {
  const int k = get_global_id(0);
  if (k >= fresh_count) return;
  const int to = k + kept_at[lower_bound(previous_sort_keys, previous_count, sort_keys[k])];
  out_keys[to] = keys[k], out_shapes[to] = shapes[k];
  for (int r = 0; r < STATE_RECORD; ++r) out_states[STATE_RECORD * to + r] = states[STATE_RECORD * k + r];
}

// ---- Each body's candidates in increasing order (index_bodies).

__kernel void count_incidence(const int count, __global const int8* keys, __global int* body_count) {
  const int k = get_global_id(0);
  if (k >= count) return;
  atomic_inc(body_count + keys[k].s0);
  atomic_inc(body_count + keys[k].s1);
}

__kernel void fill_incidence(const int count, __global const int8* keys, __global int* cursor, __global int* incident) {
  const int k = get_global_id(0);
  if (k >= count) return;
  incident[atomic_inc(cursor + keys[k].s0)] = k;
  incident[atomic_inc(cursor + keys[k].s1)] = k;
}

__kernel void sort_incidence(const int n, __global const int* start, __global int* incident) {
  const int b = get_global_id(0);
  if (b < n) sort_ints(incident + start[b], start[b + 1] - start[b]);
}

// ---- Exclusive prefix sums of int arrays, in place: blocks scanned each
// by one work-item, the blocks' totals by one, then added back. totals
// holds blocks + 1 entries, the last the whole sum.
__kernel void scan_blocks(const int count, __global int* data, const int block, __global int* totals) {
  const int g = get_global_id(0);
  const int first = g * block;
  if (first >= count) return;
  int sum = 0;
  for (int i = first; i < min(count, first + block); ++i) {
    const int v = data[i];
    data[i] = sum;
    sum += v;
  }
  totals[g] = sum;
}

__kernel void scan_totals(const int blocks, __global int* totals) {
  if (get_global_id(0) != 0) return;
  int sum = 0;
  for (int b = 0; b < blocks; ++b) {
    const int v = totals[b];
    totals[b] = sum;
    sum += v;
  }
  totals[blocks] = sum;
}

__kernel void add_block_offsets(const int count, __global int* data, const int block, __global const int* totals) {
  const int i = get_global_id(0);
  if (i >= count) return;
  data[i] += totals[i / block];
}

// The sort keys of a list already in canonical order (the previous one).
__kernel void list_sort_keys(const int count, __global const int8* keys, __global ulong4* sort_keys) {
  const int k = get_global_id(0);
  if (k < count) sort_keys[k] = sort_key(keys[k], 0u);
}
