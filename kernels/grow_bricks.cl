// fusion=tiles on a volume (SPEC "Volumes (3D)") where a classified voxel's
// stamp follows from its luma (one region in mode range or competitive;
// several regions in mode competitive, whose labels label_levels.cl then
// finds): the 2D tiles of grow_tiles.cl become bricks of 8 x 8 x 8 voxels. A round
// visits the bricks queued for it; a work-group takes a brick with a
// one-voxel halo into local memory and lowers its stamps towards the fixed
// point stamp(p) = 1 + min over the neighbours q of stamp(q), over the
// voxels whose luma lies in [lowest, highest]; the seed keeps 0. Lowering
// in any order ends at the breadth-first distances from the seed, so the
// stamps are exactly SPEC's iterations. A brick writes the voxels it improved and
// queues each neighbouring brick where one of them can lower a stamp (the
// halo it read holds more than its stamp + 1) for the next round; the run
// ends when a round queues none. Another brick's halo may change while
// this one reads it: the one that changed it queues this brick again, so a
// stale read only costs a round.
//
// Inside a brick the stamps are lowered level by level on bit masks (the 2D
// tile step's RGX_TILE_BITS, in 3D): work-item t of 64 holds row t of the
// brick (8 voxels along x at one y and z) as bits: the voxels open to the
// region, those reached so far, and their stamps in registers. A voxel
// enters at its entry level: its stamp, or one more than the least stamp
// of its neighbours in the halo (read once, from local memory). Level L
// publishes each row's reached voxels; a voxel is reached at L where it
// enters at L or a neighbouring row's bits, spread by one along x where the
// connectivity steps along x, meet it open. A level costs one barrier of
// two warps and a few word operations a row, where the Jacobi step of
// every voxel it replaced cost two barriers of sixteen warps and 26 reads
// of local memory (docs/PERFORMANCE.md, "Volumes"). A 6-connected brick
// whose voxels are all open skips the levels: the distance inside it is
// city-block, which a sweep along each axis finds (sweep_line, grow_common.h).
#include "grid_barrier.h"
#include "grow_common.h"

// A 6-connected brick whose voxels are all open takes sweeps (0: the levels).
#ifndef RGX_BRICK_SWEEPS
#define RGX_BRICK_SWEEPS 1
#endif

#define BRICK 8
#define HALO (BRICK + 2)
#define HALO_WORDS (HALO * HALO * HALO)
#define GROUP (BRICK * BRICK)     // a work-item per row of the brick

// A voxel's entry level `e` lowered by a neighbour's stamp h in the halo.
inline uint entry_from(uint e, uint h) { return h != UNCLASSIFIED ? min(e, h + 1) : e; }

// 18- and 26-connectivity: the halo voxels a voxel reaches through one face
// of the brick, a patch around its face neighbour `center` (index in the
// halo) along the face's two axes (index steps a and b): the four beside it
// with 18, and the four at its corners too with 26.
inline uint patch_least(__local const uint* halo, int center, int a, int b, int connectivity)
{
    uint m = min(halo[center], min(min(halo[center - a], halo[center + a]), min(halo[center - b], halo[center + b])));
    if (connectivity == 26)
        m = min(m, min(min(halo[center - a - b], halo[center - a + b]),
                       min(halo[center + a - b], halo[center + a + b])));
    return m;
}

