// One record per OpenCL command (kernel launch or transfer), from its
// profiling event, and totals per kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rgx {

struct TimingRecord {
    std::string stage;      // "upload", "prefilter", "grow", "postfilter", "download"
    std::string kernel;     // kernel name, or "write:<buffer>" / "read:<buffer>" for transfers
    int iteration = -1;     // region-growing iteration, -1 outside the loop
    int lastIteration = -1; // a launch of several iterations: the last (iteration is the first)
    uint64_t queued = 0;    // CL_PROFILING_COMMAND_QUEUED, ns
    uint64_t submit = 0;    // CL_PROFILING_COMMAND_SUBMIT, ns
    uint64_t start = 0;     // CL_PROFILING_COMMAND_START, ns
    uint64_t end = 0;       // CL_PROFILING_COMMAND_END, ns
    bool measured = true;   // false where the device cannot time the command (see note)
    std::string note;

    uint64_t duration() const { return end > start ? end - start : 0; }
};

struct KernelTotal {
    std::string stage;
    std::string kernel;
    int launches = 0;
    uint64_t totalNs = 0;
};

// Totals per (stage, kernel) in order of first appearance.
std::vector<KernelTotal> kernelTotals(const std::vector<TimingRecord>& records);

// Summary of a run's timeline: device busy time (while some command ran:
// commands of two queues that overlap count once), the span
// from the first queued command to the last end, and the idle gaps between
// consecutive commands (where the host-sync driver loses its time).
struct TimelineSummary {
    uint64_t busyNs = 0;
    uint64_t spanNs = 0;
    uint64_t gapNs = 0;
};
TimelineSummary summarizeTimeline(const std::vector<TimingRecord>& records);

} // namespace rgx
