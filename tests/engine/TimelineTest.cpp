// How a run's timeline is summed up (engine/Timing.h), with commands of two
// queues that overlap: a click's stamps read on a second queue while its
// label pass runs.
#include "Timing.h"

#include <gtest/gtest.h>

namespace rgx {
namespace {

TimingRecord command(const char* kernel, uint64_t start, uint64_t end)
{
    TimingRecord record;
    record.stage = "grow";
    record.kernel = kernel;
    record.queued = record.submit = record.start = start;
    record.end = end;
    return record;
}

} // namespace

TEST(Timeline, OverlappingCommandsCountOnceAsBusyAndLeaveNoGap)
{
    const std::vector<TimingRecord> records = {command("label_levels_fused", 100, 300),
                                               command("read:stamps", 150, 250), command("read:labels", 400, 500)};
    const TimelineSummary summary = summarizeTimeline(records);
    EXPECT_EQ(summary.busyNs, 300u); // 100..300 and 400..500
    EXPECT_EQ(summary.gapNs, 100u);  // 300..400
    EXPECT_EQ(summary.spanNs, 400u); // 100..500
    EXPECT_EQ(summary.busyNs + summary.gapNs, summary.spanNs);
}

TEST(Timeline, ACommandRunningPastTheNextCountsTheNextOnlyBeyondIt)
{
    const std::vector<TimingRecord> records = {command("read:stamps", 10, 400), command("count_stamps", 50, 100),
                                               command("bucket_stamps", 120, 450)};
    const TimelineSummary summary = summarizeTimeline(records);
    EXPECT_EQ(summary.busyNs, 440u);
    EXPECT_EQ(summary.gapNs, 0u);
}

} // namespace rgx
