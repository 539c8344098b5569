// The steps of a region-growing run that do not depend on its driver: the
// seeds placed before it, the result summarised after it (where the
// classified pixels are, the largest stamp, each region's count and luma
// sum) and packed into the narrowest types for the read-back. The maps
// start the run as label 0 and stamp "never" (the host resets what the
// previous run of the session touched).
#include "grow_common.h"
#include "seed_placement.h"

#ifndef RGX_WG_SIZE
#define RGX_WG_SIZE 256
#endif
// Regions summed in local memory before one global atomic per group.
#define LOCAL_REGIONS 256
// Pixels a work-item of summarize and pack_box reads before it uses them:
// the host's packAtOnce (GrowPrograms.h), which sizes pack_maps' grid by it.
#ifndef RGX_PACK_AT_ONCE
#error "build with -DRGX_PACK_AT_ONCE (sessionKernels)"
#endif
#define PACK_AT_ONCE RGX_PACK_AT_ONCE

// A box of pixels: columns x0..x1, rows y0..y1 of each slice z0..z1
// (inclusive) of an image whose slices are `slice_height` rows, stacked.
// An image is one slice (z 0, its height the slice height).
typedef struct {
    uint x0, y0, x1, y1, z0, z1;
} PixelBox;

inline uint box_columns(const PixelBox box) { return box.x1 >= box.x0 ? box.x1 - box.x0 + 1 : 0; }

// The box's rows, slices one after the other: 0 where it is empty.
inline uint box_rows(const PixelBox box)
{
    return box.x1 >= box.x0 && box.y1 >= box.y0 && box.z1 >= box.z0 ? (box.y1 - box.y0 + 1) * (box.z1 - box.z0 + 1) : 0;
}

// A work-group's walk over a box's rows, slice after slice: from row
// `first`, `stride` rows at a time, with the slice (z) and the row within
// it (y) counted from the box's corner and kept without a division per row.
typedef struct {
    uint z, y, rows_on, slices_on, rows_per_slice;
} RowWalk;

inline RowWalk row_walk(const uint first, const uint stride, const uint rows_per_slice)
{
    const RowWalk walk = {first / rows_per_slice, first % rows_per_slice, stride % rows_per_slice,
                          stride / rows_per_slice, rows_per_slice};
    return walk;
}

inline void walk_on(RowWalk* walk)
{
    walk->y += walk->rows_on;
    const bool next_slice = walk->y >= walk->rows_per_slice;
    walk->z += walk->slices_on + (next_slice ? 1 : 0);
    walk->y -= next_slice ? walk->rows_per_slice : 0;
}

// An 8-bit image's lumas, uploaded a byte each (half the bytes of a first
// click's upload), widened where every kernel reads them: four a work-item.
__kernel void widen_luma(__global const uchar* bytes, const uint count, __global ushort* luma)
{
    const uint i = get_global_id(0) * 4;
    if (i + 4 <= count)
        vstore4(convert_ushort4(vload4(0, bytes + i)), 0, luma + i);
    else
        for (uint j = i; j < count; ++j)
            luma[j] = bytes[j];
}

