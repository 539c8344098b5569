// Work-group collective operations used by every stage, in the flavour the
// variant chose with RGX_COLLECTIVES:
//   RGX_COLLECTIVES_ATOMICS   0  no work-group cooperation (callers use global atomics)
//   RGX_COLLECTIVES_LOCAL     1  scan and reduce in local memory with barriers
//   RGX_COLLECTIVES_BUILTIN   2  OpenCL 2.0 work_group_* functions
//   RGX_COLLECTIVES_SUBGROUP  3  sub_group_* functions combined in local memory
// The wrong-on-purpose variant local-nobarrier is RGX_COLLECTIVES_LOCAL with
// RGX_BARRIER defined empty: the same code, minus its barriers.
#ifndef RGX_COLLECTIVES_H
#define RGX_COLLECTIVES_H

#define RGX_COLLECTIVES_ATOMICS 0
#define RGX_COLLECTIVES_LOCAL 1
#define RGX_COLLECTIVES_BUILTIN 2
#define RGX_COLLECTIVES_SUBGROUP 3

#ifndef RGX_COLLECTIVES
#define RGX_COLLECTIVES RGX_COLLECTIVES_ATOMICS
#endif

#ifndef RGX_BARRIER
#define RGX_BARRIER(flags) barrier(flags)
#endif

// Scratch space a work-group needs for these operations (in uints): the
// scan's lanes (three for the local scan, which can carry two sums along),
// then single words for a maximum, a broadcast and a word read for the
// whole group.
#if RGX_COLLECTIVES == RGX_COLLECTIVES_LOCAL
#define RGX_SCAN_WORDS (3 * RGX_WG_SIZE)
#else
#define RGX_SCAN_WORDS RGX_WG_SIZE
#endif
#define RGX_SCRATCH_MAX RGX_SCAN_WORDS
#define RGX_SCRATCH_BROADCAST (RGX_SCAN_WORDS + 1)
#define RGX_SCRATCH_WORD (RGX_SCAN_WORDS + 2)
#define RGX_SCRATCH_SIZE (RGX_SCAN_WORDS + 3)

inline uint wg_local_id(void)
{
    return (uint)(get_local_id(1) * get_local_size(0) + get_local_id(0));
}

#if RGX_COLLECTIVES == RGX_COLLECTIVES_LOCAL

// Exclusive prefix sum of value over the work-group (Hillis-Steele in local
// memory); *total receives the sum over the whole work-group.
inline uint wg_scan_exclusive(uint value, __local uint* scratch, uint* total)
{
    const uint lid = wg_local_id();
    scratch[lid] = value;
    // Every work-item's value must be in place before anyone reads a neighbour's.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < RGX_WG_SIZE; offset <<= 1) {
        uint addend = lid >= offset ? scratch[lid - offset] : 0;
        // All reads of this step finish before any work-item overwrites its slot.
        RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
        scratch[lid] += addend;
        // All writes of this step land before the next step reads them.
        RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    }
    uint inclusive = scratch[lid];
    *total = scratch[RGX_WG_SIZE - 1];
    // Nobody may reuse the scratch space until every work-item has read the total.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    return inclusive - value;
}

// The same scan on lane x of three at once, carrying lanes y and z along:
// returns x's exclusive prefix; *total receives the work-group sums of all
// three. One pass of barriers instead of three.
inline uint wg_scan3_exclusive(uint3 value, __local uint* scratch, uint3* total)
{
    const uint lid = wg_local_id();
    __local uint* lane_y = scratch + RGX_WG_SIZE;
    __local uint* lane_z = scratch + 2 * RGX_WG_SIZE;
    scratch[lid] = value.x;
    lane_y[lid] = value.y;
    lane_z[lid] = value.z;
    // Every work-item's values must be in place before anyone reads a neighbour's.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < RGX_WG_SIZE; offset <<= 1) {
        const bool add = lid >= offset;
        const uint x = add ? scratch[lid - offset] : 0;
        const uint y = add ? lane_y[lid - offset] : 0;
        const uint z = add ? lane_z[lid - offset] : 0;
        // All reads of this step finish before any work-item overwrites its slots.
        RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
        scratch[lid] += x;
        lane_y[lid] += y;
        lane_z[lid] += z;
        // All writes of this step land before the next step reads them.
        RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    }
    const uint inclusive = scratch[lid];
    *total = (uint3)(scratch[RGX_WG_SIZE - 1], lane_y[RGX_WG_SIZE - 1], lane_z[RGX_WG_SIZE - 1]);
    // Nobody may reuse the scratch space until every work-item has read the totals.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    return inclusive - value.x;
}

inline uint wg_reduce_add(uint value, __local uint* scratch)
{
    uint total;
    wg_scan_exclusive(value, scratch, &total);
    return total;
}

