// seed_distances, included by label_levels.cl (RGX_WG_SIZE, and voxel_of
// from grow_common.h).
#ifndef RGX_SEED_DISTANCES_H
#define RGX_SEED_DISTANCES_H

// The first pass without growing (seed_distances): in mode competitive
// every candidate is accepted and every voxel of the image is one, so a
// voxel's stamp is its distance from the nearest seed in the grid graph of
// the connectivity: |dx| + |dy| (+ |dz|) for 4 and 6 neighbours, the
// largest of them for 8 and 26, and for 18 (a step changes at most two
// coordinates) the larger of the largest and half the sum, rounded up.
// A shortest path between two voxels stays inside their bounding box, so
// the image's edges change nothing.
inline uint grid_distance(int dx, int dy, int dz, int connectivity)
{
    const uint a = (uint)abs(dx), b = (uint)abs(dy), c = (uint)abs(dz);
    if (connectivity == 4 || connectivity == 6)
        return a + b + c;
    const uint largest = max(a, max(b, c));
    if (connectivity == 18)
        return max(largest, (a + b + c + 1) / 2);
    return largest;
}

// The most seeds seed_distances keeps in local memory (the host takes the
// tiles or bricks beyond).
#define DISTANCE_SEEDS 256

// The block a work-group takes at a time: 32 x 32 pixels of an image
// (a work-item takes every eighth row of a column), 16 x 16 x 8 voxels of a
// volume (a work-item takes a column of 8 slices): enough voxels that the
// choice of seeds, made once a block, costs little beside them.
#if RGX_NEIGHBOURS > 8
#define BLOCK_X 16
#define BLOCK_Y 16
#define BLOCK_Z 8
#define STEP_Y 0
#define STEP_Z 1
#else
#define BLOCK_X 32
#define BLOCK_Y 32
#define BLOCK_Z 1
#define STEP_Y (RGX_WG_SIZE / BLOCK_X)
#define STEP_Z 0
#endif
#define BLOCK_STEPS (BLOCK_X * BLOCK_Y * BLOCK_Z / RGX_WG_SIZE)
#if BLOCK_X * BLOCK_Y * BLOCK_Z != RGX_WG_SIZE * BLOCK_STEPS || (RGX_NEIGHBOURS > 8 && BLOCK_X * BLOCK_Y != RGX_WG_SIZE)
#error "seed_distances: a block is the work-group's plane of work-items, stepped through"
#endif

// How far seed (s) lies from axis range [lo, hi]: at least, and at most.
inline int axis_near(int s, int lo, int hi) { return s < lo ? lo - s : s > hi ? s - hi : 0; }
inline int axis_far(int s, int lo, int hi) { return max(abs(s - lo), abs(s - hi)); }

// What seed_distances collects for the labels of several regions
// (label_ties.h): a voxel whose nearest seed is one seed alone takes its
// label (every neighbour it can take a label from has that seed alone as
// its nearest too, by induction over the levels), so only the voxels
// equidistant from two seeds or more, the ties, wait for the means. Per
// stamp s and region k, the voxels of s with k alone nearest are counted
// and their luma summed (unique[(s * seed_count + k) * 3]: count, sum low,
// sum high), the ties of s counted (level_counts[2 + s]) and listed
// (ties, up to tie_capacity; level_counts[1] counts them all);
// level_counts[0] gets the largest stamp. A block's stamps lie within its
// diameter (below 64) above the least distance of its candidates, so a
// block counts in local memory, a row per candidate seed (up to
// TIE_BIN_SEEDS, and one for the ties), and adds its rows once.
#define TIE_BIN_SEEDS 8
#define TIE_BIN_LEVELS 64
#define TIE_BIN_WORDS ((TIE_BIN_SEEDS + 1) * TIE_BIN_LEVELS * 2)
// A tie's label until label_ties decides it.
#define TIE_LABEL 0xFFFFu