// The start of a run in one launch (a command costs the host about 10 us on
// NVIDIA's driver, whatever it does): label 0 and stamp "never" in the box
// `reset` (where the previous run left pixels), the tile marks and the
// region totals zeroed, and the counters set: `regions` accepted in
// iteration 0, `touched` and `touched_z` as where the run may change pixels,
// the box of classified pixels empty, every other word 0 (the grid
// barrier's included). Any grid: a box of whole rows in one range, each
// work-item every get_global_size(0)-th pixel; any other box a work-group a
// row at a time; each other word a work-item.
__kernel void start_run(__global ushort* labels, __global uint* stamps, const uint width, const uint slice_height,
                        const uint4 reset, const uint2 reset_z,
                        __global uint* tile_mark, const uint mark_words,
                        __global uint* region_stats, const uint stat_words,
                        __global uint* counters, const uint regions, const uint4 touched, const uint2 touched_z)
{
    const uint step = get_global_size(0);
    const uint id = get_global_id(0);
    const PixelBox box = {reset.x, reset.y, reset.z, reset.w, reset_z.x, reset_z.y};
    const uint rows = box_rows(box);
    // Whole rows of one slice, or whole slices, are one range of pixels.
    const bool whole_rows = box.x0 == 0 && box.x1 == width - 1;
    if (whole_rows && (box.z0 == box.z1 || (box.y0 == 0 && box.y1 == slice_height - 1))) {
        const uint first = (box.z0 * slice_height + box.y0) * width, count = rows * width;
        for (uint i = id; i < count; i += step) {
            labels[first + i] = 0;
            stamps[first + i] = UNCLASSIFIED;
        }
    } else {
        RowWalk walk = row_walk(get_group_id(0), get_num_groups(0), max(box.y1 - box.y0 + 1, 1u));
        for (uint row = get_group_id(0); row < rows; row += get_num_groups(0), walk_on(&walk)) {
            const uint first = ((box.z0 + walk.z) * slice_height + box.y0 + walk.y) * width;
            for (uint x = box.x0 + get_local_id(0); x <= box.x1; x += get_local_size(0)) {
                labels[first + x] = 0;
                stamps[first + x] = UNCLASSIFIED;
            }
        }
    }
    for (uint i = id; i < mark_words; i += step)
        tile_mark[i] = 0;
    for (uint i = id; i < stat_words; i += step)
        region_stats[i] = 0;
    if (id < RGX_COUNTER_WORDS) {
        uint value = 0;
        if (id == RGX_COUNTER_ACCEPTED)
            value = regions;
        else if (id == RGX_COUNTER_TOUCHED + 0)
            value = touched.x;
        else if (id == RGX_COUNTER_TOUCHED + 1)
            value = touched.y;
        else if (id == RGX_COUNTER_TOUCHED + 2)
            value = touched.z;
        else if (id == RGX_COUNTER_TOUCHED + 3)
            value = touched.w;
        else if (id == RGX_COUNTER_TOUCHED_Z + 0)
            value = touched_z.x;
        else if (id == RGX_COUNTER_TOUCHED_Z + 1)
            value = touched_z.y;
        else if (id == RGX_COUNTER_BOX + 0 || id == RGX_COUNTER_BOX + 1 || id == RGX_COUNTER_BOX_Z + 0)
            value = UNCLASSIFIED;
        counters[id] = value;
    }
}

// Iteration 0 (seed_placement.h), one work-item per seed, for the runs
// without tiles (the tile driver's first launch places its own).
__kernel void place_seeds(__global const uint* seed_pixels, __global const ushort* luma,
                          __global uint* seed_luma, const uint region_total, const uint width,
                          const uint slice_height, __global ushort* labels, __global uint* stamps,
                          volatile __global uint* counters)
{
    const uint k = get_global_id(0);
    if (k < region_total)
        place_seed(k, seed_pixels, luma, seed_luma, width, slice_height, labels, stamps, 0, 0, 0, counters, counters,
                   counters);
}

