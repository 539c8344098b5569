// Prefilter boxmean:W (docs/STAGES.md): the mean of the W x W window around
// each pixel, clipped at the image edge, rounded half up, read from the
// padded integral image of integral_image.h as A4 + A1 - A2 - A3.
//
// Build options (engine/stages/BoxMean.cpp, engine/stages/StageVariants.cpp):
//   RGX_WG_SIZE, RGX_COLLECTIVES   integral_rows (see integral_image.h)
//   RGX_SEGMENT                    work-group size of box_mean_async: pixels per row segment
//   RGX_MAX_WINDOW                 the largest window W (sizes the local buffer)
//   RGX_BOX_BARRIER(flags)         barrier(flags), or nothing for async-nobarrier
#include "integral_image.h"

#ifndef RGX_BOX_BARRIER
#define RGX_BOX_BARRIER(flags) barrier(flags)
#endif

// round-half-up(sum / count) in integers: (2 sum + count) / (2 count).
inline ushort rounded_mean(uint sum, uint count)
{
    return (ushort)((2 * (ulong)sum + count) / (2 * (ulong)count));
}

// Pixels in the window of (x, y) after clipping at the image edge.
inline uint window_count(int x, int y, int width, int height, int window)
{
    const int left = clamp(x - window / 2, 0, width);
    const int right = clamp(x - window / 2 + window, 0, width);
    const int top = clamp(y - window / 2, 0, height);
    const int bottom = clamp(y - window / 2 + window, 0, height);
    return (uint)((right - left) * (bottom - top));
}

// Integral rows holding the top and the bottom corners of the windows of row y.
inline int top_corner_row(int y, int height, int window)
{
    return clamp(y - window / 2, 0, height);
}

inline int bottom_corner_row(int y, int height, int window)
{
    return clamp(y - window / 2 + window, 0, height);
}

// direct: one work-item per pixel, the four corners read from global memory.
__kernel void box_mean_direct(__global const uint* integral, const int pitch,
                              const int width, const int height, const int window,
                              __global ushort* filtered)
{
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    if (x < width && y < height) {
        __global const uint* top = integral + (uint)top_corner_row(y, height, window) * (uint)pitch;
        __global const uint* bottom = integral + (uint)bottom_corner_row(y, height, window) * (uint)pitch;
        // A4 (bottom right) + A1 (top left) - A2 (top right) - A3 (bottom left).
        const uint sum = bottom[x + window] + top[x] - top[x + window] - bottom[x];
        filtered[(uint)y * (uint)width + (uint)x] =
            rounded_mean(sum, window_count(x, y, width, height, window));
    }
}

// async: one work-group per row segment of RGX_SEGMENT pixels. The top and
// then the bottom corner row of the segment's windows are copied, one after
// the other, into the same local buffer with async_work_group_copy; the
// means go to a local row that is copied out with async_work_group_copy.
// async-nobarrier is this kernel with RGX_BOX_BARRIER emptied.
__kernel __attribute__((reqd_work_group_size(RGX_SEGMENT, 1, 1)))
void box_mean_async(__global const uint* integral, const int pitch,
                    const int width, const int height, const int window,
                    __global ushort* filtered)
{
    __local uint corner_row[RGX_SEGMENT + RGX_MAX_WINDOW];
    __local ushort mean_row[RGX_SEGMENT];
    const int lid = (int)get_local_id(0);
    const int y = (int)get_group_id(1);
    const int segment_x0 = (int)get_group_id(0) * RGX_SEGMENT;
    const int segment_width = min(RGX_SEGMENT, width - segment_x0);
    // Pixel segment_x0 + i reads columns segment_x0 + i and segment_x0 + i + window.
    const size_t copy_count = (size_t)(segment_width + window);
    const bool inside = lid < segment_width;

    event_t copied = async_work_group_copy(
        corner_row, integral + (uint)top_corner_row(y, height, window) * (uint)pitch + (uint)segment_x0,
        copy_count, 0);
    wait_group_events(1, &copied);
    // The top row is complete for every work-item before anyone reads it
    // (wait_group_events alone is no barrier: on PoCL one work-item copies).
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
    if (inside)
        sum = corner_row[lid] - corner_row[lid + window];   // A1 - A2

    // Every work-item has read the top row before the bottom row overwrites
    // the same buffer.
    RGX_BOX_BARRIER(CLK_LOCAL_MEM_FENCE);
    copied = async_work_group_copy(
        corner_row, integral + (uint)bottom_corner_row(y, height, window) * (uint)pitch + (uint)segment_x0,
        copy_count, 0);
    wait_group_events(1, &copied);
    // The bottom row is complete for every work-item before anyone reads it.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (inside) {
        sum += corner_row[lid + window] - corner_row[lid];  // + A4 - A3
        mean_row[lid] = rounded_mean(sum, window_count(segment_x0 + lid, y, width, height, window));
    }

    // Every mean is in place before the row segment is copied out.
    barrier(CLK_LOCAL_MEM_FENCE);
    copied = async_work_group_copy(filtered + (uint)y * (uint)width + (uint)segment_x0, mean_row,
                                   (size_t)segment_width, 0);
    wait_group_events(1, &copied);
}
