// fusion=tiles on a volume (SPEC "Volumes (3D)") where a classified voxel's
// label follows from its luma (one region, mode range or competitive): the
// 2D tiles of grow_tiles.cl become bricks of 8 x 8 x 8 voxels. A round
// visits the bricks queued for it; a work-group takes a brick with a
// one-voxel halo into local memory and relaxes its stamps to the fixed point
// stamp(p) = 1 + min over the neighbours q of stamp(q), over the voxels
// whose luma lies in [lowest, highest]; the seed keeps 0. Relaxation in any
// order ends at the breadth-first distances from the seed, so the stamps
// are exactly SPEC's iterations. A brick writes the voxels it improved and
// queues each neighbouring brick one of them touches (by the connectivity)
// for the next round; the run ends when a round queues none. Another
// brick's halo may change while this one reads it: the one that changed it
// queues this brick again, so a stale read only costs a round.
//
// Stamps: the voxels' maps as region_growing.cl has them (slices stacked,
// `height` rows of slices of `slice_height` rows). The lists, marks and
// counters are fusion=tiles' (GrowState::tileLists, tileMark, counters
// RGX_COUNTER_TILES + round % 3).
#include "grow_common.h"

#define BRICK 8
#define BRICK_VOXELS (BRICK * BRICK * BRICK)
#define HALO (BRICK + 2)
#define HALO_WORDS (HALO * HALO * HALO)

__kernel __attribute__((reqd_work_group_size(BRICK_VOXELS, 1, 1)))
void grow_bricks(const uint round, const int width, const int height, const int slice_height,
                 __global const ushort* luma, __global ushort* labels, __global uint* stamps,
                 const uint lowest, const uint highest, const int connectivity, const uint first_brick,
                 __global uint* lists, volatile __global uint* marks, volatile __global uint* counters,
                 const uint brick_count)
{
    __local uint now[HALO_WORDS];
    __local uint changed[3]; // per relaxation step, in turn (see below)
    __local uint reach;      // bit o: the neighbouring brick at offset o of 3 x 3 x 3 must look again
    const int depth = height / slice_height;
    const uint bricks_x = ((uint)width + BRICK - 1) / BRICK;
    const uint bricks_y = ((uint)slice_height + BRICK - 1) / BRICK;
    const uint lid = get_local_id(0);
    const int lx = (int)(lid % BRICK), ly = (int)(lid / BRICK % BRICK), lz = (int)(lid / (BRICK * BRICK));
    const uint at = (uint)(lx + 1) + HALO * ((uint)(ly + 1) + HALO * (uint)(lz + 1));
    // Round 1 grows the seed's brick; later rounds the bricks queued for them.
    const uint count = round == 1 ? 1u : counters[RGX_COUNTER_TILES + round % 3];
    if (get_global_id(0) == 0)
        counters[RGX_COUNTER_TILES + (round + 2) % 3] = 0; // for round + 1 to fill
    __global const uint* list_in = lists + (round % 2) * brick_count;
    __global uint* list_out = lists + ((round + 1) % 2) * brick_count;

    for (uint i = get_group_id(0); i < count; i += get_num_groups(0)) {
        const uint brick = round == 1 ? first_brick : list_in[i];
        const int bx = (int)(brick % bricks_x), by = (int)(brick / bricks_x % bricks_y);
        const int bz = (int)(brick / (bricks_x * bricks_y));
        for (uint w = lid; w < HALO_WORDS; w += BRICK_VOXELS) {
            const int x = bx * BRICK + (int)(w % HALO) - 1;
            const int y = by * BRICK + (int)(w / HALO % HALO) - 1;
            const int z = bz * BRICK + (int)(w / (HALO * HALO)) - 1;
            const bool inside = x >= 0 && y >= 0 && z >= 0 && x < width && y < slice_height && z < depth;
            now[w] = inside ? stamps[((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)x] : UNCLASSIFIED;
        }
        if (lid < 3)
            changed[lid] = 0;
        if (lid == 0)
            reach = 0;
        barrier(CLK_LOCAL_MEM_FENCE);

        const int x = bx * BRICK + lx, y = by * BRICK + ly, z = bz * BRICK + lz;
        const bool inside = x < width && y < slice_height && z < depth;
        const uint p = inside ? ((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)x : 0;
        const uint value = inside ? luma[p] : 0;
        const bool open = inside && value >= lowest && value <= highest;
        const uint before = now[at];
        uint mine = before;
        // Jacobi steps: everyone reads, a barrier, the improved write, a
        // barrier. Step s raises changed[s % 3] and clears changed[(s + 1) % 3]
        // for the next step, whose last reader finished two barriers ago.
        for (uint step = 0;; ++step) {
            uint best = mine;
            for (int d = 0; open && d < neighbour_end(connectivity); ++d) {
                if (!neighbour_in_use(d, connectivity))
                    continue;
                const uint s = now[(uint)((int)at + neighbour_dx[d] +
                                          HALO * (neighbour_dy[d] + HALO * neighbour_dz[d]))];
                if (s != UNCLASSIFIED && s + 1 < best)
                    best = s + 1;
            }
            if (lid == 0)
                changed[(step + 1) % 3] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (best < mine) {
                mine = best;
                now[at] = best;
                atomic_or(&changed[step % 3], 1u);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (changed[step % 3] == 0)
                break;
        }

        if (mine < before) {
            stamps[p] = mine;
            labels[p] = 1;
            // The bricks beyond the faces, edges or corners this voxel touches.
            uint bits = 0;
            for (int d = 0; d < neighbour_end(connectivity); ++d) {
                if (!neighbour_in_use(d, connectivity))
                    continue;
                const int nx = lx + neighbour_dx[d], ny = ly + neighbour_dy[d], nz = lz + neighbour_dz[d];
                const int ox = nx < 0 ? -1 : nx >= BRICK ? 1 : 0;
                const int oy = ny < 0 ? -1 : ny >= BRICK ? 1 : 0;
                const int oz = nz < 0 ? -1 : nz >= BRICK ? 1 : 0;
                if (ox != 0 || oy != 0 || oz != 0)
                    bits |= 1u << (uint)((ox + 1) + 3 * ((oy + 1) + 3 * (oz + 1)));
            }
            if (bits != 0)
                atomic_or(&reach, bits);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 27 && (reach & (1u << lid)) != 0) {
            const int nx = bx + (int)(lid % 3) - 1, ny = by + (int)(lid / 3 % 3) - 1, nz = bz + (int)(lid / 9) - 1;
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
}