// The bricks beyond a face (bit (ox + 1) + 3 ((oy + 1) + 3 (oz + 1))) whose
// patch voxels (as patch_least's, the face neighbour at x, y, z of the
// padded brick, the face's axes u and v: 0 x, 1 y, 2 z) hold more than `beyond`.
inline uint patch_reach(__local const uint* halo, int x, int y, int z, int u, int v, int connectivity, uint beyond)
{
    uint bits = 0;
#pragma unroll
    for (int a = -1; a <= 1; ++a)
#pragma unroll
        for (int b = -1; b <= 1; ++b) {
            if (a != 0 && b != 0 && connectivity != 26)
                continue;
            const int nx = x + (u == 0 ? a : 0) + (v == 0 ? b : 0);
            const int ny = y + (u == 1 ? a : 0) + (v == 1 ? b : 0);
            const int nz = z + (u == 2 ? a : 0) + (v == 2 ? b : 0);
            if (halo[(nz * HALO + ny) * HALO + nx] <= beyond)
                continue;
            const int ox = nx == 0 ? -1 : nx == HALO - 1 ? 1 : 0;
            const int oy = ny == 0 ? -1 : ny == HALO - 1 ? 1 : 0;
            const int oz = nz == 0 ? -1 : nz == HALO - 1 ? 1 : 0;
            bits |= 1u << (uint)((ox + 1) + 3 * ((oy + 1) + 3 * (oz + 1)));
        }
    return bits;
}

inline uint along_x(uint bits) { return (bits | (bits << 1) | (bits >> 1)) & 0xFFu; }

// The voxels of the row at `at` (rows padded by an empty one on every side,
// HALO x HALO) with a reached neighbour in `rows`, by the connectivity.
inline uint reachable(__local const uchar* rows, uint own, int at, int connectivity)
{
    const uint yl = rows[at - 1], yh = rows[at + 1];
    const uint bits = ((own << 1) | (own >> 1)) & 0xFFu;
    if (connectivity == 4)
        return bits | yl | yh;
    if (connectivity == 8)
        return bits | along_x(yl | yh);
    const uint zl = rows[at - HALO], zh = rows[at + HALO];
    if (connectivity == 6)
        return bits | yl | yh | zl | zh;
    const uint edges = rows[at - 1 - HALO] | rows[at + 1 - HALO] | rows[at - 1 + HALO] | rows[at + 1 + HALO];
    if (connectivity == 18)
        return bits | along_x(yl | yh | zl | zh) | edges;
    return bits | along_x(yl | yh | zl | zh | edges);
}

