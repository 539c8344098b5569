// Medians and kernel time for the benches.
#include "Measure.h"

#include <algorithm>

namespace rgx::bench {

Spread spreadOf(std::vector<double> values)
{
    Spread spread;
    if (values.empty())
        return spread;
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    spread.median = values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    spread.min = values.front();
    spread.max = values.back();
    return spread;
}

double kernelMilliseconds(const std::vector<TimingRecord>& records)
{
    uint64_t nanoseconds = 0;
    for (const TimingRecord& record : records)
        if (record.kernel.rfind("read:", 0) != 0 && record.kernel.rfind("write:", 0) != 0 &&
            record.kernel.rfind("fill:", 0) != 0)
            nanoseconds += record.duration();
    return double(nanoseconds) / 1e6;
}

} // namespace rgx::bench
