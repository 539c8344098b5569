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

// The start of a run in one launch (a command costs the host about 10 us on
// NVIDIA's driver, whatever it does): label 0 and stamp "never" for the
// `count` pixels from `first` (where the previous run left pixels), the
// tile marks and the region totals zeroed, and the counters set: `regions`
// accepted in iteration 0, `touched` as where the run may change pixels,
// the box of classified pixels empty, every other word 0 (the grid barrier's
// included). Any grid; each work-item takes every get_global_size(0)-th
// word of each range.
__kernel void start_run(__global ushort* labels, __global uint* stamps, const uint first, const uint count,
                        __global uint* tile_mark, const uint mark_words,
                        __global uint* region_stats, const uint stat_words,
                        __global uint* counters, const uint regions, const uint4 touched)
{
    const uint step = get_global_size(0);
    const uint id = get_global_id(0);
    for (uint i = id; i < count; i += step) {
        labels[first + i] = 0;
        stamps[first + i] = UNCLASSIFIED;
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
        else if (id == RGX_COUNTER_BOX + 0 || id == RGX_COUNTER_BOX + 1)
            value = UNCLASSIFIED;
        counters[id] = value;
    }
}

// Iteration 0 (seed_placement.h), one work-item per seed, for the runs
// without tiles (the tile driver's first launch places its own).
__kernel void place_seeds(__global const uint* seed_pixels, __global const ushort* luma,
                          __global uint* seed_luma, const uint region_total, const uint width,
                          __global ushort* labels, __global uint* stamps, volatile __global uint* counters)
{
    const uint k = get_global_id(0);
    if (k < region_total)
        place_seed(k, seed_pixels, luma, seed_luma, width, labels, stamps, 0, 0, 0, counters, counters, counters);
}

