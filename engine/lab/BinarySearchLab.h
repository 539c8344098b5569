// The binary-search lab: many keys searched in one sorted array, one round
// per launch, rounds driven by the host or enqueued by the device itself
// (kernels/binary_search.cl). Verified against std::lower_bound.
#pragma once

#include "RunControl.h"
#include "Timing.h"
#include "Variant.h"
#include <cstdint>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;

struct BinarySearchResult {
    std::vector<uint32_t> positions; // lower bound of each key
    uint32_t rounds = 0;
    size_t chunksPerKey = 0;
    std::string device;
    std::string variant;
    std::vector<TimingRecord> timings;
    double hostMilliseconds = 0;
};

// Sorted values (with repeats and gaps) and keys (present, absent, below and
// above the range), from a seeded generator.
std::vector<uint32_t> makeSortedValues(size_t size, uint32_t seed);
std::vector<uint32_t> makeSearchKeys(size_t count, const std::vector<uint32_t>& values, uint32_t seed);
std::vector<uint32_t> lowerBoundsReference(const std::vector<uint32_t>& values,
                                           const std::vector<uint32_t>& keys);

// Only the driver axis applies. Throws InputError (empty input, a driver the
// device cannot run, too large for the device), OpenClError, RunInterrupted.
BinarySearchResult runBinarySearchLab(ComputeDevice& device, const std::vector<uint32_t>& values,
                                      const std::vector<uint32_t>& keys, Driver driver,
                                      const RunControl& control = {});

} // namespace rgx