inline uint wg_reduce_max(uint value, __local uint* scratch)
{
    const uint lid = wg_local_id();
    if (lid == 0)
        scratch[RGX_SCRATCH_MAX] = 0;
    // The cleared maximum is visible before anyone raises it.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    atomic_max(&scratch[RGX_SCRATCH_MAX], value);
    // Every work-item has raised it before anyone reads the result.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    uint result = scratch[RGX_SCRATCH_MAX];
    // The result is read by all before the slot is cleared again.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    return result;
}

// The value of work-item 0, seen by every work-item of the group.
inline uint wg_broadcast_first(uint value, __local uint* scratch)
{
    const uint lid = wg_local_id();
    if (lid == 0)
        scratch[RGX_SCRATCH_BROADCAST] = value;
    // Work-item 0's value is in place before the others read it.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    uint result = scratch[RGX_SCRATCH_BROADCAST];
    // Read by all before the slot can be written again.
    RGX_BARRIER(CLK_LOCAL_MEM_FENCE);
    return result;
}

#elif RGX_COLLECTIVES == RGX_COLLECTIVES_BUILTIN

inline uint wg_scan_exclusive(uint value, __local uint* scratch, uint* total)
{
    (void)scratch;
    *total = work_group_reduce_add(value);
    return work_group_scan_exclusive_add(value);
}

inline uint wg_reduce_add(uint value, __local uint* scratch)
{
    (void)scratch;
    return work_group_reduce_add(value);
}

inline uint wg_reduce_max(uint value, __local uint* scratch)
{
    (void)scratch;
    return work_group_reduce_max(value);
}

inline uint wg_broadcast_first(uint value, __local uint* scratch)
{
    (void)scratch;
    return work_group_broadcast(value, (size_t)0, (size_t)0);
}

#elif RGX_COLLECTIVES == RGX_COLLECTIVES_SUBGROUP

#if defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

// Subgroup operations inside each subgroup, then one value per subgroup
// combined through local memory.
inline uint wg_scan_exclusive(uint value, __local uint* scratch, uint* total)
{
    const uint lid = wg_local_id();
    const uint sg = get_sub_group_id();
    const uint sgCount = get_num_sub_groups();
    uint inSubgroup = sub_group_scan_exclusive_add(value);
    uint subgroupTotal = sub_group_reduce_add(value);
    if (get_sub_group_local_id() == 0)
        scratch[sg] = subgroupTotal;
    // Each subgroup's total is in place before the offsets are summed.
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0;
    uint all = 0;
    for (uint s = 0; s < sgCount; ++s) {
        uint t = scratch[s];
        before += s < sg ? t : 0;
        all += t;
    }
    *total = all;
    // Totals read by everyone before the scratch space is reused.
    barrier(CLK_LOCAL_MEM_FENCE);
    (void)lid;
    return before + inSubgroup;
}

inline uint wg_reduce_add(uint value, __local uint* scratch)
{
    uint total;
    wg_scan_exclusive(value, scratch, &total);
    return total;
}

inline uint wg_reduce_max(uint value, __local uint* scratch)
{
    const uint sg = get_sub_group_id();
    uint subgroupMax = sub_group_reduce_max(value);
    if (get_sub_group_local_id() == 0)
        scratch[sg] = subgroupMax;
    // Each subgroup's maximum is in place before they are combined.
    barrier(CLK_LOCAL_MEM_FENCE);
    uint result = 0;
    for (uint s = 0; s < get_num_sub_groups(); ++s)
        result = max(result, scratch[s]);
    // Read by everyone before the scratch space is reused.
    barrier(CLK_LOCAL_MEM_FENCE);
    return result;
}

inline uint wg_broadcast_first(uint value, __local uint* scratch)
{
    if (wg_local_id() == 0)
        scratch[RGX_SCRATCH_BROADCAST] = value;
    // Work-item 0's value is in place before the others read it.
    barrier(CLK_LOCAL_MEM_FENCE);
    uint result = scratch[RGX_SCRATCH_BROADCAST];
    // Read by all before the slot can be written again.
    barrier(CLK_LOCAL_MEM_FENCE);
    return result;
}

#endif

// A global word read once for the whole work-group: one load instead of one
// per work-item, which on a GPU all queue at the same memory address (a
// level's size, read by tens of thousands of work-items, cost microseconds).
// A kernel boundary or a grid barrier must separate it from its writers.
inline uint wg_read_once(volatile __global const uint* word, __local uint* scratch)
{
    if (wg_local_id() == 0)
        scratch[RGX_SCRATCH_WORD] = *word;
    // The word is in place before the group reads it.
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint value = scratch[RGX_SCRATCH_WORD];
    // Read by all before the slot can be written again.
    barrier(CLK_LOCAL_MEM_FENCE);
    return value;
}

#endif
