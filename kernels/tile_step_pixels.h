// The per-pixel step of a tile (grow_tiles.cl, RGX_TILE_BITS 0): any rule
// of eligibility, the tile's stamps and labels in local memory. Included by
// grow_tiles.cl after the helpers both steps share.
#ifndef RGX_TILE_STEP_PIXELS_H
#define RGX_TILE_STEP_PIXELS_H

// Local memory of one work-group.
typedef struct {
    uint stamp[PITCH * PITCH];    // the tile and its halo
    ushort label[PITCH * PITCH];
    uint grew[3];                 // set when level (slot) classified a pixel
    uint next_level;              // the next halo stamp to start from
    uint edges;                   // bit d: a changed pixel borders neighbour tile d
    uint changed;
    uint queued;                  // the round's tile count, broadcast to the group
    uint first;                   // the group's first tile of the round
    uint verdict;                 // of the grid barrier
} TileScratch;

// Recomputes one tile from its halo and its seeds, writes what changed and
// queues the neighbouring tiles that a changed edge pixel borders.
inline void grow_tile(const uint tile, const uint round, const int width, const int height,
                      const uint tiles_x, const uint tiles_y,
                      __global const ushort* luma,
                      volatile __global ushort* labels,
                      volatile __global uint* stamps,
                      __global const uint* seed_luma, const uint region_total,
                      const uint lower, const uint upper, const uint mode,
                      const uint rule_all, const int connectivity, const uint cap, const uint horizon,
                      volatile __global uint* tile_mark,
                      volatile __global uint* next_list,
                      volatile __global uint* deferred_list,
                      volatile __global uint* counters,
                      volatile __global uint* ring_rows, const uint alone,
                      __local TileScratch* scratch)
{
    (void)ring_rows; // the ring step's
    (void)alone;     // the bitmap step's
    const int lid = (int)get_local_id(0);
    const int tile_x = (int)(tile % tiles_x);
    const int tile_y = (int)(tile / tiles_x);
    const int x0 = tile_x * SIDE;
    const int y0 = tile_y * SIDE;
    const bool one_region = region_total == 1;

    // The tile as global memory holds it now, and its luma.
    uint old_stamp[OWN];
    ushort old_label[OWN];
    uint value[OWN];
    uint fixed_region[OWN]; // rule all: the region the luma alone decides
    uint todo = 0;          // bit j: pixel j may still be classified in this tile
    for (int j = 0; j < OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int px = index % SIDE, py = index / SIDE;
        const int x = x0 + px, y = y0 + py;
        const bool inside = x < width && y < height;
        const uint g = inside ? (uint)y * (uint)width + (uint)x : 0;
        old_stamp[j] = inside ? stamps[g] : UNCLASSIFIED;
        old_label[j] = inside ? labels[g] : 0;
        value[j] = inside ? luma[g] : 0;
        const bool seed = old_stamp[j] == 0;
        scratch->stamp[(py + 1) * PITCH + px + 1] = seed ? 0 : UNCLASSIFIED;
        scratch->label[(py + 1) * PITCH + px + 1] = seed ? old_label[j] : 0;
        fixed_region[j] = 0;
        bool possible = inside && !seed;
        if (possible && mode == RGX_MODE_RANGE && (one_region || rule_all)) {
            fixed_region[j] = first_region_in_range(value[j], seed_luma, region_total, lower, upper);
            possible = fixed_region[j] != 0;
        }
        if (possible)
            todo |= 1u << j;
    }
    uint halo_stamp[HALO_OWN];
    for (int j = 0; j < HALO_OWN; ++j) {
        const int h = lid + j * RGX_WG_SIZE;
        halo_stamp[j] = UNCLASSIFIED;
        if (h < HALO) {
            const int2 at = halo_position(h);
            const int x = x0 + at.x, y = y0 + at.y;
            const bool inside = x >= 0 && y >= 0 && x < width && y < height;
            const uint g = inside ? (uint)y * (uint)width + (uint)x : 0;
            halo_stamp[j] = inside ? stamps[g] : UNCLASSIFIED;
            scratch->stamp[(at.y + 1) * PITCH + at.x + 1] = halo_stamp[j];
            scratch->label[(at.y + 1) * PITCH + at.x + 1] = inside ? labels[g] : 0;
        }
    }
    if (lid == 0) {
        scratch->next_level = UNCLASSIFIED;
        scratch->edges = 0;
        scratch->changed = 0;
        scratch->grew[0] = scratch->grew[1] = scratch->grew[2] = 0;
    }
    // The tile, its halo and the scratch words are in place.
    barrier(CLK_LOCAL_MEM_FENCE);

    // The first level: 0 with a seed in the tile, else the smallest halo stamp.
    for (int j = 0; j < OWN; ++j)
        if (old_stamp[j] == 0)
            atomic_min(&scratch->next_level, 0u);
    for (int j = 0; j < HALO_OWN; ++j)
        if (halo_stamp[j] != UNCLASSIFIED)
            atomic_min(&scratch->next_level, halo_stamp[j]);
    // Every work-item has offered its candidates for the first level.
    barrier(CLK_LOCAL_MEM_FENCE);
    uint level = scratch->next_level;

    // SPEC.md's iterations inside the tile: level -> level + 1, up to the
    // window's last level.
    const uint last_level = min(cap, horizon);
    while (level != UNCLASSIFIED && level < last_level) {
        // Read: which of my pixels join at level + 1, and which region.
        uint joining = 0;
        uint joined_region[OWN];
        for (int j = 0; j < OWN; ++j) {
            joined_region[j] = 0;
            if ((todo & (1u << j)) == 0)
                continue;
            const int index = lid + j * RGX_WG_SIZE;
            const int at = (index / SIDE + 1) * PITCH + index % SIDE + 1;
            bool candidate = false;
            uint eligible[8];
            uint eligible_count = 0;
            for (int d = 0; d < connectivity; ++d) {
                const int n = at + neighbour_dy[d] * PITCH + neighbour_dx[d];
                const uint stamp = scratch->stamp[n];
                candidate |= stamp == level;
                if (stamp <= level)
                    eligible[eligible_count++] = scratch->label[n];
            }
            if (!candidate)
                continue;
            uint k;
            if (mode != RGX_MODE_RANGE)
                k = 1; // competitive with one region: the lone candidate wins
            else if (one_region || rule_all)
                k = fixed_region[j];
            else
                k = smallest_region_in_range(value[j], eligible, eligible_count, seed_luma,
                                             region_total, lower, upper);
            if (k != 0) {
                joined_region[j] = k;
                joining |= 1u << j;
            }
        }
        // Every work-item has read the neighbours of this level before any
        // of them is overwritten.
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint slot = level % 3;
        if (lid == 0)
            scratch->grew[(level + 1) % 3] = 0; // read two levels ago, reused next level
        for (int j = 0; j < OWN; ++j) {
            if ((joining & (1u << j)) == 0)
                continue;
            const int index = lid + j * RGX_WG_SIZE;
            const int at = (index / SIDE + 1) * PITCH + index % SIDE + 1;
            scratch->stamp[at] = level + 1;
            scratch->label[at] = (ushort)joined_region[j];
        }
        todo &= ~joining;
        if (joining != 0)
            atomic_or(&scratch->grew[slot], 1u);
        // The level's pixels are in place before the next level reads them.
        barrier(CLK_LOCAL_MEM_FENCE);
        if (scratch->grew[slot]) {
            level += 1;
            continue;
        }
        // A quiet level: nothing more grows inside the tile until the next
        // halo pixel joins, if any does.
        if (lid == 0)
            scratch->next_level = UNCLASSIFIED;
        // Nobody reads next_level from the last quiet level any more.
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < HALO_OWN; ++j)
            if (halo_stamp[j] != UNCLASSIFIED && halo_stamp[j] > level)
                atomic_min(&scratch->next_level, halo_stamp[j]);
        // Every halo pixel has offered its stamp.
        barrier(CLK_LOCAL_MEM_FENCE);
        level = scratch->next_level;
    }

    // Write what changed; a changed edge pixel queues the tile beyond that edge.
    for (int j = 0; j < OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int px = index % SIDE, py = index / SIDE;
        const int x = x0 + px, y = y0 + py;
        if (x >= width || y >= height)
            continue;
        const int at = (py + 1) * PITCH + px + 1;
        const uint stamp = scratch->stamp[at];
        const ushort label = scratch->label[at];
        if (stamp == old_stamp[j] && label == old_label[j])
            continue;
        const uint g = (uint)y * (uint)width + (uint)x;
        stamps[g] = stamp;
        labels[g] = label;
        const uint edges = edges_of(px, py, connectivity);
        if (edges != 0)
            atomic_or(&scratch->edges, edges);
        atomic_or(&scratch->changed, 1u);
    }
    // Every change is written and its edges noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    queue_neighbours(lid, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    // Stopped by the window with more to grow: the next window starts here.
    // (level is the group's: every work-item ran the same loop.)
    if (lid == 9 && level != UNCLASSIFIED && level >= horizon && horizon < cap)
        defer_tile(tile, horizon, tiles_x * tiles_y, tile_mark, deferred_list, counters);
    // The scratch words are read before the next tile resets them.
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
