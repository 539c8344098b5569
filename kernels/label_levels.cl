// The second pass of a competitive run of several regions on a volume
// (docs/VARIANTS.md, "Competitive runs of many regions"). In mode
// competitive every candidate is accepted, so the stamps are the
// breadth-first distances from the nearest seed: the bricks
// (grow_bricks.cl) find them with every seed a source, as for one region.
// Only the labels need SPEC step 5's order: level i decides each voxel of
// stamp i among the labels of its neighbours of stamp i - 1 (no neighbour
// of a smaller stamp can exist: it would have classified the voxel
// earlier), on the means as they stood after level i - 1.
//
// The voxels are bucketed by stamp first (count_stamps, a scan on the host,
// bucket_stamps), so that a level reads its own voxels and nothing else:
// no claims, no frontier to build. Then either every level in one launch
// with a grid barrier between levels (label_levels_fused), or, where the
// work-groups cannot all be resident or stop meeting, two launches a level:
// label_level decides and adds the level's counts and sums to `deltas`,
// and close_level adds them to the totals and computes the next level's
// means.
#include "grid_barrier.h"
#include "grow_common.h"

#define STATS_WORDS 3
#ifndef RGX_WG_SIZE
#define RGX_WG_SIZE 256
#endif
// Voxels per work-group of the bucketing kernels, and the most levels they
// count in local memory (beyond, straight in global memory).
#define CHUNK (RGX_WG_SIZE * 16)
#define LOCAL_LEVELS 2048
#define LOCAL_REGIONS 256

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
// tiles or bricks beyond: its cost grows with the seeds).
#define DISTANCE_SEEDS 256

