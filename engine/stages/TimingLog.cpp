// Profiling events to timing records.
#include "TimingLog.h"

#include <algorithm>

namespace rgx {

cl::Event* TimingLog::track(const std::string& stage, const std::string& kernel, int iteration,
                            bool withChildren)
{
    entries_.push_back({stage, kernel, iteration, withChildren, cl::Event(), -1, {}});
    return &entries_.back().event;
}

void TimingLog::coverIterations(size_t index, int lastIteration, const std::string& note)
{
    if (index < entries_.size()) {
        entries_[index].lastIteration = lastIteration;
        entries_[index].note = note;
    }
}

std::vector<TimingRecord> TimingLog::records() const
{
    std::vector<TimingRecord> out;
    out.reserve(entries_.size());
    for (const Entry& entry : entries_) {
        TimingRecord record;
        record.stage = entry.stage;
        record.kernel = entry.kernel;
        record.iteration = entry.iteration;
        record.lastIteration = entry.lastIteration;
        record.note = entry.note;
        try {
            record.queued = entry.event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
            record.submit = entry.event.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>();
            record.start = entry.event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
            record.end = entry.event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
            if (entry.withChildren) {
                record.end = std::max<uint64_t>(record.end, entry.event.getProfilingInfo<CL_PROFILING_COMMAND_COMPLETE>());
                record.note = "the whole device-enqueued chain: kernels enqueued by the device are "
                              "not visible to host profiling";
            }
        } catch (const cl::Error&) {
            record.measured = false;
            record.note = "the device reported no profiling information for this command";
        }
        out.push_back(record);
    }
    return out;
}

} // namespace rgx