// Rounds first_round..last_round. With more than one round the work-groups
// must all be resident (a roll call first) and meet at a grid barrier
// between rounds (grid_barrier.h), reading what other groups wrote in the
// rounds before through volatile pointers; with one round (the host's
// fallback, one launch per round) the kernel boundary separates the rounds.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void grow_bricks(const uint first_round, const uint last_round, const int width, const int height,
                 const int slice_height, __global const ushort* luma, volatile __global ushort* labels,
                 volatile __global uint* stamps, const uint lowest, const uint highest, const int connectivity,
                 volatile __global uint* lists, volatile __global uint* marks, volatile __global uint* counters,
                 const uint brick_count)
{
    __local uint halo[HALO_WORDS];    // the padded brick's stamps as read
    __local uchar rows[2][HALO * HALO]; // level L's reached bits in rows[L % 2], the padding empty
    __local uint changed[3];          // level L reached a voxel or has more to come: changed[L % 3]
    __local uint first_entry;
    __local uint not_open;            // a voxel of the brick is not open to the region
    __local uint reach;               // bit o: the neighbouring brick at offset o of 3 x 3 x 3 must look again
    __local uint wrote;               // a voxel's stamp was lowered
    __local uint verdict;             // the grid barrier's
    __local uint round_count;
    __local uint settled[GROUP * BRICK]; // the visit's stamps, row t at t * BRICK
    const int depth = height / slice_height;
    const uint bricks_x = ((uint)width + BRICK - 1) / BRICK;
    const uint bricks_y = ((uint)slice_height + BRICK - 1) / BRICK;
    const int t = (int)get_local_id(0);
    const int ry = t % BRICK + 1, rz = t / BRICK + 1; // this row in the padded brick
    const int at = ry + HALO * rz;
    for (int i = t; i < 2 * HALO * HALO; i += GROUP)
        rows[i / (HALO * HALO)][i % (HALO * HALO)] = 0;
    const bool fused = last_round > first_round;
    if (fused && !grid_roll_call(counters + RGX_COUNTER_GRID, &verdict))
        return;
    uint passed = 0;
    for (uint round = first_round; round <= last_round; ++round) {
        // Round 1 grows the seeds' bricks (the host lists them); later rounds
        // the bricks queued for them. The count is complete: the last grid
        // barrier or launch ended its writers; everyone has it before the next
        // round overwrites it.
        if (t == 0)
            round_count = counters[RGX_COUNTER_TILES + round % 3];
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint count = round_count;
        barrier(CLK_LOCAL_MEM_FENCE);
        // Round r - 1's count becomes round r + 2's, for round r + 1 to fill.
        // Also where round r has nothing to do: in the host's batch of
        // launches of one round each, round r + 2 must not find round r - 1's
        // bricks in it (it would read entries of its list no round wrote).
        if (get_global_id(0) == 0)
            counters[RGX_COUNTER_TILES + (round + 2) % 3] = 0;
        if (count == 0)
            break;
        volatile __global const uint* list_in = lists + (round % 2) * brick_count;
        volatile __global uint* list_out = lists + ((round + 1) % 2) * brick_count;

        for (uint b = get_group_id(0); b < count; b += get_num_groups(0)) {
            const uint brick = list_in[b];
            const int bx = (int)(brick % bricks_x), by = (int)(brick / bricks_x % bricks_y);
            const int bz = (int)(brick / (bricks_x * bricks_y));
            // Every load issued before the first is waited for: a brick's
            // visit is mostly this latency when few bricks are queued.
            uint loaded[(HALO_WORDS + GROUP - 1) / GROUP];
#pragma unroll
            for (int k = 0; k < (HALO_WORDS + GROUP - 1) / GROUP; ++k) {
                const int w = t + k * GROUP;
                const int x = bx * BRICK + w % HALO - 1;
                const int y = by * BRICK + w / HALO % HALO - 1;
                const int z = bz * BRICK + w / (HALO * HALO) - 1;
                const bool inside = w < HALO_WORDS && x >= 0 && y >= 0 && z >= 0 && x < width && y < slice_height && z < depth;
                loaded[k] = inside ? stamps[((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)x] : UNCLASSIFIED;
            }
            const int y = by * BRICK + ry - 1, z = bz * BRICK + rz - 1;
            const bool row_in_volume = y < slice_height && z < depth;
            const uint row_start = ((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)(bx * BRICK);
            uint value[BRICK];
#pragma unroll
            for (int i = 0; i < BRICK; ++i)
                value[i] = row_in_volume && bx * BRICK + i < width ? luma[row_start + (uint)i] : 0xFFFFFFFFu;
#pragma unroll
            for (int k = 0; k < (HALO_WORDS + GROUP - 1) / GROUP; ++k)
                if (t + k * GROUP < HALO_WORDS)
                    halo[t + k * GROUP] = loaded[k];
            if (t == 0) {
                first_entry = UNCLASSIFIED;
                not_open = 0;
                reach = 0;
                wrote = 0;
            }
            if (t < 3)
                changed[t] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);

            // This row: the voxels open to the region, and each one's entry
            // level (its stamp, or one more than its least neighbour in the halo).
            const bool face_row = ry == 1 || ry == BRICK || rz == 1 || rz == BRICK;
            uint open = 0, entry[BRICK], s[BRICK], low = UNCLASSIFIED;
#pragma unroll
            for (int i = 0; i < BRICK; ++i) {
                const int px = i + 1; // in the padded brick
                s[i] = UNCLASSIFIED;
                entry[i] = UNCLASSIFIED;
                if (value[i] < lowest || value[i] > highest) // outside the volume too
                    continue;
                open |= 1u << i;
                uint e = halo[at * HALO + px];
                if (connectivity == 6) {
                    // The face neighbours outside the brick, at most three,
                    // read straight from the halo: the loop over the
                    // neighbour table below made every face row's work-item
                    // test ten entries a voxel (whole 512^3 volume on the
                    // H100, with the reach below: grow_bricks 8.94 -> 5.85 ms).
                    if (i == 0)
                        e = entry_from(e, halo[at * HALO]);
                    if (i == BRICK - 1)
                        e = entry_from(e, halo[at * HALO + HALO - 1]);
                    if (ry == 1)
                        e = entry_from(e, halo[(at - 1) * HALO + px]);
                    if (ry == BRICK)
                        e = entry_from(e, halo[(at + 1) * HALO + px]);
                    if (rz == 1)
                        e = entry_from(e, halo[(at - HALO) * HALO + px]);
                    if (rz == BRICK)
                        e = entry_from(e, halo[(at + HALO) * HALO + px]);
                } else if (connectivity == 18 || connectivity == 26) {
                    // Each face of the brick the voxel lies on: the patch
                    // around its face neighbour (the table's loop took 18
                    // or 26 entries a voxel: whole 512^3 volume on the H100,
                    // grow_bricks 28.7 -> 10.8 ms with 26, 21.8 -> 10.4 with 18).
                    if (i == 0)
                        e = entry_from(e, patch_least(halo, at * HALO, HALO, HALO * HALO, connectivity));
                    if (i == BRICK - 1)
                        e = entry_from(e, patch_least(halo, at * HALO + HALO - 1, HALO, HALO * HALO, connectivity));
                    if (ry == 1)
                        e = entry_from(e, patch_least(halo, (at - 1) * HALO + px, 1, HALO * HALO, connectivity));
                    if (ry == BRICK)
                        e = entry_from(e, patch_least(halo, (at + 1) * HALO + px, 1, HALO * HALO, connectivity));
                    if (rz == 1)
                        e = entry_from(e, patch_least(halo, (at - HALO) * HALO + px, 1, HALO, connectivity));
                    if (rz == BRICK)
                        e = entry_from(e, patch_least(halo, (at + HALO) * HALO + px, 1, HALO, connectivity));
                } else if (face_row || i == 0 || i == BRICK - 1) {
                    for (int d = 0; d < neighbour_end(connectivity); ++d) {
                        if (!neighbour_in_use(d, connectivity))
                            continue;
                        const int nx = px + neighbour_dx[d], ny = ry + neighbour_dy[d], nz = rz + neighbour_dz[d];
                        if (nx == 0 || nx == HALO - 1 || ny == 0 || ny == HALO - 1 || nz == 0 || nz == HALO - 1) {
                            const uint h = halo[(nz * HALO + ny) * HALO + nx];
                            if (h != UNCLASSIFIED)
                                e = min(e, h + 1);
                        }
                    }
                }
                entry[i] = e;
                low = min(low, e);
            }
            atomic_min(&first_entry, low);
            if (open != 0xFFu)
                not_open = 1u; // every writer writes 1
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint first_level = first_entry;

            // Level by level from the first entry: a level reaches the voxels
            // that enter at it and the open ones next to voxels reached before
            // it. It stops after a level that reached none with none to enter.
            uint own = 0;
            uint pending = 0;
            uint level = first_level;
#pragma unroll
            for (int i = 0; i < BRICK; ++i)
                pending |= (entry[i] != UNCLASSIFIED ? 1u : 0u) << i;
            const bool sweeps = RGX_BRICK_SWEEPS && connectivity == 6 && not_open == 0 && first_level != UNCLASSIFIED;
            if (sweeps) {
                // Every voxel open, 6-connected: a voxel's distance inside
                // the brick is the least over the voxels q of q's entry plus
                // the city-block distance to q, which three sweeps find, one
                // along each axis, where the levels took one barrier each
                // (about 22 a brick; whole 512^3 volume on the H100:
                // grow_bricks 5.84 -> 4.60 ms).
                const int lx = t % BRICK, lo = t / BRICK; // the y and z lines' owner
#pragma unroll
                for (int i = 0; i < BRICK; ++i)
                    s[i] = entry[i];
                sweep_line(s, BRICK);
#pragma unroll
                for (int i = 0; i < BRICK; ++i)
                    settled[t * BRICK + i] = s[i];
                barrier(CLK_LOCAL_MEM_FENCE);
                sweep_local(&settled[lo * BRICK * BRICK + lx], BRICK, BRICK); // along y, at x = lx, z = lo
                barrier(CLK_LOCAL_MEM_FENCE);
                sweep_local(&settled[lo * BRICK + lx], BRICK * BRICK, BRICK); // along z, at x = lx, y = lo
                barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
                for (int i = 0; i < BRICK; ++i)
                    s[i] = settled[t * BRICK + i];
            }
            for (; !sweeps && first_level != UNCLASSIFIED; ++level) {
                rows[level % 2][at] = (uchar)own;
                barrier(CLK_LOCAL_MEM_FENCE);
                if (t == 0)
                    changed[(level + 1) % 3] = 0; // its last readers were at level - 2
                if (level > first_level && changed[(level - 1) % 3] == 0)
                    break;
                uint fresh = reachable(rows[level % 2], own, at, connectivity) & open & ~own;
                if (pending != 0) {
#pragma unroll
                    for (int i = 0; i < BRICK; ++i)
                        fresh |= (entry[i] == level ? 1u : 0u) << i;
                    fresh &= ~own;
                }
                if (fresh != 0) {
#pragma unroll
                    for (int i = 0; i < BRICK; ++i)
                        if ((fresh >> i) & 1u)
                            s[i] = level;
                    own |= fresh;
                }
                pending &= ~own;
                if ((fresh | pending) != 0)
                    atomic_or(&changed[level % 3], 1u);
            }

            // The voxels improved, noted; the neighbouring bricks whose halo
            // voxels they can lower, queued.
            uint bits = 0;
            bool lowered = false;
#pragma unroll
            for (int i = 0; i < BRICK; ++i) {
                const int px = i + 1;
                settled[t * BRICK + i] = s[i];
                if (s[i] >= halo[at * HALO + px])
                    continue;
                lowered = true;
                if (!face_row && i != 0 && i != BRICK - 1)
                    continue;
                if (connectivity == 6) {
                    // Bit (ox + 1) + 3 ((oy + 1) + 3 (oz + 1)) of each face
                    // neighbour's brick where its halo voxel can be lowered.
                    const uint beyond = s[i] + 1;
                    if (i == 0 && halo[at * HALO] > beyond)
                        bits |= 1u << 12;
                    if (i == BRICK - 1 && halo[at * HALO + HALO - 1] > beyond)
                        bits |= 1u << 14;
                    if (ry == 1 && halo[(at - 1) * HALO + px] > beyond)
                        bits |= 1u << 10;
                    if (ry == BRICK && halo[(at + 1) * HALO + px] > beyond)
                        bits |= 1u << 16;
                    if (rz == 1 && halo[(at - HALO) * HALO + px] > beyond)
                        bits |= 1u << 4;
                    if (rz == BRICK && halo[(at + HALO) * HALO + px] > beyond)
                        bits |= 1u << 22;
                    continue;
                }
                if (connectivity == 18 || connectivity == 26) {
                    const uint beyond = s[i] + 1;
                    if (i == 0)
                        bits |= patch_reach(halo, 0, ry, rz, 1, 2, connectivity, beyond);
                    if (i == BRICK - 1)
                        bits |= patch_reach(halo, HALO - 1, ry, rz, 1, 2, connectivity, beyond);
                    if (ry == 1)
                        bits |= patch_reach(halo, px, 0, rz, 0, 2, connectivity, beyond);
                    if (ry == BRICK)
                        bits |= patch_reach(halo, px, HALO - 1, rz, 0, 2, connectivity, beyond);
                    if (rz == 1)
                        bits |= patch_reach(halo, px, ry, 0, 0, 1, connectivity, beyond);
                    if (rz == BRICK)
                        bits |= patch_reach(halo, px, ry, HALO - 1, 0, 1, connectivity, beyond);
                    continue;
                }
                for (int d = 0; d < neighbour_end(connectivity); ++d) {
                    if (!neighbour_in_use(d, connectivity))
                        continue;
                    const int nx = px + neighbour_dx[d], ny = ry + neighbour_dy[d], nz = rz + neighbour_dz[d];
                    const int ox = nx == 0 ? -1 : nx == HALO - 1 ? 1 : 0;
                    const int oy = ny == 0 ? -1 : ny == HALO - 1 ? 1 : 0;
                    const int oz = nz == 0 ? -1 : nz == HALO - 1 ? 1 : 0;
                    if ((ox != 0 || oy != 0 || oz != 0) && halo[(nz * HALO + ny) * HALO + nx] > s[i] + 1)
                        bits |= 1u << (uint)((ox + 1) + 3 * ((oy + 1) + 3 * (oz + 1)));
                }
            }
            if (bits != 0)
                atomic_or(&reach, bits);
            if (lowered)
                atomic_or(&wrote, 1u);
            barrier(CLK_LOCAL_MEM_FENCE);
            // The lowered stamps, written across the rows: voxel v of the
            // brick by work-item v % 64, so that a warp's store covers four
            // rows of 8 voxels, four sectors, where the row's owner writing
            // its own 8 made each store touch 32 rows (whole 512^3 volume on
            // the H100: grow_bricks 10.46 -> 8.95 ms).
            if (wrote != 0) {
#pragma unroll
                for (int k = 0; k < BRICK; ++k) {
                    const int v = t + k * GROUP, vx = v % BRICK, row = v / BRICK;
                    const int vy = row % BRICK + 1, vz = row / BRICK + 1; // in the padded brick
                    const uint now = settled[v];
                    if (now < halo[(vz * HALO + vy) * HALO + vx + 1]) {
                        const uint p = ((uint)(bz * BRICK + vz - 1) * (uint)slice_height + (uint)(by * BRICK + vy - 1)) *
                                           (uint)width + (uint)(bx * BRICK + vx);
                        stamps[p] = now;
                        labels[p] = 1;
                    }
                }
            }
            // The box the run touched (summarize reads only that): a word a
            // work-item, its atomic only where the brick widens the box (the
            // words only widen, so a word read as wide enough is).
            if (t < 6 && wrote != 0) {
                const int axis = t % 3, start = axis == 0 ? bx : axis == 1 ? by : bz;
                const int end = axis == 0 ? width : axis == 1 ? slice_height : depth;
                const uint value = (uint)(t < 3 ? start * BRICK : min(start * BRICK + BRICK, end) - 1);
                volatile __global uint* word = axis == 2 ? &counters[RGX_COUNTER_TOUCHED_Z + t / 3]
                                                         : &counters[RGX_COUNTER_TOUCHED + axis + 2 * (t / 3)];
                if (t < 3 && *word > value)
                    atomic_min(word, value);
                else if (t >= 3 && *word < value)
                    atomic_max(word, value);
            }
            if (t < 27 && (reach & (1u << t)) != 0) {
                const int nx = bx + t % 3 - 1, ny = by + t / 3 % 3 - 1, nz = bz + t / 9 - 1;
                if (nx >= 0 && ny >= 0 && nz >= 0 && nx < (int)bricks_x && ny < (int)bricks_y &&
                    nz * BRICK < depth) {
                    const uint next = ((uint)nz * bricks_y + (uint)ny) * bricks_x + (uint)nx;
                    if (atomic_xchg(&marks[next], round + 1) != round + 1)
                        list_out[atomic_inc(&counters[RGX_COUNTER_TILES + (round + 1) % 3])] = next;
                }
            }
            // The local buffers are free again only once everyone is done with them.
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (fused && !grid_barrier(counters + RGX_COUNTER_GRID, &passed, &verdict, round,
                                   &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
        // A maximum: a group late to this store must not undo a stall's record.
        if (get_global_id(0) == 0)
            atomic_max(&counters[RGX_COUNTER_LAST_LAUNCHED], round);
    }
}
