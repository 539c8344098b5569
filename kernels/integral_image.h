// Padded integral images (summed-area tables), built on the device by a row
// scan and a column scan, for the window sums of box_mean.cl and
// density_filter.cl, read as A4 + A1 - A2 - A3.
//
// The integral image of a W x H source has H + 1 rows of `pitch` uints:
//   integral[Y * pitch + c] = I(clamp(c - pad_left, 0, W), Y)
// where I(X, Y) is the sum of source(x, y) over x < X, y < Y. The columns are
// shifted by pad_left = window / 2 and clamped at both ends, so the window of
// any pixel x, clipped at the edge or not, is columns x and x + window of the
// integral rows: no edge cases in the kernels that read it, and eight
// consecutive pixels read eight consecutive entries (vload8).
// Arithmetic is uint and wraps around: the difference of entries is exact
// whenever the true window sum is below 2^32.
//
// Build options: RGX_WG_SIZE (work-group size of integral_rows) and
// RGX_COLLECTIVES=1 (the local-memory scan of collectives.h).
#ifndef RGX_INTEGRAL_IMAGE_H
#define RGX_INTEGRAL_IMAGE_H

#include "collectives.h"

// One work-group per source row y. Each work-item takes one piece of
// consecutive columns (a CPU core reads its piece as one cache-friendly run):
// it sums its piece, a work-group scan of those sums gives every piece its
// starting value, and a second walk writes the prefix sums to integral row
// y + 1, together with the clamped ends. The source is the rectangle
// (origin_x, origin_y, width, rows) of a ushort image: the values themselves
// (match == 0) or the mask source == match (one region of a label map, for
// the density filter).
inline uint integral_source(__global const ushort* source_row, int x, uint match)
{
    const uint s = source_row[x];
    return match == 0 ? s : (uint)(s == match);
}

__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void integral_rows(__global const ushort* source, const int source_pitch,
                   const int origin_x, const int origin_y, const int width,
                   const uint match, __global uint* integral, const int pitch,
                   const int pad_left)
{
    __local uint scratch[RGX_SCRATCH_SIZE];
    const int y = (int)get_group_id(1);
    const int lid = (int)get_local_id(0);
    __global const ushort* source_row =
        source + (uint)(origin_y + y) * (uint)source_pitch + (uint)origin_x;
    __global uint* row = integral + (uint)(y + 1) * (uint)pitch;

    const int piece = (width + RGX_WG_SIZE - 1) / RGX_WG_SIZE;
    const int first = min(lid * piece, width);
    const int end = min(first + piece, width);
    uint piece_sum = 0;
    for (int x = first; x < end; ++x)
        piece_sum += integral_source(source_row, x, match);
    uint row_total;
    uint running = wg_scan_exclusive(piece_sum, scratch, &row_total);
    for (int x = first; x < end; ++x) {
        running += integral_source(source_row, x, match);
        row[pad_left + x + 1] = running;
    }
    // Windows reaching past either end of the row: I(0) = 0 on the left,
    // I(W) = the row total on the right.
    for (int c = lid; c <= pad_left; c += RGX_WG_SIZE)
        row[c] = 0;
    for (int c = pad_left + width + 1 + lid; c < pitch; c += RGX_WG_SIZE)
        row[c] = row_total;
}

// One work-item per column: a running sum down the column turns the row
// prefix sums into the integral image. Neighbouring work-items touch
// neighbouring columns, so every step reads one contiguous row segment.
__kernel void integral_columns(__global uint* integral, const int pitch, const int rows)
{
    const int c = (int)get_global_id(0);
    if (c < pitch) {
        uint sum = 0;
        integral[c] = 0;
        for (int y = 1; y <= rows; ++y) {
            __global uint* entry = integral + (uint)y * (uint)pitch + (uint)c;
            sum += *entry;
            *entry = sum;
        }
    }
}

#endif
