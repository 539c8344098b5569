// Totals and timeline summaries of profiling records.
#include "Timing.h"
#include <algorithm>
#include <map>

namespace rgx {

std::vector<KernelTotal> kernelTotals(const std::vector<TimingRecord>& records)
{
    std::vector<KernelTotal> totals;
    std::map<std::pair<std::string, std::string>, size_t> index;
    for (const TimingRecord& record : records) {
        auto key = std::make_pair(record.stage, record.kernel);
        auto found = index.find(key);
        if (found == index.end()) {
            found = index.emplace(key, totals.size()).first;
            totals.push_back({record.stage, record.kernel, 0, 0});
        }
        KernelTotal& total = totals[found->second];
        total.launches += 1;
        total.totalNs += record.duration();
    }
    return totals;
}

TimelineSummary summarizeTimeline(const std::vector<TimingRecord>& records)
{
    std::vector<const TimingRecord*> measured;
    for (const TimingRecord& record : records)
        if (record.measured && record.end >= record.start && record.start > 0)
            measured.push_back(&record);
    TimelineSummary summary;
    if (measured.empty())
        return summary;
    std::sort(measured.begin(), measured.end(),
              [](const TimingRecord* a, const TimingRecord* b) { return a->start < b->start; });
    uint64_t first = measured.front()->queued ? measured.front()->queued : measured.front()->start;
    uint64_t busyUntil = measured.front()->start;
    for (const TimingRecord* record : measured) {
        // A command that overlaps those before (a copy on the second queue
        // while a kernel runs) adds only its time beyond them.
        const uint64_t from = std::max(busyUntil, record->start);
        summary.busyNs += record->end > from ? record->end - from : 0;
        first = std::min(first, record->queued ? record->queued : record->start);
        if (record->start > busyUntil)
            summary.gapNs += record->start - busyUntil;
        busyUntil = std::max(busyUntil, record->end);
    }
    summary.spanNs = busyUntil - first;
    return summary;
}

} // namespace rgx