// Over the pixels the run touched (counters[RGX_COUNTER_TOUCHED] and
// [RGX_COUNTER_TOUCHED_Z]): the box of the classified pixels (rows within a
// slice, and slices), the largest stamp, and per region the count and the
// luma sum (region_stats: RGX_REGION_STATS_WORDS words each, zeroed by the
// host). labels_from_stamps: the one region of a correct run, label 1
// wherever a stamp is (its labels not read). Any number of work-groups of
// RGX_WG_SIZE.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void summarize(__global const uint* stamps, __global const ushort* labels,
               __global const ushort* luma, const uint width, const uint slice_height, const uint region_total,
               const uint labels_from_stamps, volatile __global uint* counters, volatile __global uint* region_stats)
{
    __local uint box[6];
    __local uint largest;
    __local uint stats[LOCAL_REGIONS * RGX_REGION_STATS_WORDS];
    const uint lid = get_local_id(0);
    const bool local_regions = region_total <= LOCAL_REGIONS;
    if (lid == 0) {
        box[0] = box[1] = box[4] = UNCLASSIFIED;
        box[2] = box[3] = box[5] = 0;
        largest = 0;
    }
    for (uint i = lid; local_regions && i < region_total * RGX_REGION_STATS_WORDS; i += RGX_WG_SIZE)
        stats[i] = 0;
    // The local totals are zero before anyone adds to them.
    barrier(CLK_LOCAL_MEM_FENCE);

    const PixelBox touched = {counters[RGX_COUNTER_TOUCHED + 0],   counters[RGX_COUNTER_TOUCHED + 1],
                              counters[RGX_COUNTER_TOUCHED + 2],   counters[RGX_COUNTER_TOUCHED + 3],
                              counters[RGX_COUNTER_TOUCHED_Z + 0], counters[RGX_COUNTER_TOUCHED_Z + 1]};
    const uint rows = box_rows(touched);
    uint min_x = UNCLASSIFIED, min_y = UNCLASSIFIED, min_z = UNCLASSIFIED;
    uint max_x = 0, max_y = 0, max_z = 0, max_stamp = 0;
    // A run of pixels of one region is summed privately, then added once.
    uint run_region = 0, run_count = 0;
    ulong run_sum = 0;
    // Rows to work-groups, columns to work-items: coalesced. A work-item
    // takes PACK_AT_ONCE pixels, RGX_WG_SIZE apart along a row, or where a
    // row is narrower (a volume's 512 voxels) the same columns of the next
    // rows too: every slot's load in flight at once.
    const uint per_row = clamp((box_columns(touched) + RGX_WG_SIZE - 1) / RGX_WG_SIZE, 1u, (uint)PACK_AT_ONCE);
    const uint rows_at_once = PACK_AT_ONCE / per_row;
    const uint rows_per_slice = max(touched.y1 - touched.y0 + 1, 1u);
    for (uint row = get_group_id(0) * rows_at_once; row < rows; row += get_num_groups(0) * rows_at_once) {
        // In the order of one at a time: the stamps read together, then the
        // labels and lumas of those classified, then each pixel counted.
        for (uint x = touched.x0 + lid; x <= touched.x1; x += per_row * RGX_WG_SIZE) {
            uint stamp[PACK_AT_ONCE], at[PACK_AT_ONCE], xs[PACK_AT_ONCE], ys[PACK_AT_ONCE], zs[PACK_AT_ONCE];
            uint label[PACK_AT_ONCE], value[PACK_AT_ONCE];
#pragma unroll
            for (int j = 0; j < PACK_AT_ONCE; ++j) {
                const uint r = (uint)j / per_row, row_j = row + r;
                xs[j] = x + (uint)j % per_row * RGX_WG_SIZE;
                zs[j] = touched.z0 + row_j / rows_per_slice;
                ys[j] = touched.y0 + row_j % rows_per_slice;
                at[j] = (zs[j] * slice_height + ys[j]) * width + xs[j];
                const bool inside = r < rows_at_once && row_j < rows && xs[j] <= touched.x1;
                stamp[j] = inside ? stamps[at[j]] : UNCLASSIFIED;
            }
#pragma unroll
            for (int j = 0; j < PACK_AT_ONCE; ++j) {
                const bool classified = stamp[j] != UNCLASSIFIED;
                label[j] = !classified ? 0 : labels_from_stamps ? 1 : labels[at[j]];
                value[j] = classified ? luma[at[j]] : 0;
            }
#pragma unroll
            for (int j = 0; j < PACK_AT_ONCE; ++j) {
                if (stamp[j] == UNCLASSIFIED)
                    continue;
                min_x = min(min_x, xs[j]);
                max_x = max(max_x, xs[j]);
                min_y = min(min_y, ys[j]);
                max_y = max(max_y, ys[j]);
                min_z = min(min_z, zs[j]);
                max_z = max(max_z, zs[j]);
                max_stamp = max(max_stamp, stamp[j]);
                const uint k = label[j];
                if (k != run_region && run_count > 0) {
                    add_region_run(run_region, run_count, run_sum, local_regions, stats, region_stats);
                    run_count = 0;
                    run_sum = 0;
                }
                if (k >= 1 && k <= region_total) {
                    run_region = k;
                    run_count += 1;
                    run_sum += value[j];
                }
            }
        }
    }
    if (run_count > 0)
        add_region_run(run_region, run_count, run_sum, local_regions, stats, region_stats);
    // Where the run touched one slice (an image), that slice is the box's.
    const bool one_slice = touched.z0 == touched.z1;
    if (min_x != UNCLASSIFIED) {
        atomic_min(&box[0], min_x);
        atomic_min(&box[1], min_y);
        atomic_max(&box[2], max_x);
        atomic_max(&box[3], max_y);
        if (!one_slice) {
            atomic_min(&box[4], min_z);
            atomic_max(&box[5], max_z);
        }
        atomic_max(&largest, max_stamp);
    }
    // Every work-item has added its share to the group's totals.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && box[0] != UNCLASSIFIED) {
        atomic_min(&counters[RGX_COUNTER_BOX + 0], box[0]);
        atomic_min(&counters[RGX_COUNTER_BOX + 1], box[1]);
        atomic_max(&counters[RGX_COUNTER_BOX + 2], box[2]);
        atomic_max(&counters[RGX_COUNTER_BOX + 3], box[3]);
        atomic_min(&counters[RGX_COUNTER_BOX_Z + 0], one_slice ? touched.z0 : box[4]);
        atomic_max(&counters[RGX_COUNTER_BOX_Z + 1], one_slice ? touched.z0 : box[5]);
        atomic_max(&counters[RGX_COUNTER_MAX_STAMP], largest);
    }
    for (uint k = lid; local_regions && k < region_total; k += RGX_WG_SIZE) {
        const __local uint* mine = &stats[k * RGX_REGION_STATS_WORDS];
        if (mine[0] == 0)
            continue;
        volatile __global uint* theirs = &region_stats[k * RGX_REGION_STATS_WORDS];
        atomic_add(&theirs[0], mine[0]);
        atomic_add_u64_wide(&theirs[1], ((ulong)mine[2] << 32) | mine[1]);
    }
}

