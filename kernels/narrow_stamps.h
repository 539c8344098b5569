// Box maps' stamps in one byte a sample (the host's BoxMaps, stampBytes 1):
// half the bytes of two-byte stamps over the bus, where a large region's
// read-back is most of a click. Included by grow_session.cl (RowWalk,
// UNCLASSIFIED).
//
// Each run of RGX_NARROW_RUN samples of a row of the box (a row's last run
// may be shorter) has a base: the least stamp classified in it (0 where
// none is). Its samples are stamp - base, 0xFF for "never". In a run whose
// stamps span 0xFF or more (a run across two branches of a winding region,
// or across two regions) the run is "wide": its base is RGX_NARROW_WIDE | k
// and its stamps, as uints, are slot k of `wide`. wide[0] counts the wide
// runs; slot k is the RGX_NARROW_RUN words from (k + 1) * RGX_NARROW_RUN.
// Slots past `wide_capacity` are counted but not written: the host then
// reads the stamps in two bytes instead.
#define RGX_NARROW_RUN 64
#define RGX_NARROW_WIDE 0x80000000u

// Rows rows.x to rows.y of the box at corner (x, y, z), size (box_width,
// box_height, box_depth) samples, slices stacked: a slab of RGX_READ_SLABS,
// or all of them. A work-group packs a run at a time, a sample a work-item:
// dimension 0 walks a row's runs, dimension 1 the rows.
__kernel __attribute__((reqd_work_group_size(RGX_NARROW_RUN, 1, 1))) void
pack_narrow(__global const uint* stamps, const uint width, const uint slice_height, const uint4 corner,
            const uint4 size, const uint2 rows, const uint wide_capacity, __global uchar* bytes,
            __global uint* bases, volatile __global uint* wide)
{
    __local uint least[RGX_NARROW_RUN];
    __local uint most[RGX_NARROW_RUN];
    __local uint slot;
    const uint lane = get_local_id(0);
    const uint box_width = size.x;
    const uint runs = (box_width + RGX_NARROW_RUN - 1) / RGX_NARROW_RUN;
    RowWalk walk = row_walk(rows.x + get_group_id(1), get_num_groups(1), size.y);
    for (uint row = rows.x + get_group_id(1); row < rows.y; row += get_num_groups(1), walk_on(&walk)) {
        const uint first = ((corner.z + walk.z) * slice_height + corner.y + walk.y) * width + corner.x;
        for (uint run = get_group_id(0); run < runs; run += get_num_groups(0)) {
            const uint column = run * RGX_NARROW_RUN + lane;
            const uint stamp = column < box_width ? stamps[first + column] : UNCLASSIFIED;
            least[lane] = stamp;
            most[lane] = stamp == UNCLASSIFIED ? 0 : stamp;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint apart = RGX_NARROW_RUN / 2; apart > 0; apart >>= 1) {
                if (lane < apart) {
                    least[lane] = min(least[lane], least[lane + apart]);
                    most[lane] = max(most[lane], most[lane + apart]);
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            const uint base = least[0];
            const ulong i = (ulong)row * box_width + column;
            // The same for the whole work-group (local memory after a barrier).
            if (base == UNCLASSIFIED || most[0] - base < 0xFF) {
                if (column < box_width)
                    bytes[i] = stamp == UNCLASSIFIED ? (uchar)0xFF : (uchar)(stamp - base);
                if (lane == 0)
                    bases[(ulong)row * runs + run] = base == UNCLASSIFIED ? 0 : base;
            } else {
                if (lane == 0)
                    slot = atomic_inc(&wide[0]);
                barrier(CLK_LOCAL_MEM_FENCE);
                const uint k = slot;
                if (k < wide_capacity)
                    wide[(ulong)(k + 1) * RGX_NARROW_RUN + lane] = stamp;
                if (lane == 0)
                    bases[(ulong)row * runs + run] = RGX_NARROW_WIDE | k;
            }
            barrier(CLK_LOCAL_MEM_FENCE); // least, most and slot are the next run's
        }
    }
}
