// density:W:MIN on the CPU. For every classified pixel of region k: the
// pixels of region k in its clipped window, counted row by row (each row
// span from a per-row running count of region k, so that large windows stay
// affordable), then compared with MIN. Region by region, over the region's
// bounding box only: outside it there is no pixel of the region to count.
#include "DensityFilterReference.h"
#include "BoxMeanReference.h"
#include "Result.h"

#include <algorithm>

namespace rgx {

void densityFilterReference(std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps,
                            int width, int height, int window, int minimum)
{
    const std::vector<uint16_t> before = labels;
    auto at = [width](int x, int y) { return size_t(y) * size_t(width) + size_t(x); };

    // Bounding box of every region.
    const uint16_t largest = before.empty() ? 0 : *std::max_element(before.begin(), before.end());
    std::vector<int> left(size_t(largest) + 1, width), right(size_t(largest) + 1, -1);
    std::vector<int> top(size_t(largest) + 1, height), bottom(size_t(largest) + 1, -1);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const uint16_t k = before[at(x, y)];
            left[k] = std::min(left[k], x);
            right[k] = std::max(right[k], x);
            top[k] = std::min(top[k], y);
            bottom[k] = std::max(bottom[k], y);
        }

    for (size_t k = 1; k <= largest; ++k) {
        if (right[k] < 0)
            continue; // no pixel has this label
        const int boxWidth = right[k] - left[k] + 1;
        // countBefore(x, y): pixels of region k in row y, columns left[k] .. x - 1.
        std::vector<int64_t> runningCount(size_t(boxWidth + 1) * size_t(bottom[k] - top[k] + 1), 0);
        auto countBefore = [&](int x, int y) -> int64_t& {
            return runningCount[size_t(y - top[k]) * size_t(boxWidth + 1) + size_t(x - left[k])];
        };
        for (int y = top[k]; y <= bottom[k]; ++y)
            for (int x = left[k]; x <= right[k]; ++x)
                countBefore(x + 1, y) = countBefore(x, y) + (before[at(x, y)] == k ? 1 : 0);

        for (int y = top[k]; y <= bottom[k]; ++y)
            for (int x = left[k]; x <= right[k]; ++x) {
                if (before[at(x, y)] != k)
                    continue;
                // The clipped window, cut down to the box (nothing of region k lies outside).
                const WindowSpan columns = clippedWindow(x, window, width);
                const WindowSpan rows = clippedWindow(y, window, height);
                const int first = std::max(columns.first, left[k]);
                const int last = std::min(columns.last, right[k]);
                int64_t count = 0;
                for (int j = std::max(rows.first, top[k]); j <= std::min(rows.last, bottom[k]); ++j)
                    count += countBefore(last + 1, j) - countBefore(first, j);
                if (count < minimum) {
                    labels[at(x, y)] = 0;
                    stamps[at(x, y)] = unclassifiedStamp;
                }
            }
    }
}

} // namespace rgx
