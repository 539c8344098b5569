// What the benches measure with: a median and its spread over repeated
// runs, and a run's kernel time from its timing records.
#pragma once

#include "Timing.h"
#include <vector>

namespace rgx::bench {

struct Spread {
    double median = 0;
    double min = 0;
    double max = 0;
};

Spread spreadOf(std::vector<double> values);

// The sum of the kernels' durations (transfers left out), in milliseconds.
double kernelMilliseconds(const std::vector<TimingRecord>& records);

} // namespace rgx::bench
