// The cases of rgx-cli bench measured: baselines, variants, checks, ratios.
#include "CaseBench.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "FloodFillBaseline.h"
#include "NppBaseline.h"
#include "Pipeline.h"
#include "reference/FastCpuGrowing.h"
#include "stages/RegionGrowing.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace rgx::bench {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Measurement baseline(Kind kind, const std::string& name, const std::string& label)
{
    Measurement measurement;
    measurement.kind = kind;
    measurement.name = name;
    measurement.label = label;
    return measurement;
}

} // namespace

std::string Check::text() const
{
    if (!done)
        return "-";
    if (differingPixels > 0)
        return "DIFF " + std::to_string(differingPixels);
    return sumsDiffer ? "DIFF sums" : "ok";
}

Check checkAgainst(const GrowResult& reference, const GrowResult& actual)
{
    Check check;
    check.done = true;
    check.differingPixels = compareResults(reference, actual).differingPixels;
    check.sumsDiffer = reference.regions.size() != actual.regions.size();
    for (size_t k = 0; !check.sumsDiffer && k < reference.regions.size(); ++k)
        check.sumsDiffer = reference.regions[k].count != actual.regions[k].count ||
                           reference.regions[k].sum != actual.regions[k].sum;
    return check;
}

double perIterationUs(const Measurement& row)
{
    return row.iterations ? row.hostMs.median * 1000.0 / row.iterations : 0;
}

double megapixelsPerSecond(const Measurement& row, const BenchCase& benchCase)
{
    const double pixels = double(benchCase.width) * double(benchCase.height);
    return row.hostMs.median > 0 ? pixels / (row.hostMs.median * 1000.0) : 0;
}

std::string variantLabel(const GrowVariant& variant)
{
    std::string label = variant.shortText();
    if (variant.wrongOnPurpose())
        label += " (wrong)";
    return label;
}

bool rowFailed(const Measurement& row)
{
    return row.kind != Kind::Reference && row.expectedEqual && (row.failed || (row.skipped.empty() && !row.check.ok()));
}

std::optional<std::string> tooLargeForDevice(const LumaImage& image, const std::string& name, size_t seedCount,
                                             const std::vector<GrowVariant>& variants, const DeviceInfo& device)
{
    uint64_t smallest = UINT64_MAX;
    for (const GrowVariant& variant : variants)
        smallest = std::min(smallest, regionGrowingDeviceBytes(image.pixelCount(), seedCount, variant));
    const uint64_t largestBuffer = image.pixelCount() * 4;
    if (smallest <= device.globalMemoryBytes && largestBuffer <= device.maxAllocationBytes)
        return std::nullopt;
    std::ostringstream reason;
    reason << name << " " << image.width << "x" << image.height << " skipped: it needs "
           << smallest / (1024 * 1024) << " MiB of device memory (largest buffer "
           << largestBuffer / (1024 * 1024) << " MiB); " << device.name << " has "
           << device.globalMemoryBytes / (1024 * 1024) << " MiB, at most "
           << device.maxAllocationBytes / (1024 * 1024) << " MiB per buffer";
    return reason.str();
}

CaseBench::CaseBench(const CaseSettings& settings, ComputeDevice& device, std::vector<GrowVariant> variants,
                     const LaunchFloor& floor, const GridBarrierFloor& barrierFloor,
                     const FloodFillBaseline& floodFill, const NppBaseline* npp)
    : settings_(settings), device_(device), variants_(std::move(variants)), floor_(floor),
      barrierFloor_(barrierFloor), floodFill_(floodFill), npp_(npp)
{
}

