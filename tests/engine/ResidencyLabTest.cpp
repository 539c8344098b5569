// The residency lab on every device: the roll call of the fused kernel finds
// at least one resident work-group, a launch with more than that gets the
// verdict "not resident" and returns (no hang), and RGX's fused driver, made
// to launch more groups than resident, falls back to one launch per level
// and stays exact.
#include "Device.h"
#include "Errors.h"
#include "lab/ResidencyLab.h"
#include "stages/grow/GrowPrograms.h"

#include <gtest/gtest.h>
#include <atomic>
#include <chrono>

using namespace rgx;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST(ResidencyLab, TheRollCallFindsTheResidentCountAndRefusesOneMore)
{
    int devices = 0;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        ResidencyOptions options;
        options.runs = false;
        const auto start = std::chrono::steady_clock::now();
        const ResidencyResult result = runResidencyLab(device, options);
        const double seconds = secondsSince(start);
        EXPECT_GE(result.residentGroups, 1u) << info.name;
        ASSERT_TRUE(result.searchComplete) << info.name << ": " << result.searchNote;
        EXPECT_EQ(result.firstNotResident, result.residentGroups + 1) << info.name;
        EXPECT_EQ(result.fusedGroups, fusedGroupCount(info)) << info.name;
        EXPECT_EQ(result.kernel, "grow_levels");
        EXPECT_GT(result.workGroupSize, 0u) << info.name;
        // Every probe's verdict agrees with the count found: all resident up
        // to it, and the counts above it failed (each at least once).
        ASSERT_FALSE(result.probes.empty()) << info.name;
        for (const ResidencyProbe& probe : result.probes)
            if (probe.resident)
                EXPECT_LE(probe.groups, result.residentGroups) << info.name;
        // RGX's own program, one group more than resident: not resident, and back.
        EXPECT_EQ(result.over.groups, result.residentGroups + 1) << info.name;
        EXPECT_FALSE(result.over.resident) << info.name << ": " << result.over.groups << " groups passed the roll call";
        EXPECT_LT(seconds, 120.0) << info.name;
        std::printf("%s: %zu resident work-groups of %zu work-items (RGX launches %zu), %zu probes, %.2f s\n",
                    info.name.c_str(), result.residentGroups, result.workGroupSize, result.fusedGroups,
                    result.probes.size(), seconds);
        ++devices;
    }
    EXPECT_GT(devices, 0);
}

TEST(ResidencyLab, AFusedRunWithMoreGroupsThanResidentFallsBackExactly)
{
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        ResidencyOptions options;
        options.corridorSize = 32;
        const ResidencyResult result = runResidencyLab(device, options);
        ASSERT_TRUE(result.runsDone) << info.name << ": " << result.searchNote;
        EXPECT_GT(result.forced.groups, result.residentGroups) << info.name;
        EXPECT_TRUE(result.forced.fellBack) << info.name << ": " << result.forced.note;
        EXPECT_FALSE(result.forced.note.empty()) << info.name; // the run says it fell back
        // One launch per level after the failed roll call.
        EXPECT_GE(result.forced.launches, size_t(result.forced.levels)) << info.name;
        EXPECT_TRUE(result.forced.exact) << info.name;
        EXPECT_TRUE(result.fused.exact) << info.name;
        EXPECT_EQ(result.fused.levels, result.forced.levels) << info.name;
        EXPECT_GT(result.fused.levels, 32u * 16u) << info.name; // the corridor: one level per pixel
        if (result.fusedGroups <= result.residentGroups) {
            EXPECT_FALSE(result.fused.fellBack) << info.name << ": " << result.fused.note;
            EXPECT_LT(result.fused.launches, size_t(result.fused.levels)) << info.name;
        }
    }
}

TEST(ResidencyLab, ACancelStopsTheSearch)
{
    ComputeDevice device(selectDevice(""));
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    EXPECT_THROW(runResidencyLab(device, {}, control), RunInterrupted);
}

TEST(ResidencyLab, TheRuleNamesItsSource)
{
    const std::string rule = residencyRule();
    EXPECT_NE(rule.find("resident"), std::string::npos);
    EXPECT_NE(rule.find("Sorensen"), std::string::npos);
    EXPECT_NE(rule.find("OOPSLA 2016"), std::string::npos);
}