// The labels and stamps of the box at x0, y0 (in slice z0 of a volume,
// whose slices are slice_height rows: an image is one slice),
// box_width x box_height samples every `step` pixels each way (1: every
// pixel) in each of box_depth slices, row by row and slice by slice, in the
// narrowest types that hold them: labels as uchar when
// label_bytes is 1 (at most 255 regions), not at all when it is 0 (one
// region: the host reads its labels off the stamps), stamps as ushort when stamp_bytes
// is 2 (every stamp below 0xFFFF, which then means "never"), not at all
// when it is 0 (they were packed and read before the labels). A 2-D range:
// dimension 0 walks the columns, dimension 1 the rows.
typedef struct {
    uint x0, y0, z0, box_width, box_height, box_depth, step;
} PackBox;

inline void pack_box(__global const uint* stamps, __global const ushort* labels, const uint width,
                     const uint slice_height, const PackBox box, const uint row_first, const uint row_end,
                     const uint label_bytes, const uint stamp_bytes, __global uchar* packed_labels,
                     __global uchar* packed_stamps)
{
    const uint across = get_global_size(0);
    RowWalk walk = row_walk(row_first + get_group_id(1), get_num_groups(1), box.box_height);
    for (uint row = row_first + get_group_id(1); row < row_end; row += get_num_groups(1), walk_on(&walk)) {
        const uint first = ((box.z0 + walk.z) * slice_height + box.y0 + walk.y * box.step) * width + box.x0;
        // PACK_AT_ONCE columns a work-item, `across` apart (each load
        // coalesced), all read before any is written: the loads are in
        // flight together, where one at a time left the memory idle (a
        // store may alias a later load, so the compiler keeps the order).
        for (uint column = get_global_id(0); column < box.box_width; column += PACK_AT_ONCE * across) {
            uint stamp[PACK_AT_ONCE];
            ushort label[PACK_AT_ONCE];
#pragma unroll
            for (int j = 0; j < PACK_AT_ONCE; ++j) {
                const uint c = column + (uint)j * across;
                const uint p = first + c * box.step;
                stamp[j] = stamp_bytes != 0 && c < box.box_width ? stamps[p] : 0;
                label[j] = label_bytes != 0 && c < box.box_width ? labels[p] : 0;
            }
#pragma unroll
            for (int j = 0; j < PACK_AT_ONCE; ++j) {
                const uint c = column + (uint)j * across;
                if (c >= box.box_width)
                    continue;
                const uint i = row * box.box_width + c;
                if (label_bytes == 1)
                    packed_labels[i] = (uchar)label[j];
                else if (label_bytes == 2)
                    ((__global ushort*)packed_labels)[i] = label[j];
                if (stamp_bytes == 2)
                    ((__global ushort*)packed_stamps)[i] = stamp[j] == UNCLASSIFIED ? (ushort)0xFFFF : (ushort)stamp[j];
                else if (stamp_bytes == 4)
                    ((__global uint*)packed_stamps)[i] = stamp[j];
            }
        }
    }
}