BenchCase CaseBench::runCase(const std::string& name, const LumaImage& image, const std::vector<Seed>& seeds,
                             Mode mode)
{
    BenchCase result;
    result.image = name;
    result.width = image.width;
    result.height = image.height;
    result.seedCount = int(seeds.size());
    result.mode = mode;
    PipelineParams params;
    params.grow = settings_.grow;
    params.grow.mode = mode;

    // The reference: the ground truth of every check, timed as it runs.
    Measurement reference = baseline(Kind::Reference, "cpu-reference", "CPU reference");
    GrowResultPtr truth;
    std::vector<double> hostMs;
    for (int r = 0; r < settings_.referenceRepeat; ++r) {
        truth = runReferencePipeline(image, seeds, params);
        hostMs.push_back(truth->hostMilliseconds);
    }
    reference.hostMs = spreadOf(hostMs);
    reference.iterations = truth->iterations;
    result.iterations = truth->iterations;
    for (const RegionStats& region : truth->regions)
        result.classified += region.count;
    result.rows.push_back(reference);

    // The fast CPU implementation.
    Measurement fast =
        baseline(Kind::FastCpu, "fast-cpu", "fast CPU, " + std::to_string(settings_.cpuThreads) + " threads");
    hostMs.clear();
    for (int r = 0; r < settings_.warmup + settings_.repeat; ++r) {
        const auto start = Clock::now();
        const GrowResult grown =
            growRegionsFastCpu(image.luma, image.width, image.height, seeds, params.grow, settings_.cpuThreads);
        const double elapsed = millisecondsSince(start);
        if (r == 0) {
            fast.check = checkAgainst(*truth, grown);
            fast.iterations = grown.iterations;
        }
        if (r >= settings_.warmup)
            hostMs.push_back(elapsed);
    }
    fast.hostMs = spreadOf(hostMs);
    result.rows.push_back(fast);

    if (floodFill_.available() && mode == Mode::Range && seeds.size() == 1) {
        Measurement flood = baseline(Kind::FloodFill, "opencv-floodfill", "cv::floodFill");
        std::vector<uint8_t> filled;
        std::vector<double> runs =
            floodFill_.time(image, seeds[0], params.grow, settings_.warmup + settings_.repeat, filled);
        flood.check.done = true;
        for (size_t p = 0; p < filled.size(); ++p)
            flood.check.differingPixels += (filled[p] != 0) != (truth->labels[p] == 1);
        flood.hostMs = spreadOf(std::vector<double>(runs.begin() + settings_.warmup, runs.end()));
        flood.iterations = truth->iterations; // a fill has no iterations; kept for the record
        result.rows.push_back(flood);
    }
    if (npp_ && npp_->available() && mode == Mode::Range && seeds.size() == 1)
        result.rows.push_back(runNpp(image, seeds[0], params, *truth));

    const auto shared = std::shared_ptr<const LumaImage>(std::shared_ptr<const LumaImage>(), &image);
    for (const GrowVariant& variant : variants_)
        result.rows.push_back(runVariant(shared, seeds, params, variant, *truth));
    computeRatios(result);
    return result;
}

// NPP's fill on the same image, seed and range. Its first run is checked
// pixel by pixel: the reference's region must hold NPP's new value and every
// other pixel its old one. (Where the range spans 0..255 the new value is in
// it, and a pixel of that value that NPP missed goes unseen.)
Measurement CaseBench::runNpp(const LumaImage& image, Seed seed, const PipelineParams& params,
                              const GrowResult& truth)
{
    Measurement npp = baseline(Kind::Npp, "npp-floodfill", "NPP flood fill");
    npp.expectedEqual = false; // a wrong NPP region is shown as wrong; it does not fail RGX's bench
    npp.iterations = truth.iterations; // a fill has no iterations; kept for the record
    if (const std::string why = NppBaseline::whyNotFor(image); !why.empty()) {
        npp.skipped = why;
        return npp;
    }
    try {
        const NppFill fill = npp_->fill(image, seed, params.grow.lower, params.grow.upper, params.grow.connectivity,
                                        settings_.warmup + settings_.repeat);
        npp.check.done = true;
        for (size_t p = 0; p < fill.filled.size(); ++p) {
            const uint8_t expected = truth.labels[p] == 1 ? fill.newValue : uint8_t(image.luma[p]);
            npp.check.differingPixels += fill.filled[p] != expected;
        }
        npp.reportedPixels = fill.reportedPixels;
        npp.hostMs = spreadOf(std::vector<double>(fill.hostMs.begin() + settings_.warmup, fill.hostMs.end()));
        npp.deviceMs = spreadOf(std::vector<double>(fill.eventMs.begin() + settings_.warmup, fill.eventMs.end()));
    } catch (const std::exception& error) {
        npp.skipped = error.what();
        npp.failed = true;
    }
    return npp;
}

