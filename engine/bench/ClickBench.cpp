// The interactive bench: one session, a script of clicks.
#include "ClickBench.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Image.h"
#include "stages/GrowWindow.h"
#include "stages/RegionGrowing.h"

#include <algorithm>

namespace rgx::bench {
namespace {

ClickMeasurement describe(const ClickStep& step, const ClickResult& result)
{
    ClickMeasurement click;
    click.step = step.step;
    click.iterations = result.iterations;
    for (const RegionStats& region : result.regions)
        click.classified += region.count;
    click.boxPixels = result.maps.samples();
    click.note = result.note;
    click.commands = result.timings;
    return click;
}

std::string checkText(const LumaImage& image, const ClickStep& step, const ClickResult& result)
{
    const GrowResultPtr expected = runReferencePipeline(image, step.seeds, step.params);
    const uint64_t differing = compareResults(*expected, result.toGrowResult()).differingPixels;
    return differing == 0 ? "ok" : "DIFF " + std::to_string(differing);
}

} // namespace

std::vector<ClickStep> clickScript(int width, int height, uint32_t range)
{
    PipelineParams first;
    first.grow.mode = Mode::Range;
    first.grow.lower = first.grow.upper = range;
    PipelineParams wider = first;
    wider.grow.lower = wider.grow.upper = range + range / 2;
    PipelineParams competitive;
    const Seed centre{width / 2, height / 2};
    const Seed second{width / 4, height / 4};
    const Seed moved{width / 4 + std::max(1, width / 16), height / 4};
    return {{"add a seed", {centre}, first},
            {"add a second", {centre, second}, first},
            {"move one", {centre, moved}, first},
            {"change the range", {centre, moved}, wider},
            {"change the mode to competitive", {centre, moved}, competitive},
            {"remove one", {centre}, competitive},
            {"the first click again", {centre}, first}};
}

ClickRun runClickScript(ComputeDevice& device, const std::shared_ptr<const LumaImage>& image,
                        const std::vector<ClickStep>& script, const GrowVariant& variant, int repeat, bool verify)
{
    ClickRun run;
    run.variant = variant.shortText();
    RunControl control;
    control.timeoutSeconds = 3600;
    repeat = std::max(repeat, 1);
    size_t regions = 1;
    for (const ClickStep& step : script)
        regions = std::max(regions, step.seeds.size());
    run.footprintBound = regionGrowingDeviceBytes(image->pixelCount(), regions, variant);

    // The first click: a new session each time; the last one goes on.
    std::unique_ptr<DeviceSession> session;
    std::vector<double> hostMs, deviceMs;
    ClickResultPtr result;
    for (int r = 0; r < repeat; ++r) {
        session = std::make_unique<DeviceSession>(device, image);
        result = session->click(script.front().seeds, script.front().params, variant, control);
        hostMs.push_back(result->hostMilliseconds);
        deviceMs.push_back(kernelMilliseconds(result->timings));
    }
    ClickMeasurement first = describe(script.front(), *result);
    first.resident = false;
    first.hostMs = spreadOf(hostMs);
    first.deviceMs = spreadOf(deviceMs);
    // The first click's upload: the whole luma, or only its window's
    // (firstRunWindow, the engine's own choice) where it grew in one; a
    // byte a pixel where widen_luma widened them on the device.
    const bool lumaBytes = std::any_of(result->timings.begin(), result->timings.end(),
                                       [](const TimingRecord& record) { return record.kernel == "widen_luma"; });
    for (const TimingRecord& record : result->timings) {
        if (record.kernel == "write:luma_window" && first.uploadMs == 0) {
            if (const auto window = firstRunWindow(*image, script.front().seeds, script.front().params.grow, variant, 1)) {
                first.uploadBytes = uint64_t(window->width) * uint64_t(window->height) * 2;
                first.uploadMs = double(record.duration()) / 1e6;
                first.uploadWindow = std::to_string(window->width) + " x " + std::to_string(window->height);
            }
        } else if (record.kernel == "write:luma") {
            first.uploadBytes = image->pixelCount() * (lumaBytes ? 1 : 2);
            first.uploadMs = double(record.duration()) / 1e6;
            first.uploadWindow.clear();
        }
    }
    if (verify)
        first.check = checkText(*image, script.front(), *result);
    run.clicks.push_back(first);

    for (size_t s = 1; s < script.size(); ++s) {
        hostMs.clear();
        deviceMs.clear();
        for (int r = 0; r < repeat; ++r) {
            result = session->click(script[s].seeds, script[s].params, variant, control);
            hostMs.push_back(result->hostMilliseconds);
            deviceMs.push_back(kernelMilliseconds(result->timings));
        }
        ClickMeasurement click = describe(script[s], *result);
        click.hostMs = spreadOf(hostMs);
        click.deviceMs = spreadOf(deviceMs);
        if (verify)
            click.check = checkText(*image, script[s], *result);
        run.clicks.push_back(click);
    }
    result.reset();
    run.footprint = session->footprint();
    return run;
}

} // namespace rgx::bench
