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

#endif
