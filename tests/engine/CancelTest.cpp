// Cancel on every device and driver: a long run (a maze whose one corridor
// is hundreds of thousands of levels long) stops soon after the user asks,
// whatever the driver (device-enqueue where a device has it), and the same
// device then serves the next run exactly (issue 14, item 6). The
// wrong-on-purpose variants lose their frontier and end by themselves
// (WrongOnPurposeTest); a run that keeps going is a long correct one.
#include "TestImages.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "Pipeline.h"

#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

using namespace rgx;

namespace {

using Clock = std::chrono::steady_clock;

// How long after the cancel a run may still hold the engine thread. The
// issue asks for one second; the bound leaves room for a loaded CI machine,
// and each test prints what it measured.
constexpr double cancelBoundSeconds = 3.0;

struct Outcome {
    bool interrupted = false;
    double afterCancelSeconds = 0;
};

// The cancel comes `delay` after the run's first progress report: its
// kernels are built by then (a build cannot be interrupted, and with a cold
// kernel cache it takes seconds on a CPU runtime under the sanitizers).
Outcome cancelAfter(ComputeDevice& device, const std::shared_ptr<const LumaImage>& image, const Seed& seed,
                    const PipelineParams& params, const GrowVariant& variant, std::chrono::milliseconds delay)
{
    std::atomic<bool> cancel{false};
    std::promise<void> growing;
    std::atomic<bool> reported{false};
    RunControl control;
    control.cancel = &cancel;
    control.timeoutSeconds = 0;
    control.progress = [&](uint32_t, uint64_t) {
        if (!reported.exchange(true))
            growing.set_value();
    };
    auto run = std::async(std::launch::async, [&] {
        DeviceSession session(device, image);
        try {
            session.click({seed}, params, variant, control);
            return false;
        } catch (const RunInterrupted&) {
            return true;
        }
    });
    Outcome outcome;
    // Until the first report, or the run's end (a run that failed before it
    // says so at once), or five minutes of builds and upload.
    std::future<void> started = growing.get_future();
    const Clock::time_point givenUp = Clock::now() + std::chrono::minutes(5);
    bool growingNow = false;
    while (!(growingNow = started.wait_for(std::chrono::milliseconds(10)) == std::future_status::ready) &&
           run.wait_for(std::chrono::seconds(0)) != std::future_status::ready && Clock::now() < givenUp) {
    }
    if (!growingNow || run.wait_for(delay) == std::future_status::ready) {
        outcome.interrupted = run.get();
        return outcome;
    }
    const Clock::time_point asked = Clock::now();
    cancel = true;
    outcome.interrupted = run.get();
    outcome.afterCancelSeconds = std::chrono::duration<double>(Clock::now() - asked).count();
    return outcome;
}

class Cancel : public ::testing::TestWithParam<const char*> {};

TEST_P(Cancel, StopsALongRunSoonAndTheDeviceServesTheNextRunExactly)
{
    // 1200 x 1200 cells: the corridor from the corner is hundreds of
    // thousands of levels long, seconds on every driver and device.
    constexpr uint16_t floor = 100, wall = 240;
    const auto image = std::make_shared<const LumaImage>(test::maze(1200, 1200, 5, floor, wall));
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 10;
    const GrowVariant variant = parseVariant(GetParam());
    // The next run: a small image, checked against the reference.
    const auto small = std::make_shared<const LumaImage>(test::maze(40, 30, 2, floor, wall));
    const GrowResultPtr expected = runReferencePipeline(*small, {{1, 1}}, params);

    for (const DeviceInfo& info : listDevices()) {
        if (auto reason = whyUnavailable(variant, info)) {
            std::cout << "[ info ] " << variant.text() << " cannot run on " << info.name << ": " << *reason << "\n";
            continue;
        }
        ComputeDevice device(info);
        const Outcome outcome = cancelAfter(device, image, {1, 1}, params, variant, std::chrono::milliseconds(300));
        EXPECT_TRUE(outcome.interrupted) << variant.text() << " on " << info.name
                                         << ": the run ended before the cancel";
        EXPECT_LT(outcome.afterCancelSeconds, cancelBoundSeconds) << variant.text() << " on " << info.name;
        std::cout << "[ info ] " << variant.text() << " on " << info.name << ": stopped "
                  << outcome.afterCancelSeconds * 1000 << " ms after the cancel\n";

        DeviceSession next(device, small);
        const GrowResultPtr actual = next.run({{1, 1}}, params, parseVariant("driver=host-batched"), RunControl());
        EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u)
            << "the run after the cancel on " << info.name;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryDriver, Cancel,
                         ::testing::Values("driver=host-sync,frontier=queue,collectives=atomics",
                                           "driver=host-batched,frontier=queue,collectives=atomics",
                                           "driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier",
                                           "fusion=tiles",
                                           "driver=device-enqueue,frontier=queue,collectives=atomics"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                             std::string name;
                             for (const char* c = info.param; *c; ++c)
                                 name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                             return name;
                         });

} // namespace
