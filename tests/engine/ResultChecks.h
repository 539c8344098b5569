// Checks shared by the engine tests: two results equal bit for bit, maps,
// iteration count and region sums, with the first differing pixel named;
// the partial pictures of a run; the commands of a run counted by name.
#pragma once

#include "Result.h"
#include "RunControl.h"
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace rgx::test {

inline void expectEqual(const GrowResult& expected, const GrowResult& actual, const std::string& what)
{
    const ResultDiff diff = compareResults(expected, actual);
    ASSERT_EQ(diff.differingPixels, 0u)
        << what << ": first differing pixel (" << diff.firstDifferingPixel % expected.width << ","
        << diff.firstDifferingPixel / expected.width << ") expected label "
        << expected.labels[size_t(diff.firstDifferingPixel)] << " stamp "
        << expected.stamps[size_t(diff.firstDifferingPixel)] << ", got label "
        << actual.labels[size_t(diff.firstDifferingPixel)] << " stamp " << actual.stamps[size_t(diff.firstDifferingPixel)];
    EXPECT_EQ(expected.iterations, actual.iterations) << what;
    EXPECT_EQ(expected.stoppedAtCap, actual.stoppedAtCap) << what;
    ASSERT_EQ(expected.regions.size(), actual.regions.size()) << what;
    for (size_t k = 0; k < expected.regions.size(); ++k) {
        EXPECT_EQ(expected.regions[k].count, actual.regions[k].count) << what << ", region " << k + 1;
        EXPECT_EQ(expected.regions[k].sum, actual.regions[k].sum) << what << ", region " << k + 1;
    }
}

// The partial pictures a run offers, every one it can (at most `limit`),
// each with its iteration: pass control() to the run.
struct PartialPictures {
    std::vector<std::pair<BoxMaps, uint32_t>> pictures;
    size_t limit = size_t(-1);

    RunControl control(int step = 1)
    {
        RunControl control;
        control.partialStep = step;
        control.partialWanted = [] { return true; };
        control.partial = [this](const BoxMaps& maps, uint32_t iteration) {
            if (pictures.size() < limit)
                pictures.emplace_back(maps, iteration);
        };
        return control;
    }
};

// How many of a run's commands have this name.
inline int commandCount(const std::vector<TimingRecord>& timings, const std::string& kernel)
{
    int count = 0;
    for (const TimingRecord& record : timings)
        count += record.kernel == kernel ? 1 : 0;
    return count;
}

} // namespace rgx::test
