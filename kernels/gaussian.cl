// Prefilter gaussian:R (docs/STAGES.md): binomial weights w(d) = C(2R, R + d)
// for d in [-R, R] in both directions, coordinates clamped to the edge, the
// exact weighted sum in ulong divided by (2^(2R))^2 = 2^(4R), rounded half up.
// The sum is separable: a horizontal pass then a vertical one, both exact.
//
// Build options (engine/stages/Gaussian.cpp):
//   RGX_TILE_W, RGX_TILE_H   work-group (output tile) size of gaussian_async_halo
//   RGX_MAX_RADIUS           the largest radius R (sizes the local buffers)

// round-half-up(sum / 2^(4R)): adding half the divisor then shifting.
inline ushort rounded_gaussian(ulong sum, int radius)
{
    const uint shift = 4u * (uint)radius;
    return (ushort)((sum + ((ulong)1 << (shift - 1))) >> shift);
}

// direct: one work-item per pixel, every tap read from global memory.
__kernel void gaussian_direct(__global const ushort* luma, const int width, const int height,
                              const int radius, __constant uint* weights,
                              __global ushort* filtered)
{
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    if (x < width && y < height) {
        ulong sum = 0;
        for (int dy = -radius; dy <= radius; ++dy) {
            __global const ushort* row = luma + (uint)clamp(y + dy, 0, height - 1) * (uint)width;
            ulong row_sum = 0;
            for (int dx = -radius; dx <= radius; ++dx)
                row_sum += (ulong)weights[dx + radius] * row[clamp(x + dx, 0, width - 1)];
            sum += (ulong)weights[dy + radius] * row_sum;
        }
        filtered[(uint)y * (uint)width + (uint)x] = rounded_gaussian(sum, radius);
    }
}

#define TILE_PITCH (RGX_TILE_W + 2 * RGX_MAX_RADIUS)

// async-halo: one work-group per RGX_TILE_W x RGX_TILE_H tile. The tile and
// its halo of R pixels (the part inside the image; reads outside are clamped
// onto it) are prefetched row by row with async_work_group_copy; the
// horizontal sums of every row the tile needs go to local memory, then each
// work-item sums its column of them.
__kernel __attribute__((reqd_work_group_size(RGX_TILE_W, RGX_TILE_H, 1)))
void gaussian_async_halo(__global const ushort* luma, const int width, const int height,
                         const int radius, __constant uint* weights,
                         __global ushort* filtered)
{
    __local ushort tile[TILE_PITCH * (RGX_TILE_H + 2 * RGX_MAX_RADIUS)];
    __local ulong row_sums[(RGX_TILE_H + 2 * RGX_MAX_RADIUS) * RGX_TILE_W];
    const int lx = (int)get_local_id(0);
    const int ly = (int)get_local_id(1);
    const int tile_x0 = (int)get_group_id(0) * RGX_TILE_W;
    const int tile_y0 = (int)get_group_id(1) * RGX_TILE_H;
    const int copy_x0 = max(tile_x0 - radius, 0);
    const int copy_x1 = min(tile_x0 + RGX_TILE_W - 1 + radius, width - 1);
    const int copy_y0 = max(tile_y0 - radius, 0);
    const int copy_y1 = min(tile_y0 + RGX_TILE_H - 1 + radius, height - 1);

    event_t copied = 0;
    for (int gy = copy_y0; gy <= copy_y1; ++gy)
        copied = async_work_group_copy(tile + (gy - copy_y0) * TILE_PITCH,
                                       luma + (uint)gy * (uint)width + (uint)copy_x0,
                                       (size_t)(copy_x1 - copy_x0 + 1), copied);
    wait_group_events(1, &copied);
    // The tile and halo are complete for every work-item before anyone reads
    // them (wait_group_events alone is no barrier: on PoCL one work-item copies).
    barrier(CLK_LOCAL_MEM_FENCE);

    // Horizontal pass over the TILE_H + 2R rows the tile needs.
    const int x = tile_x0 + lx;
    for (int r = ly; r < RGX_TILE_H + 2 * radius; r += RGX_TILE_H) {
        __local const ushort* row =
            tile + (clamp(tile_y0 - radius + r, 0, height - 1) - copy_y0) * TILE_PITCH;
        ulong row_sum = 0;
        for (int dx = -radius; dx <= radius; ++dx)
            row_sum += (ulong)weights[dx + radius] * row[clamp(x + dx, 0, width - 1) - copy_x0];
        row_sums[r * RGX_TILE_W + lx] = row_sum;
    }
    // Every row sum is in place before the vertical pass reads other work-items' ones.
    barrier(CLK_LOCAL_MEM_FENCE);

    const int y = tile_y0 + ly;
    if (x < width && y < height) {
        ulong sum = 0;
        for (int dy = -radius; dy <= radius; ++dy)
            sum += (ulong)weights[dy + radius] * row_sums[(ly + radius + dy) * RGX_TILE_W + lx];
        filtered[(uint)y * (uint)width + (uint)x] = rounded_gaussian(sum, radius);
    }
}