// Over the pixels the run touched (counters[RGX_COUNTER_TOUCHED]): the box
// of the classified pixels, the largest stamp, and per region the count
// and the luma sum (region_stats: RGX_REGION_STATS_WORDS words each,
// zeroed by the host). Any number of work-groups of RGX_WG_SIZE.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void summarize(__global const uint* stamps, __global const ushort* labels,
               __global const ushort* luma, const uint width, const uint region_total,
               volatile __global uint* counters, volatile __global uint* region_stats)
{
    __local uint box[4];
    __local uint largest;
    __local uint stats[LOCAL_REGIONS * RGX_REGION_STATS_WORDS];
    const uint lid = get_local_id(0);
    const bool local_regions = region_total <= LOCAL_REGIONS;
    if (lid == 0) {
        box[0] = box[1] = UNCLASSIFIED;
        box[2] = box[3] = 0;
        largest = 0;
    }
    for (uint i = lid; local_regions && i < region_total * RGX_REGION_STATS_WORDS; i += RGX_WG_SIZE)
        stats[i] = 0;
    // The local totals are zero before anyone adds to them.
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint x0 = counters[RGX_COUNTER_TOUCHED + 0], y0 = counters[RGX_COUNTER_TOUCHED + 1];
    const uint x1 = counters[RGX_COUNTER_TOUCHED + 2], y1 = counters[RGX_COUNTER_TOUCHED + 3];
    uint min_x = UNCLASSIFIED, min_y = UNCLASSIFIED, max_x = 0, max_y = 0, max_stamp = 0;
    // A run of pixels of one region is summed privately, then added once.
    uint run_region = 0, run_count = 0;
    ulong run_sum = 0;
    // Rows to work-groups, columns to work-items: coalesced, no division.
    for (uint y = y0 + get_group_id(0); x1 >= x0 && y <= y1; y += get_num_groups(0)) {
        for (uint x = x0 + lid; x <= x1; x += RGX_WG_SIZE) {
            const uint p = y * width + x;
            const uint stamp = stamps[p];
            if (stamp == UNCLASSIFIED)
                continue;
            min_x = min(min_x, x);
            min_y = min(min_y, y);
            max_x = max(max_x, x);
            max_y = max(max_y, y);
            max_stamp = max(max_stamp, stamp);
            const uint k = labels[p];
            if (k != run_region && run_count > 0) {
                add_region_run(run_region, run_count, run_sum, local_regions, stats, region_stats);
                run_count = 0;
                run_sum = 0;
            }
            if (k >= 1 && k <= region_total) {
                run_region = k;
                run_count += 1;
                run_sum += luma[p];
            }
        }
    }
    if (run_count > 0)
        add_region_run(run_region, run_count, run_sum, local_regions, stats, region_stats);
    if (min_x != UNCLASSIFIED) {
        atomic_min(&box[0], min_x);
        atomic_min(&box[1], min_y);
        atomic_max(&box[2], max_x);
        atomic_max(&box[3], max_y);
        atomic_max(&largest, max_stamp);
    }
    // Every work-item has added its share to the group's totals.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && box[0] != UNCLASSIFIED) {
        atomic_min(&counters[RGX_COUNTER_BOX + 0], box[0]);
        atomic_min(&counters[RGX_COUNTER_BOX + 1], box[1]);
        atomic_max(&counters[RGX_COUNTER_BOX + 2], box[2]);
        atomic_max(&counters[RGX_COUNTER_BOX + 3], box[3]);
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

// The labels and stamps of the box at x0, y0, box_width x box_height samples
// every `step` pixels each way (1: every pixel), row by row, in the
// narrowest types that hold them: labels as uchar when
// label_bytes is 1 (at most 255 regions), not at all when it is 0 (one
// region: the host reads its labels off the stamps), stamps as ushort when stamp_bytes
// is 2 (every stamp below 0xFFFF, which then means "never"), not at all
// when it is 0 (they were packed and read before the labels). A 2-D range:
// dimension 0 walks the columns, dimension 1 the rows.
inline void pack_box(__global const uint* stamps, __global const ushort* labels, const uint width,
                     const uint x0, const uint y0, const uint box_width, const uint box_height, const uint step,
                     const uint label_bytes, const uint stamp_bytes,
                     __global uchar* packed_labels, __global uchar* packed_stamps)
{
    for (uint row = get_group_id(1); row < box_height; row += get_num_groups(1)) {
        for (uint column = get_global_id(0); column < box_width; column += get_global_size(0)) {
            const uint p = (y0 + row * step) * width + x0 + column * step;
            const uint i = row * box_width + column;
            if (label_bytes == 1)
                packed_labels[i] = (uchar)labels[p];
            else if (label_bytes == 2)
                ((__global ushort*)packed_labels)[i] = labels[p];
            const uint stamp = stamp_bytes != 0 ? stamps[p] : 0;
            if (stamp_bytes == 2)
                ((__global ushort*)packed_stamps)[i] = stamp == UNCLASSIFIED ? (ushort)0xFFFF : (ushort)stamp;
            else if (stamp_bytes == 4)
                ((__global uint*)packed_stamps)[i] = stamp;
        }
    }
}

// pack_box for a box the host gives.
__kernel void pack_maps(__global const uint* stamps, __global const ushort* labels, const uint width,
                        const uint x0, const uint y0, const uint box_width, const uint box_height, const uint step,
                        const uint label_bytes, const uint stamp_bytes,
                        __global uchar* packed_labels, __global uchar* packed_stamps)
{
    pack_box(stamps, labels, width, x0, y0, box_width, box_height, step, label_bytes, stamp_bytes, packed_labels,
             packed_stamps);
}

// pack_box for the box summarize found (the counters), every pixel, before
// the host knows that box: a click's read-back then follows the counters'
// with no command in between (a command costs NVIDIA's driver 10 to 17 us
// of host time). Only where the packed maps fit the buffers' bytes;
// counters[RGX_COUNTER_PACKED] says the stamp bytes it packed, 0 for none.
__kernel void pack_ahead(__global const uint* stamps, __global const ushort* labels, const uint width,
                         const uint label_bytes, const uint label_capacity, const uint stamp_capacity,
                         volatile __global uint* counters, __global uchar* packed_labels,
                         __global uchar* packed_stamps)
{
    const uint x0 = counters[RGX_COUNTER_BOX + 0], y0 = counters[RGX_COUNTER_BOX + 1];
    const uint x1 = counters[RGX_COUNTER_BOX + 2], y1 = counters[RGX_COUNTER_BOX + 3];
    const uint stamp_bytes = counters[RGX_COUNTER_MAX_STAMP] < 0xFFFF ? 2 : 4;
    const ulong count = x1 >= x0 && y1 >= y0 ? (ulong)(x1 - x0 + 1) * (ulong)(y1 - y0 + 1) : 0;
    const bool fits = count > 0 && count * stamp_bytes <= stamp_capacity && count * label_bytes <= label_capacity;
    if (get_global_id(0) == 0 && get_global_id(1) == 0)
        counters[RGX_COUNTER_PACKED] = fits ? stamp_bytes : 0;
    if (fits)
        pack_box(stamps, labels, width, x0, y0, x1 - x0 + 1, y1 - y0 + 1, 1, label_bytes, stamp_bytes, packed_labels,
                 packed_stamps);
}
