// boxmean:W on the CPU: for every pixel the sum of the luma in its clipped
// window (first along the row, then down the column: the same sum, W times
// fewer additions), divided by the pixel count, rounded half up.
#include "BoxMeanReference.h"

#include <algorithm>

namespace rgx {

WindowSpan clippedWindow(int centre, int window, int size)
{
    const int first = centre - window / 2;
    const int last = first + window - 1;
    return {std::max(first, 0), std::min(last, size - 1)};
}

std::vector<uint16_t> boxMeanReference(const std::vector<uint16_t>& luma, int width, int height,
                                       int window)
{
    auto at = [width](int x, int y) { return size_t(y) * size_t(width) + size_t(x); };
    // rowSums(x, y): the luma summed over the clipped window's columns in row y.
    std::vector<uint64_t> rowSums(luma.size(), 0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const WindowSpan columns = clippedWindow(x, window, width);
            for (int i = columns.first; i <= columns.last; ++i)
                rowSums[at(x, y)] += luma[at(i, y)];
        }
    std::vector<uint16_t> filtered(luma.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const WindowSpan columns = clippedWindow(x, window, width);
            const WindowSpan rows = clippedWindow(y, window, height);
            uint64_t sum = 0;
            for (int j = rows.first; j <= rows.last; ++j)
                sum += rowSums[at(x, j)];
            const uint64_t count = uint64_t(columns.last - columns.first + 1) * uint64_t(rows.last - rows.first + 1);
            // round-half-up(sum / count)
            filtered[at(x, y)] = uint16_t((2 * sum + count) / (2 * count));
        }
    return filtered;
}

} // namespace rgx