// pack_box for a box the host gives (box: x0 y0 z0 and box_width,
// box_height box_depth; the step along x and y), its rows rows.x to rows.y
// (slices stacked: a slab of RGX_READ_SLABS, or all of them).
__kernel void pack_maps(__global const uint* stamps, __global const ushort* labels, const uint width,
                        const uint slice_height, const uint4 corner, const uint4 size, const uint step,
                        const uint2 rows, const uint label_bytes, const uint stamp_bytes,
                        __global uchar* packed_labels, __global uchar* packed_stamps)
{
    const PackBox box = {corner.x, corner.y, corner.z, size.x, size.y, size.z, step};
    pack_box(stamps, labels, width, slice_height, box, rows.x, rows.y, label_bytes, stamp_bytes, packed_labels,
             packed_stamps);
}

// pack_box for the box summarize found (the counters), every pixel, before
// the host knows that box: a click's read-back then follows the counters'
// with no command in between (a command costs NVIDIA's driver 10 to 17 us
// of host time). Only where the packed maps fit the buffers' bytes;
// counters[RGX_COUNTER_PACKED] says the stamp bytes it packed, 0 for none.
// Maps of several slabs of `slab_bytes` (RGX_READ_SLABS): the first slab,
// whose read then starts while the host packs the next. Maps of
// `narrow_from` samples or more: none (the host reads their stamps narrow,
// narrow_stamps.h).
__kernel void pack_ahead(__global const uint* stamps, __global const ushort* labels, const uint width,
                         const uint slice_height, const uint label_bytes, const uint label_capacity,
                         const uint stamp_capacity, const uint slab_bytes, const uint narrow_from,
                         volatile __global uint* counters,
                         __global uchar* packed_labels, __global uchar* packed_stamps)
{
    const PixelBox found = {counters[RGX_COUNTER_BOX + 0],   counters[RGX_COUNTER_BOX + 1],
                            counters[RGX_COUNTER_BOX + 2],   counters[RGX_COUNTER_BOX + 3],
                            counters[RGX_COUNTER_BOX_Z + 0], counters[RGX_COUNTER_BOX_Z + 1]};
    const uint stamp_bytes = counters[RGX_COUNTER_MAX_STAMP] < 0xFFFF ? 2 : 4;
    const ulong count = (ulong)box_columns(found) * (ulong)box_rows(found);
    const bool fits = count > 0 && count < narrow_from && count * stamp_bytes <= stamp_capacity &&
                      count * label_bytes <= label_capacity;
    if (get_global_id(0) == 0 && get_global_id(1) == 0)
        counters[RGX_COUNTER_PACKED] = fits ? stamp_bytes : 0;
    const PackBox box = {found.x0, found.y0, found.z0, found.x1 - found.x0 + 1, found.y1 - found.y0 + 1,
                         found.z1 - found.z0 + 1, 1};
    const ulong rows = box.box_height * box.box_depth;
    const ulong slabs = RGX_READ_SLABS(count * (label_bytes + stamp_bytes), (ulong)slab_bytes);
    if (fits)
        pack_box(stamps, labels, width, slice_height, box, 0, (uint)(rows / slabs), label_bytes, stamp_bytes,
                 packed_labels, packed_stamps);
}

#include "narrow_stamps.h"