// stamps[v] = v's distance from the nearest seed (seed_pixels; UNCLASSIFIED
// beyond `cap`), labels[v] = 0 for the label pass to set, for every voxel
// but the seeds (distance 0), which place_seeds placed.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void seed_distances(__global const uint* seed_pixels, const uint seed_count, const int width, const int height,
                    const int slice_height, const int connectivity, const uint cap, __global uint* stamps,
                    __global ushort* labels)
{
    __local int seed_x[DISTANCE_SEEDS], seed_y[DISTANCE_SEEDS], seed_z[DISTANCE_SEEDS];
    for (uint k = get_local_id(0); k < seed_count; k += RGX_WG_SIZE) {
        const voxel_t seed = voxel_of(seed_pixels[k], width, slice_height);
        seed_x[k] = seed.x;
        seed_y[k] = seed.y;
        seed_z[k] = seed.z;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint voxels = (uint)width * (uint)height;
    for (uint p = get_global_id(0); p < voxels; p += get_global_size(0)) {
        const voxel_t v = voxel_of(p, width, slice_height);
        uint nearest = UNCLASSIFIED;
        for (uint k = 0; k < seed_count; ++k)
            nearest = min(nearest, grid_distance(v.x - seed_x[k], v.y - seed_y[k], v.z - seed_z[k], connectivity));
        if (nearest == 0)
            continue;
        stamps[p] = nearest <= cap ? nearest : UNCLASSIFIED;
        labels[p] = 0;
    }
}

// *largest: the largest stamp of a classified voxel.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void largest_stamp(__global const uint* stamps, const uint voxels, volatile __global uint* largest)
{
    __local uint group_largest;
    if (get_local_id(0) == 0)
        group_largest = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint mine = 0;
    for (uint i = get_global_id(0); i < voxels; i += get_global_size(0)) {
        const uint s = stamps[i];
        if (s != UNCLASSIFIED)
            mine = max(mine, s);
    }
    atomic_max(&group_largest, mine);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_max(largest, group_largest);
}

// What label_levels_fused reads of voxel v (stamp s > 0) besides its
// neighbours' labels, in one word where it fits: which neighbours have
// stamp s - 1 (bit d for neighbour d; neighbours_before), and its luma
// above 8 bits of them. An image's 8 neighbours fit, and a volume's 6 (d 0
// to 3 in bits 0 to 3, d 8 and 9 in bits 4 and 5); a volume's 18 or 26
// leave no room: the word is the neighbours, and the luma is read too.
inline bool info_packed(int connectivity) { return RGX_NEIGHBOURS <= 8 || connectivity == 6; }

inline uint info_of(uint before, uint value, int connectivity)
{
    if (!info_packed(connectivity))
        return before;
    if (RGX_NEIGHBOURS > 8)
        before = (before & 0xFu) | ((before >> 4) & 0x30u);
    return (value << 8) | before;
}

#define INFO_LUMA(info, p) (info_packed(connectivity) ? (info) >> 8 : (uint)luma[p])
#define INFO_BEFORE(info)                                                                                      \
    (!info_packed(connectivity) ? (info)                                                                       \
     : RGX_NEIGHBOURS > 8       ? ((info) & 0xFu) | (((info) & 0x30u) << 4)                                    \
                                : (info) & 0xFFu)

// Which neighbours of voxel v (stamp s > 0) have stamp s - 1: bit d for
// neighbour d, the neighbours its label is chosen among.
inline uint neighbours_before(uint v, uint s, int width, int height, int slice_height, int connectivity,
                              __global const uint* stamps)
{
    uint before = 0;
    const voxel_t at = voxel_of(v, width, slice_height);
    for (int d = 0; d < neighbour_end(connectivity); ++d) {
        const uint q = neighbour_index(at, d, width, height, slice_height);
        if (neighbour_in_use(d, connectivity) && q != NO_NEIGHBOUR && stamps[q] == s - 1)
            before |= 1u << d;
    }
    return before;
}

// histogram[s]: the classified voxels of stamp s (s < levels); and
// info[v] for each classified voxel v of stamp 1 and above (INFO_LUMA,
// INFO_BEFORE), made here where the image is read in its own order and a
// voxel's neighbours share cache lines, rather than level by level along a
// curve.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void count_stamps(__global const uint* stamps, const uint voxels, const uint levels,
                  volatile __global uint* histogram, __global uint* info, __global const ushort* luma,
                  const int width, const int height, const int slice_height, const int connectivity)
{
    __local uint counts[LOCAL_LEVELS];
    const bool local_counts = levels <= LOCAL_LEVELS;
    const uint lid = get_local_id(0);
    for (uint i = lid; local_counts && i < levels; i += RGX_WG_SIZE)
        counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint chunk = get_group_id(0) * CHUNK; chunk < voxels; chunk += get_num_groups(0) * CHUNK) {
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint v = chunk + i;
            const uint s = stamps[v];
            if (s < levels) {
                if (local_counts)
                    atomic_inc(&counts[s]);
                else
                    atomic_inc(&histogram[s]);
            }
            if (s != 0 && s < levels) {
                const uint before = neighbours_before(v, s, width, height, slice_height, connectivity, stamps);
                info[v] = info_of(before, luma[v], connectivity);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; local_counts && i < levels; i += RGX_WG_SIZE)
        if (counts[i] != 0)
            atomic_add(&histogram[i], counts[i]);
}

