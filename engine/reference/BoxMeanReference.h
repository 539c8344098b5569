// CPU reference of the prefilter boxmean:W (docs/STAGES.md), written to be
// read: window sums straight from the luma, no integral image.
#pragma once

#include <cstdint>
#include <vector>

namespace rgx {

// The pixels [first, last] of the window of width `window` around `centre`,
// clipped to [0, size - 1]: first = centre - window / 2, last = first + window - 1.
struct WindowSpan {
    int first;
    int last;
};
WindowSpan clippedWindow(int centre, int window, int size);

std::vector<uint16_t> boxMeanReference(const std::vector<uint16_t>& luma, int width, int height,
                                       int window);

} // namespace rgx