// A variant as a user meets it: the first click of a new session (the image
// uploaded, the buffers made), then the same click again and again on the
// resident session, each from the request to the box maps in host memory.
// The first click's result is the one checked.
Measurement CaseBench::runVariant(const std::shared_ptr<const LumaImage>& image, const std::vector<Seed>& seeds,
                                  const PipelineParams& params, const GrowVariant& variant, const GrowResult& truth)
{
    Measurement measurement;
    measurement.kind = Kind::Variant;
    measurement.name = variant.text();
    measurement.label = variantLabel(variant);
    measurement.variant = variant;
    measurement.expectedEqual = !variant.wrongOnPurpose();
    measurement.deviceBytes = regionGrowingDeviceBytes(image->pixelCount(), seeds.size(), variant);
    RunControl control;
    control.timeoutSeconds = 3600;
    std::vector<double> firstMs, hostMs, deviceMs, idleMs;
    try {
        // Warm-up sessions first: a runtime may compile on the first launch.
        const int sessions = settings_.warmup + std::max(1, settings_.repeat / 2);
        for (int r = 0; r < sessions; ++r) {
            DeviceSession session(device_, image);
            const ClickResultPtr first = session.click(seeds, params, variant, control);
            if (r >= settings_.warmup)
                firstMs.push_back(first->hostMilliseconds);
            if (r != sessions - 1)
                continue;
            measurement.check = checkAgainst(truth, first->toGrowResult());
            measurement.iterations = first->iterations;
            for (int k = 0; k < settings_.warmup + settings_.repeat; ++k) {
                const ClickResultPtr run = session.click(seeds, params, variant, control);
                if (k < settings_.warmup)
                    continue;
                hostMs.push_back(run->hostMilliseconds);
                deviceMs.push_back(kernelMilliseconds(run->timings));
                idleMs.push_back(double(summarizeTimeline(run->timings).gapNs) / 1e6);
                measurement.kernels = kernelTotals(run->timings);
            }
        }
    } catch (const InputError& error) {
        measurement.skipped = error.what(); // too large for the device: the bench goes on
        return measurement;
    } catch (const std::exception& error) {
        measurement.skipped = error.what(); // a failure: reported, and the bench goes on
        measurement.failed = true;
        return measurement;
    }
    measurement.firstMs = spreadOf(firstMs);
    measurement.hostMs = spreadOf(hostMs);
    measurement.deviceMs = spreadOf(deviceMs);
    measurement.idleMs = spreadOf(idleMs);
    return measurement;
}

void CaseBench::computeRatios(BenchCase& result) const
{
    auto find = [&](auto predicate) -> const Measurement* {
        for (const Measurement& row : result.rows)
            if (row.skipped.empty() && predicate(row))
                return &row;
        return nullptr;
    };
    const Measurement* reference = find([](const Measurement& m) { return m.kind == Kind::Reference; });
    const Measurement* fast = find([](const Measurement& m) { return m.kind == Kind::FastCpu; });
    const Measurement* flood = find([](const Measurement& m) { return m.kind == Kind::FloodFill; });
    // NPP's time is a baseline only where its region is right.
    const Measurement* npp = find([](const Measurement& m) { return m.kind == Kind::Npp && m.check.ok(); });
    auto speedup = [](const Measurement* base, const Measurement& row) -> std::optional<double> {
        if (!base || row.hostMs.median <= 0)
            return std::nullopt;
        return base->hostMs.median / row.hostMs.median;
    };
    for (Measurement& row : result.rows) {
        if (!row.skipped.empty())
            continue;
        row.speedupOverReference = speedup(reference, row);
        if (row.kind == Kind::Reference)
            continue;
        row.speedupOverFastCpu = speedup(fast, row);
        if (row.kind != Kind::Variant)
            continue;
        row.speedupOverFloodFill = speedup(flood, row);
        row.speedupOverNpp = speedup(npp, row);
        const Measurement* hostSync = find([&](const Measurement& m) {
            return m.kind == Kind::Variant && m.variant.driver == Driver::HostSync &&
                   m.variant.frontier == row.variant.frontier && m.variant.collectives == row.variant.collectives &&
                   m.variant.tile == row.variant.tile;
        });
        row.speedupOverHostSync = speedup(hostSync, row);
        if (row.iterations > 0 && floor_.pipelinedUs.median > 0)
            row.perIterationOverFloor = row.hostMs.median * 1000.0 / row.iterations / floor_.pipelinedUs.median;
        if (row.variant.fusion != Fusion::None && row.iterations > 0 && row.deviceMs && barrierFloor_.fusedUs &&
            barrierFloor_.fusedUs->median > 0)
            row.perLevelOverBarrier = row.deviceMs->median * 1000.0 / row.iterations / barrierFloor_.fusedUs->median;
    }
}

} // namespace rgx::bench