// order[cursor[s]++] = v for every classified voxel v of stamp s, one range
// reserved per stamp and work-group chunk (cursor: the scan's starts).
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void bucket_stamps(__global const uint* stamps, const uint voxels, const uint levels,
                   volatile __global uint* cursor, __global uint* order)
{
    __local uint counts[LOCAL_LEVELS];
    const bool local_counts = levels <= LOCAL_LEVELS;
    const uint lid = get_local_id(0);
    for (uint chunk = get_group_id(0) * CHUNK; chunk < voxels; chunk += get_num_groups(0) * CHUNK) {
        if (!local_counts) {
            for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
                const uint s = stamps[chunk + i];
                if (s < levels)
                    order[atomic_inc(&cursor[s])] = chunk + i;
            }
            continue;
        }
        for (uint i = lid; i < levels; i += RGX_WG_SIZE)
            counts[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint s = stamps[chunk + i];
            if (s < levels)
                atomic_inc(&counts[s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // This chunk's range of each stamp; counts[s] becomes its cursor.
        for (uint i = lid; i < levels; i += RGX_WG_SIZE)
            if (counts[i] != 0)
                counts[i] = atomic_add(&cursor[i], counts[i]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint s = stamps[chunk + i];
            if (s < levels)
                order[atomic_inc(&counts[s])] = chunk + i;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Whether region k at `distance` from a voxel's luma wins over the best so
// far (none: best 0): the least distance, ties to the smallest label. A
// mean floor(256 sum / count) of 16-bit lumas is below 2^24: 32 bits hold
// it and every distance.
inline bool nearer(uint k, uint distance, uint best, uint best_distance)
{
    return best == 0 || distance < best_distance || (distance == best_distance && k < best);
}

// A work-group's counts and sums of a level (stats) into the level's (slot),
// one pair of atomics per region it touched.
inline void flush_stats(__local const uint* stats, volatile __global uint* slot, uint region_total, uint lid)
{
    for (uint k = lid; k < region_total; k += RGX_WG_SIZE) {
        const uint n = stats[k * STATS_WORDS];
        if (n == 0)
            continue;
        atomic_add(&slot[k * STATS_WORDS], n);
        atomic_add_u64_wide(&slot[k * STATS_WORDS + 1],
                            ((ulong)stats[k * STATS_WORDS + 2] << 32) | stats[k * STATS_WORDS + 1]);
    }
}

// Voxels of region k: into the work-group's totals, or the level's.
inline void add_to_level(uint k, uint count, ulong sum, bool local_stats, __local uint* stats,
                          volatile __global uint* deltas)
{
    if (local_stats) {
        atomic_add(&stats[(k - 1) * STATS_WORDS], count);
        local_add_u64_wide(&stats[(k - 1) * STATS_WORDS + 1], sum);
    } else {
        atomic_add(&deltas[(k - 1) * STATS_WORDS], count);
        atomic_add_u64_wide(&deltas[(k - 1) * STATS_WORDS + 1], sum);
    }
}

// Level `level`: the voxels order[first .. first + count) take the label
// of least distance to its mean among their neighbours of stamp level - 1,
// ties to the smallest label; their counts and luma sums go to `deltas`.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_level(const uint level, const uint first, const uint count, __global const uint* order,
                 const int width, const int height, const int slice_height, const int connectivity,
                 __global const ushort* luma, __global const uint* stamps, __global ushort* labels,
                 __global const ulong* means, const uint region_total, volatile __global uint* deltas)
{
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    const bool local_stats = region_total <= LOCAL_REGIONS;
    const uint lid = get_local_id(0);
    for (uint i = lid; local_stats && i < region_total * STATS_WORDS; i += RGX_WG_SIZE)
        stats[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Consecutive work-items take consecutive voxels of the level, which
    // lie together in the volume: their loads coalesce. (A run of voxels a
    // work-item, its count and sum added once, was 1.2x slower on the H200.)
    for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
        const uint p = order[first + i];
        const voxel_t v = voxel_of(p, width, slice_height);
        const uint value = luma[p];
        const ulong scaled = (ulong)value << 8;
        uint best = 0;
        uint best_distance = 0;
        for (int d = 0; d < neighbour_end(connectivity); ++d) {
            // The index before the in-use test, as in region_growing.cl
            // (Intel's compiler got the other order wrong).
            const uint q = neighbour_index(v, d, width, height, slice_height);
            if (!neighbour_in_use(d, connectivity) || q == NO_NEIGHBOUR || stamps[q] != level - 1)
                continue;
            const uint k = labels[q];
            if (k == 0 || k > region_total)
                continue;
            const ulong mean = means[k - 1];
            const uint distance = (uint)(scaled > mean ? scaled - mean : mean - scaled);
            if (nearer(k, distance, best, best_distance)) {
                best = k;
                best_distance = distance;
            }
        }
        labels[p] = (ushort)best;
        if (best != 0) // 0 only where a broken first pass left a voxel without a neighbour before it
            add_to_level(best, 1, value, local_stats, stats, deltas);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_stats)
        flush_stats(stats, deltas, region_total, lid);
}

// After a level: totals += deltas, deltas = 0, and each region's mean
// M_k = floor(sum_k * 256 / count_k) for the next level.
__kernel void close_level(const uint region_total, __global uint* totals, __global uint* deltas,
                          __global ulong* means)
{
    for (uint k = get_global_id(0); k < region_total; k += get_global_size(0)) {
        const uint at = k * STATS_WORDS;
        const uint n = totals[at] + deltas[at];
        const ulong sum = (((ulong)totals[at + 2] << 32) | totals[at + 1]) +
                          (((ulong)deltas[at + 2] << 32) | deltas[at + 1]);
        totals[at] = n;
        totals[at + 1] = (uint)sum;
        totals[at + 2] = (uint)(sum >> 32);
        deltas[at] = deltas[at + 1] = deltas[at + 2] = 0;
        means[k] = (sum << 8) / (ulong)max(n, 1u);
    }
}

// A voxel of a level: its index, where it lies, its luma and which
// neighbours have the stamp before its own (count_stamps' `info`).
typedef struct {
    uint p;
    voxel_t v;
    uint value;
    uint before;
} Ahead;

// Voxel `i` of order into `a`, with its info. (A macro: a function
// returning the struct makes it a noalias argument once inlined, whose
// scope declaration Oclgrind 21.10 cannot run.)
#define VOXEL_AT(a, i)                                                                                         \
    do {                                                                                                      \
        (a).p = order[i];                                                                                     \
        const uint voxel_info = info[(a).p];                                                                  \
        (a).before = INFO_BEFORE(voxel_info);                                                                 \
        (a).v = voxel_of((a).p, width, slice_height);                                                         \
        (a).value = INFO_LUMA(voxel_info, (a).p);                                                             \
    } while (0)

// SPEC step 5 for one voxel, given its neighbours' labels (label[d] for the
// neighbours in a.before): the label of least distance to its mean, ties
// to the smallest (nearer).
inline uint decide(const Ahead a, const uint* label, __local const uint* means, uint region_total)
{
    const uint scaled = a.value << 8;
    uint best = 0;
    uint best_distance = 0;
#pragma unroll
    for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
        const uint k = label[d];
        if (((a.before >> d) & 1u) == 0 || k == 0 || k > region_total)
            continue;
        const uint mean = means[k - 1];
        const uint distance = scaled > mean ? scaled - mean : mean - scaled;
        if (nearer(k, distance, best, best_distance)) {
            best = k;
            best_distance = distance;
        }
    }
    return best;
}

// The labels of a's neighbours of the stamp before, every load issued
// before any is used (written by other work-groups before the grid
// barrier: read through volatile).
inline void neighbour_labels(const Ahead a, int width, int height, int slice_height,
                             volatile __global ushort* labels, uint* label)
{
#pragma unroll
    for (int d = 0; d < RGX_NEIGHBOURS; ++d)
        label[d] = ((a.before >> d) & 1u) ? labels[neighbour_index(a.v, d, width, height, slice_height)] : 0;
}

inline void count_label(uint k, uint value, __local uint* stats)
{
    if (k != 0) {
        atomic_inc(&stats[(k - 1) * STATS_WORDS]);
        local_add_u64_wide(&stats[(k - 1) * STATS_WORDS + 1], value);
    }
}

// The voxels of `level` work-item `gid` takes first: whether there is one.
inline bool has_voxel(uint level, uint levels, uint gid, __global const uint* ends)
{
    return level < levels && gid < ends[level] - ends[level - 1];
}

// Levels 1 .. levels - 1 in one launch, a grid barrier between levels; at
// most LOCAL_REGIONS regions. ends[s - 1] .. ends[s]: the voxels of stamp
// s in `order` (bucket_stamps leaves the ends where the starts were);
// info[v]: count_stamps'.
//
// A level's time is its chain of dependent steps, so each level issues its
// loads together, right after the barrier: the level before's counts and
// sums, the next level's voxels' info, and the voxel indices of the level
// after that (work-item g takes voxel g of each level: three levels in
// flight); then its voxels' neighbours' labels.
// Every work-group keeps the regions' totals in local memory, from the
// seeds' (`totals`) on, adding each level's counts and sums, which the
// groups leave in slot level % 3 of `deltas` (slot level + 1 is zeroed
// during the level: every group read it, as slot level - 2, before the
// barrier that ended level - 1). A level's voxels beyond the first
// global-size of them are read when it runs.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_levels_fused(const uint levels, __global const uint* ends, __global const uint* order,
                        __global const uint* info, const int width, const int height, const int slice_height,
                        const int connectivity,
                        __global const ushort* luma, volatile __global ushort* labels, __global const uint* totals,
                        const uint region_total, volatile __global uint* deltas, volatile __global uint* counters)
{
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    __local uint means[LOCAL_REGIONS];
    __local uint verdict;
    if (!grid_roll_call(counters + RGX_COUNTER_GRID, &verdict))
        return;
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0), items = get_global_size(0);
    const uint slot_words = region_total * STATS_WORDS;
    // Work-item k keeps region k's totals (k < region_total, in steps of the group).
    uint count[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    ulong sum[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
        count[j] = totals[k * STATS_WORDS];
        sum[j] = ((ulong)totals[k * STATS_WORDS + 2] << 32) | totals[k * STATS_WORDS + 1];
    }
    // The pipeline: this level's voxel, the next level's, the index and mask after.
    bool now_valid = has_voxel(1, levels, gid, ends);
    Ahead now = {0, {0, 0, 0}, 0, 0};
    if (now_valid)
        VOXEL_AT(now, ends[0] + gid);
    bool next_valid = has_voxel(2, levels, gid, ends);
    uint next_p = next_valid ? order[ends[1] + gid] : 0;
    bool after_valid = has_voxel(3, levels, gid, ends);
    uint after_p = after_valid ? order[ends[2] + gid] : 0;
    uint passed = 0;
    for (uint level = 1; level < levels; ++level) {
        // The loads that do not wait for this level's labels, issued together.
        const uint next_info = next_valid ? info[next_p] : 0;
        const uint next_value = next_valid ? INFO_LUMA(next_info, next_p) : 0;
        const bool later_valid = has_voxel(level + 3, levels, gid, ends);
        const uint later_p = later_valid ? order[ends[level + 2] + gid] : 0;
        volatile __global uint* before_slot = deltas + ((level - 1) % 3) * slot_words;
        for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
            if (level > 1) {
                count[j] += before_slot[k * STATS_WORDS];
                sum[j] += ((ulong)before_slot[k * STATS_WORDS + 2] << 32) | before_slot[k * STATS_WORDS + 1];
            }
            means[k] = (uint)((sum[j] << 8) / (ulong)max(count[j], 1u));
            stats[k * STATS_WORDS] = stats[k * STATS_WORDS + 1] = stats[k * STATS_WORDS + 2] = 0;
        }
        if (get_group_id(0) == 0)
            for (uint i = lid; i < slot_words; i += RGX_WG_SIZE)
                deltas[((level + 1) % 3) * slot_words + i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        // The labels after the barrier, into an array of the kernel's own:
        // loaded before it (the array live across it), or into an array of
        // decide's, PoCL 3.1 labelled wrong (the H100 gained nothing from
        // the first).
        uint label[RGX_NEIGHBOURS];
        if (now_valid) {
            neighbour_labels(now, width, height, slice_height, labels, label);
            const uint k = decide(now, label, means, region_total);
            labels[now.p] = (ushort)k;
            count_label(k, now.value, stats);
        }
        const uint first = ends[level - 1], voxels = ends[level] - first;
        for (uint i = gid + items; i < voxels; i += items) {
            Ahead a;
            VOXEL_AT(a, first + i);
            neighbour_labels(a, width, height, slice_height, labels, label);
            const uint k = decide(a, label, means, region_total);
            labels[a.p] = (ushort)k;
            count_label(k, a.value, stats);
        }

        // The pipeline moves on a level.
        now_valid = next_valid;
        now.p = next_p;
        now.v = voxel_of(next_p, width, slice_height);
        now.value = next_value;
        now.before = INFO_BEFORE(next_info);
        next_valid = after_valid;
        next_p = after_p;
        after_valid = later_valid;
        after_p = later_p;

        barrier(CLK_LOCAL_MEM_FENCE);
        flush_stats(stats, deltas + (level % 3) * slot_words, region_total, lid);
        if (!grid_barrier(counters + RGX_COUNTER_GRID, &passed, &verdict, level, &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
    }
}
