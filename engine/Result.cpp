// Comparing two results pixel by pixel (the corruption view and --verify).
#include "Result.h"
#include <algorithm>

namespace rgx {

ResultDiff compareResults(const GrowResult& expected, const GrowResult& actual)
{
    ResultDiff diff;
    const size_t count = expected.labels.size();
    diff.mask.assign(count, 0);
    if (actual.labels.size() != count || actual.stamps.size() != count) {
        diff.differingPixels = count;
        std::fill(diff.mask.begin(), diff.mask.end(), 1);
        diff.firstDifferingIteration = 0;
        diff.firstDifferingPixel = 0;
        return diff;
    }
    for (size_t p = 0; p < count; ++p) {
        if (expected.labels[p] == actual.labels[p] && expected.stamps[p] == actual.stamps[p])
            continue;
        diff.mask[p] = 1;
        if (diff.differingPixels == 0)
            diff.firstDifferingPixel = int64_t(p);
        diff.differingPixels += 1;
        const int64_t iteration = std::min(expected.stamps[p], actual.stamps[p]);
        if (diff.firstDifferingIteration < 0 || iteration < diff.firstDifferingIteration)
            diff.firstDifferingIteration = iteration;
    }
    return diff;
}

} // namespace rgx