// stamps[v] = v's distance from the nearest seed (seed_pixels; UNCLASSIFIED
// beyond `cap`) for every voxel but the seeds (distance 0), which
// place_seeds placed; labels[v] = the nearest seed's label, TIE_LABEL
// where several are nearest, 0 beyond `cap`. With `collect` (several
// regions) also what label_ties needs (above), stamps below levels_bound.
//
// Block by block: a grid distance grows with each coordinate's difference,
// so a seed is at least the distance of the block's nearest voxel from it
// and at most that of its farthest corner. The least of those farthest
// distances bounds every voxel's nearest seed; only the seeds whose
// nearest distance is within it can be a voxel's nearest, a few of them
// where the seeds are spread out, so the cost hardly grows with the seeds.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void seed_distances(__global const uint* seed_pixels, const uint seed_count, const int width, const int height,
                    const int slice_height, const int connectivity, const uint cap, __global uint* stamps,
                    __global ushort* labels, __global const ushort* luma, const uint collect,
                    volatile __global uint* level_counts, volatile __global uint* unique, const uint levels_bound,
                    __global uint* ties, const uint tie_capacity)
{
    __local int seed_x[DISTANCE_SEEDS], seed_y[DISTANCE_SEEDS], seed_z[DISTANCE_SEEDS];
    __local int near_x[DISTANCE_SEEDS], near_y[DISTANCE_SEEDS], near_z[DISTANCE_SEEDS];
    __local uint near_k[DISTANCE_SEEDS];
    __local uint bins[TIE_BIN_WORDS]; // [row][level - base]: count, luma sum
    __local uint candidate_count, bound, base, block_ties, tie_base, group_largest;
    const uint lid = get_local_id(0);
    for (uint k = lid; k < seed_count; k += RGX_WG_SIZE) {
        const voxel_t seed = voxel_of(seed_pixels[k], width, slice_height);
        seed_x[k] = seed.x;
        seed_y[k] = seed.y;
        seed_z[k] = seed.z;
    }
    if (lid == 0)
        group_largest = 0;
    barrier(CLK_LOCAL_MEM_FENCE); // a group with no block meets its atomic_max below at once
    uint largest = 0;
    const int depth = height / slice_height;
    const uint blocks_x = (uint)(width + BLOCK_X - 1) / BLOCK_X, blocks_y = (uint)(slice_height + BLOCK_Y - 1) / BLOCK_Y;
    const uint blocks = blocks_x * blocks_y * ((uint)(depth + BLOCK_Z - 1) / BLOCK_Z);
    const int dx = (int)(lid % BLOCK_X), dy = (int)(lid / BLOCK_X);
    for (uint b = get_group_id(0); b < blocks; b += get_num_groups(0)) {
        const int x0 = (int)(b % blocks_x) * BLOCK_X, y0 = (int)(b / blocks_x % blocks_y) * BLOCK_Y;
        const int z0 = (int)(b / (blocks_x * blocks_y)) * BLOCK_Z;
        const int x1 = min(x0 + BLOCK_X, width) - 1, y1 = min(y0 + BLOCK_Y, slice_height) - 1;
        const int z1 = min(z0 + BLOCK_Z, depth) - 1;
        if (lid == 0) {
            bound = UNCLASSIFIED;
            base = UNCLASSIFIED;
            candidate_count = 0;
            block_ties = 0;
        }
        for (uint i = lid; collect && i < TIE_BIN_WORDS; i += RGX_WG_SIZE)
            bins[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = lid; k < seed_count; k += RGX_WG_SIZE)
            atomic_min(&bound, grid_distance(axis_far(seed_x[k], x0, x1), axis_far(seed_y[k], y0, y1),
                                             axis_far(seed_z[k], z0, z1), connectivity));
        barrier(CLK_LOCAL_MEM_FENCE);
        // The candidates' places, not their indices: every work-item then
        // reads the same words in the same order (one load for all of them).
        for (uint k = lid; k < seed_count; k += RGX_WG_SIZE) {
            const uint near = grid_distance(axis_near(seed_x[k], x0, x1), axis_near(seed_y[k], y0, y1),
                                            axis_near(seed_z[k], z0, z1), connectivity);
            if (near <= bound) {
                const uint at = atomic_inc(&candidate_count);
                near_x[at] = seed_x[k];
                near_y[at] = seed_y[k];
                near_z[at] = seed_z[k];
                near_k[at] = k;
                atomic_min(&base, near);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint candidates_here = candidate_count, block_base = base;
        const bool binned = candidates_here <= TIE_BIN_SEEDS;
        uint tie_steps = 0; // bit step: that step's voxel is a tie
        for (int step = 0; step < BLOCK_STEPS; ++step) {
            const int x = x0 + dx, y = y0 + dy + step * STEP_Y, z = z0 + step * STEP_Z;
            if (x > x1 || y > y1 || z > z1)
                continue;
            uint nearest = UNCLASSIFIED, who = 0;
            bool tied = false;
            for (uint i = 0; i < candidates_here; ++i) {
                const uint d = grid_distance(x - near_x[i], y - near_y[i], z - near_z[i], connectivity);
                tied = d == nearest || (d > nearest && tied);
                who = d < nearest ? i : who;
                nearest = min(nearest, d);
            }
            const uint p = ((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)x;
            if (nearest > cap) {
                stamps[p] = UNCLASSIFIED;
                labels[p] = 0;
                continue;
            }
            largest = max(largest, nearest);
            if (nearest == 0)
                continue;
            stamps[p] = nearest;
            labels[p] = tied ? (ushort)TIE_LABEL : (ushort)(near_k[who] + 1);
            if (!collect || nearest >= levels_bound)
                continue;
            const uint level = nearest - block_base;
            const bool local_bin = binned && level < TIE_BIN_LEVELS;
            if (tied) {
                tie_steps |= 1u << step;
                if (local_bin)
                    atomic_inc(&bins[(TIE_BIN_SEEDS * TIE_BIN_LEVELS + level) * 2]);
                else
                    atomic_inc(&level_counts[2 + nearest]);
            } else if (local_bin) {
                atomic_inc(&bins[(who * TIE_BIN_LEVELS + level) * 2]);
                atomic_add(&bins[(who * TIE_BIN_LEVELS + level) * 2 + 1], (uint)luma[p]);
            } else {
                volatile __global uint* entry = unique + (nearest * seed_count + near_k[who]) * 3;
                atomic_inc(&entry[0]);
                atomic_add_u64(&entry[1], (uint)luma[p]);
            }
        }
        if (collect) {
            // The block's ties, listed in one range of the list.
            const uint mine = popcount(tie_steps);
            const uint offset = mine != 0 ? atomic_add(&block_ties, mine) : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0 && block_ties != 0)
                tie_base = atomic_add(&level_counts[1], block_ties);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint step = 0, at = tie_base + offset; tie_steps != 0; ++step, tie_steps >>= 1) {
                if ((tie_steps & 1u) == 0)
                    continue;
                const uint x = (uint)(x0 + dx), y = (uint)(y0 + dy) + step * STEP_Y, z = (uint)z0 + step * STEP_Z;
                if (at < tie_capacity)
                    ties[at] = (z * (uint)slice_height + y) * (uint)width + x;
                ++at;
            }
            // The block's counts, a pair of atomics per level and row.
            for (uint i = lid; binned && i < (candidates_here + 1) * TIE_BIN_LEVELS; i += RGX_WG_SIZE) {
                const uint row = i / TIE_BIN_LEVELS < candidates_here ? i / TIE_BIN_LEVELS : TIE_BIN_SEEDS;
                const uint word = (row * TIE_BIN_LEVELS + i % TIE_BIN_LEVELS) * 2;
                const uint n = bins[word];
                const uint level = block_base + i % TIE_BIN_LEVELS;
                if (n == 0)
                    continue;
                if (row == TIE_BIN_SEEDS) {
                    atomic_add(&level_counts[2 + level], n);
                } else {
                    volatile __global uint* entry = unique + (level * seed_count + near_k[row]) * 3;
                    atomic_add(&entry[0], n);
                    atomic_add_u64(&entry[1], bins[word + 1]);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE); // every work-item is done with the candidates and the bins
    }
    atomic_max(&group_largest, largest);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && collect)
        atomic_max(&level_counts[0], group_largest);
}

#endif
