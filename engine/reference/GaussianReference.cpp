// gaussian:R on the CPU: w(d) = C(2R, R + d) from Pascal's triangle, the
// weighted sum over the (2R+1)^2 neighbourhood with coordinates clamped to
// the edge, divided by (sum of weights)^2 = 2^(4R), rounded half up.
#include "GaussianReference.h"

#include <algorithm>

namespace rgx {

std::vector<uint16_t> gaussianReference(const std::vector<uint16_t>& luma, int width, int height,
                                        int radius)
{
    // Row 2R of Pascal's triangle.
    std::vector<uint64_t> pascal = {1};
    for (int n = 1; n <= 2 * radius; ++n) {
        std::vector<uint64_t> next(size_t(n) + 1, 1);
        for (int j = 1; j < n; ++j)
            next[size_t(j)] = pascal[size_t(j) - 1] + pascal[size_t(j)];
        pascal = next;
    }
    auto weight = [&](int d) { return pascal[size_t(d + radius)]; };
    uint64_t weightSum = 0;
    for (int d = -radius; d <= radius; ++d)
        weightSum += weight(d);
    const uint64_t divisor = weightSum * weightSum;

    std::vector<uint16_t> filtered(luma.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            uint64_t sum = 0;
            for (int dy = -radius; dy <= radius; ++dy)
                for (int dx = -radius; dx <= radius; ++dx) {
                    const int sx = std::clamp(x + dx, 0, width - 1);
                    const int sy = std::clamp(y + dy, 0, height - 1);
                    sum += weight(dx) * weight(dy) * luma[size_t(sy) * size_t(width) + size_t(sx)];
                }
            // round-half-up(sum / divisor); the divisor is even, so sum + divisor / 2 is exact.
            filtered[size_t(y) * size_t(width) + size_t(x)] = uint16_t((sum + divisor / 2) / divisor);
        }
    return filtered;
}

} // namespace rgx
