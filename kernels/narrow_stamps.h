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
// reads the stamps in two bytes instead. RGX_NARROW_RUN, RGX_NARROW_WIDE and
// RGX_NARROW_AT_ONCE come from the host (sessionKernels: BoxMaps::narrowRun
// and narrowWide, narrowAtOnce), which reads what this writes.
#if !defined(RGX_NARROW_RUN) || !defined(RGX_NARROW_WIDE) || !defined(RGX_NARROW_AT_ONCE)
#error "build with -DRGX_NARROW_RUN, -DRGX_NARROW_WIDE and -DRGX_NARROW_AT_ONCE (sessionKernels)"
#endif

// Rows rows.x to rows.y of the box at corner (x, y, z), size (box_width,
// box_height, box_depth) samples, slices stacked: a slab of RGX_READ_SLABS,
// or all of them. A work-group of 64 packs four runs at a time, four samples
// a work-item (a run's least and largest stamps by local atomics: three
// barriers for 256 samples, where a tree took seven for 64); dimension 0
// walks a row's runs, dimension 1 the rows.
__kernel __attribute__((reqd_work_group_size(RGX_NARROW_RUN, 1, 1))) void
pack_narrow(__global const uint* stamps, const uint width, const uint slice_height, const uint4 corner,
            const uint4 size, const uint2 rows, const uint wide_capacity, __global uchar* bytes,
            __global uint* bases, volatile __global uint* wide)
{
    __local uint least[RGX_NARROW_AT_ONCE];
    __local uint most[RGX_NARROW_AT_ONCE];
    __local uint slot[RGX_NARROW_AT_ONCE];
    const uint lanes = RGX_NARROW_RUN / 4; // work-items a run
    const uint part = get_local_id(0) / lanes, quad = get_local_id(0) % lanes;
    const uint box_width = size.x;
    const uint runs = (box_width + RGX_NARROW_RUN - 1) / RGX_NARROW_RUN;
    RowWalk walk = row_walk(rows.x + get_group_id(1), get_num_groups(1), size.y);
    for (uint row = rows.x + get_group_id(1); row < rows.y; row += get_num_groups(1), walk_on(&walk)) {
        const uint first = ((corner.z + walk.z) * slice_height + corner.y + walk.y) * width + corner.x;
        for (uint group_run = get_group_id(0) * RGX_NARROW_AT_ONCE; group_run < runs;
             group_run += get_num_groups(0) * RGX_NARROW_AT_ONCE) {
            const uint run = group_run + part;
            const uint column = run * RGX_NARROW_RUN + quad * 4;
            const bool whole = column + 3 < box_width;
            uint4 stamp = (uint4)(UNCLASSIFIED);
            if (whole) {
                stamp = vload4(0, stamps + first + column);
            } else {
                stamp.x = column < box_width ? stamps[first + column] : UNCLASSIFIED;
                stamp.y = column + 1 < box_width ? stamps[first + column + 1] : UNCLASSIFIED;
                stamp.z = column + 2 < box_width ? stamps[first + column + 2] : UNCLASSIFIED;
            }
            // "Never" counts as 0 for the largest.
            const uint4 reached = select(stamp, (uint4)(0), stamp == (uint4)(UNCLASSIFIED));
            if (get_local_id(0) < RGX_NARROW_AT_ONCE) {
                least[get_local_id(0)] = UNCLASSIFIED;
                most[get_local_id(0)] = 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            atomic_min(&least[part], min(min(stamp.x, stamp.y), min(stamp.z, stamp.w)));
            atomic_max(&most[part], max(max(reached.x, reached.y), max(reached.z, reached.w)));
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint base = least[part];
            const bool narrow = base == UNCLASSIFIED || most[part] - base < 0xFF;
            if (!narrow && quad == 0)
                slot[part] = atomic_inc(&wide[0]);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (run < runs) {
                const ulong i = (ulong)row * box_width + column;
                if (narrow) {
                    const uchar4 packed = convert_uchar4(select(stamp - (uint4)(base), (uint4)(0xFF),
                                                                stamp == (uint4)(UNCLASSIFIED)));
                    if (whole) {
                        vstore4(packed, 0, bytes + i);
                    } else {
                        if (column < box_width)
                            bytes[i] = packed.x;
                        if (column + 1 < box_width)
                            bytes[i + 1] = packed.y;
                        if (column + 2 < box_width)
                            bytes[i + 2] = packed.z;
                    }
                } else if (slot[part] < wide_capacity) {
                    vstore4(stamp, 0, (__global uint*)wide + (ulong)(slot[part] + 1) * RGX_NARROW_RUN + quad * 4);
                }
                if (quad == 0)
                    bases[(ulong)row * runs + run] = narrow ? (base == UNCLASSIFIED ? 0 : base)
                                                            : RGX_NARROW_WIDE | slot[part];
            }
            barrier(CLK_LOCAL_MEM_FENCE); // least, most and slot are the next runs'
        }
    }
}
