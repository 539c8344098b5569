// rgx-cli bench --volume measured: the phantom, its cases, the flood fill,
// the CPU reference and the variants' clicks, checked.
#include "VolumeBench.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "Neighbourhood.h"
#include "Pipeline.h"
#include "stages/RegionGrowing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <sstream>

namespace rgx::bench {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A voxel's noise from its index alone (splitmix64), so that the phantom
// needs no sequential generator over all its voxels.
uint64_t mix(uint64_t value)
{
    value += 0x9E3779B97F4A7C15ull;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
    return value ^ (value >> 31);
}

// The balls' radii as fractions of the edge: two large, then ever smaller
// and more of them (about 8 % of the volume in all). At 512^3 the 0.11
// balls hold about 0.74 M voxels: the "small" case's region.
const double radiusFractions[] = {0.16, 0.16, 0.11, 0.11, 0.11, 0.11, 0.08, 0.08, 0.08, 0.08, 0.08,
                                  0.08, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.04, 0.04,
                                  0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04};

bool inside(const PhantomSphere& sphere, int x, int y, int z)
{
    const double dx = x - sphere.x, dy = y - sphere.y, dz = z - sphere.z;
    return dx * dx + dy * dy + dz * dz <= sphere.radius * sphere.radius;
}

std::string seedText(const Seed& seed)
{
    return "(" + std::to_string(seed.x) + "," + std::to_string(seed.y) + "," + std::to_string(seed.z) + ")";
}

} // namespace

Phantom makePhantom(int size, uint32_t seed)
{
    Phantom phantom;
    std::mt19937 rng(seed);
    // Levels 150 apart, none within 300 of the background, in a shuffled order.
    std::vector<uint16_t> levels;
    for (int level = 100; levels.size() < std::size(radiusFractions); level += 150)
        if (std::abs(level - int(phantom.background)) >= 300)
            levels.push_back(uint16_t(level));
    std::shuffle(levels.begin(), levels.end(), rng);

    for (size_t i = 0; i < std::size(radiusFractions); ++i) {
        PhantomSphere sphere;
        sphere.radius = std::max(1.5, radiusFractions[i] * size);
        sphere.level = levels[i];
        const int reach = int(std::ceil(sphere.radius));
        const int low = reach + 1, high = size - 2 - reach; // a background voxel between a ball and the border
        if (high < low)
            continue;
        std::uniform_int_distribution<int> position(low, high);
        // A place apart from every ball so far (two voxels of background between them), or none.
        bool placed = false;
        for (int attempt = 0; attempt < 200 && !placed; ++attempt) {
            sphere.x = position(rng);
            sphere.y = position(rng);
            sphere.z = position(rng);
            placed = std::none_of(phantom.spheres.begin(), phantom.spheres.end(), [&](const PhantomSphere& other) {
                const double dx = sphere.x - other.x, dy = sphere.y - other.y, dz = sphere.z - other.z;
                return std::sqrt(dx * dx + dy * dy + dz * dz) <= sphere.radius + other.radius + 2;
            });
        }
        if (placed)
            phantom.spheres.push_back(sphere);
    }

    LumaImage& volume = phantom.volume;
    volume.width = volume.height = volume.depth = size;
    volume.bitDepth = 16;
    volume.volume.format = "phantom";
    volume.luma.assign(volume.pixelCount(), phantom.background);
    for (PhantomSphere& sphere : phantom.spheres) {
        const int reach = int(std::ceil(sphere.radius));
        for (int z = sphere.z - reach; z <= sphere.z + reach; ++z)
            for (int y = sphere.y - reach; y <= sphere.y + reach; ++y)
                for (int x = sphere.x - reach; x <= sphere.x + reach; ++x)
                    if (inside(sphere, x, y, z)) {
                        volume.luma[(size_t(z) * size_t(size) + size_t(y)) * size_t(size) + size_t(x)] = sphere.level;
                        ++sphere.voxels;
                    }
    }
    const uint64_t span = uint64_t(2 * phantom.noise + 1);
    const uint64_t salt = uint64_t(seed) << 40;
    for (size_t p = 0; p < volume.luma.size(); ++p)
        volume.luma[p] = uint16_t(int(volume.luma[p]) + int(mix(salt ^ p) % span) - phantom.noise);
    return phantom;
}

void floodFillVolume(const LumaImage& volume, Seed seed, uint32_t lower, uint32_t upper, int connectivity,
                     FloodFill& fill)
{
    const int width = volume.width, height = volume.height, depth = volume.depth;
    const int64_t value = volume.at(seed.x, seed.y, seed.z);
    const int64_t lowest = value - int64_t(lower), highest = value + int64_t(upper);
    // The neighbourhood's offsets, each with its step in the index.
    struct Offset {
        int dx, dy, dz;
        int64_t step;
    };
    std::vector<Offset> offsets;
    for (int d = 0; d < maxNeighbours; ++d)
        if (neighbourInUse(d, connectivity)) {
            const NeighbourOffset& o = neighbourOffsets[d];
            offsets.push_back({o.dx, o.dy, o.dz, (int64_t(o.dz) * height + o.dy) * width + o.dx});
        }
    fill.distances.resize(volume.luma.size());
    std::fill(fill.distances.begin(), fill.distances.end(), unclassifiedStamp);
    // Level by level, so that each voxel's distance is its level.
    std::vector<uint32_t> frontier{uint32_t(seedIndex(seed, width, height))}, next;
    fill.distances[frontier[0]] = 0;
    fill.voxels = 1;
    const uint32_t slice = uint32_t(width) * uint32_t(height);
    uint32_t level = 0;
    while (!frontier.empty()) {
        ++level;
        next.clear();
        for (const uint32_t q : frontier) {
            const int x = int(q % uint32_t(width)), y = int(q % slice / uint32_t(width)), z = int(q / slice);
            for (const Offset& o : offsets) {
                const int nx = x + o.dx, ny = y + o.dy, nz = z + o.dz;
                if (nx < 0 || ny < 0 || nz < 0 || nx >= width || ny >= height || nz >= depth)
                    continue;
                const uint32_t p = uint32_t(int64_t(q) + o.step);
                const int64_t luma = volume.luma[p];
                if (fill.distances[p] == unclassifiedStamp && luma >= lowest && luma <= highest) {
                    fill.distances[p] = level;
                    next.push_back(p);
                }
            }
        }
        fill.voxels += next.size();
        frontier.swap(next);
    }
    fill.levels = level - 1;
}

Check checkAgainstFill(const LumaImage& volume, const FloodFill& fill, const GrowResult& actual)
{
    Check check;
    check.done = true;
    if (actual.labels.size() != fill.distances.size() || actual.stamps.size() != fill.distances.size()) {
        check.differingPixels = fill.distances.size();
        return check;
    }
    uint64_t sum = 0;
    for (size_t p = 0; p < fill.distances.size(); ++p) {
        const bool filled = fill.distances[p] != unclassifiedStamp;
        if (filled)
            sum += volume.luma[p];
        check.differingPixels += actual.labels[p] != (filled ? 1 : 0) || actual.stamps[p] != fill.distances[p];
    }
    check.sumsDiffer = actual.regions.size() != 1 || actual.regions[0].count != fill.voxels ||
                       actual.regions[0].sum != sum;
    return check;
}

std::vector<VolumeCase> volumeCases(const Phantom& phantom, int connectivity)
{
    const LumaImage& volume = phantom.volume;
    const int size = volume.width;
    const int centre = size / 2;
    auto rangeParams = [&](uint32_t range) {
        PipelineParams params;
        params.grow.mode = Mode::Range;
        params.grow.lower = range;
        params.grow.upper = range;
        params.grow.connectivity = connectivity;
        return params;
    };
    std::vector<VolumeCase> cases;

    VolumeCase whole;
    whole.name = "whole";
    whole.seeds = {{centre, centre, centre}};
    whole.params = rangeParams(65535);
    whole.description = "one seed at the centre " + seedText(whole.seeds[0]) + ", range +-65535: every voxel";
    whole.targetMs = 10.0;
    cases.push_back(whole);

    // The first voxel from the centre towards the corner that no ball holds
    // or touches: a background voxel in the middle of things.
    auto inBall = [&](int x, int y, int z) {
        return std::any_of(phantom.spheres.begin(), phantom.spheres.end(), [&](const PhantomSphere& sphere) {
            PhantomSphere grown = sphere;
            grown.radius += 1;
            return inside(grown, x, y, z);
        });
    };
    int step = 0;
    while (step < centre && inBall(centre - step, centre - step, centre - step))
        ++step;
    const uint32_t noiseRange = uint32_t(2 * phantom.noise); // from any noisy voxel to any other of its level
    VolumeCase background;
    background.name = "background";
    background.seeds = {{centre - step, centre - step, centre - step}};
    background.params = rangeParams(noiseRange);
    background.description = "one seed in the background " + seedText(background.seeds[0]) + ", range +-" +
                             std::to_string(noiseRange) + ": the background, the balls left as holes";
    cases.push_back(background);

    const uint64_t smallLimit = std::min<uint64_t>(1000000, volume.pixelCount() / 20);
    const PhantomSphere* ball = nullptr;
    for (const PhantomSphere& sphere : phantom.spheres)
        if (sphere.voxels < smallLimit && (!ball || sphere.voxels > ball->voxels))
            ball = &sphere;
    if (ball) {
        VolumeCase small;
        small.name = "small";
        small.seeds = {{ball->x, ball->y, ball->z}};
        small.params = rangeParams(noiseRange);
        small.description = "one seed at the centre of a ball " + seedText(small.seeds[0]) + " of " +
                            std::to_string(ball->voxels) + " voxels, range +-" + std::to_string(noiseRange) +
                            ": that ball";
        small.targetMs = 1.0;
        cases.push_back(small);
    }

    VolumeCase many;
    many.name = "64 seeds";
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < 4; ++i)
                many.seeds.push_back({(2 * i + 1) * size / 8, (2 * j + 1) * size / 8, (2 * k + 1) * size / 8});
    many.params.grow.mode = Mode::Competitive;
    many.params.grow.connectivity = connectivity;
    many.description = "64 seeds on a 4x4x4 grid, competitive: every voxel into one of 64 regions";
    many.targetMs = 30.0;
    cases.push_back(many);
    return cases;
}

CpuReference parseCpuReference(const std::string& text)
{
    if (text == "auto")
        return CpuReference::Auto;
    if (text == "always")
        return CpuReference::Always;
    if (text == "never")
        return CpuReference::Never;
    throw InputError("option --cpu-reference needs auto, always or never, not '" + text + "'");
}

const VolumeVariantRun* VolumeCaseResult::best() const
{
    const VolumeVariantRun* fastest = nullptr;
    for (const VolumeVariantRun& run : variants)
        if (run.skipped.empty() && run.expectedEqual && (run.check.ok() || !run.check.done) &&
            (!fastest || run.residentMs.median < fastest->residentMs.median))
            fastest = &run;
    return fastest;
}

bool VolumeCaseResult::failed() const
{
    if (referenceCheck && !referenceCheck->ok())
        return true;
    for (const VolumeVariantRun& run : variants)
        if (run.expectedEqual && (run.failed || (run.skipped.empty() && run.check.done && !run.check.ok())))
            return true;
    return false;
}

std::optional<std::string> volumeTooLarge(uint64_t voxels, size_t regions, const GrowVariant& variant,
                                          const DeviceInfo& device)
{
    const uint64_t needed = regionGrowingDeviceBytes(voxels, regions, variant, tieSlotPixels(true, device));
    const uint64_t largestBuffer = voxels * 4;
    if (needed <= device.globalMemoryBytes && largestBuffer <= device.maxAllocationBytes)
        return std::nullopt;
    std::ostringstream reason;
    reason << "too large for the device: it needs " << needed / (1024 * 1024) << " MiB (largest buffer "
           << largestBuffer / (1024 * 1024) << " MiB); " << device.name << " has "
           << device.globalMemoryBytes / (1024 * 1024) << " MiB, at most " << device.maxAllocationBytes / (1024 * 1024)
           << " MiB per buffer";
    return reason.str();
}

VolumeBench::VolumeBench(const VolumeSettings& settings, ComputeDevice& device, std::vector<GrowVariant> variants)
    : settings_(settings), device_(device), variants_(std::move(variants))
{
}

VolumeCaseResult VolumeBench::runCase(const std::string& phantomName, const std::shared_ptr<const LumaImage>& volume,
                                      const VolumeCase& volumeCase)
{
    VolumeCaseResult result;
    result.phantom = phantomName;
    result.size = volume->width;
    result.volumeCase = volumeCase;

    // The flood fill: the range cases' ground truth, and their baseline.
    FloodFill fill;
    const bool fills = volumeCase.oneSeedRange();
    if (fills) {
        const GrowParams& grow = volumeCase.params.grow;
        // At most 3 fills, fewer once they took 2 s (a 512^3 fill takes seconds).
        std::vector<double> runs;
        const auto begin = Clock::now();
        for (int r = 0; r < std::clamp(settings_.repeats, 1, 3) && (r == 0 || millisecondsSince(begin) < 2000); ++r) {
            const auto start = Clock::now();
            floodFillVolume(*volume, volumeCase.seeds[0], grow.lower, grow.upper, grow.connectivity, fill);
            runs.push_back(millisecondsSince(start));
        }
        result.floodFillMs = spreadOf(runs);
        result.floodFillVoxels = fill.voxels;
        result.classified = fill.voxels;
        result.iterations = fill.levels;
    }

    // The CPU reference, where asked for, or (auto) where the volume is
    // small or nothing else would check the case.
    GrowResultPtr reference;
    const bool small = volume->pixelCount() <= uint64_t(256) * 256 * 256;
    if (settings_.cpuReference == CpuReference::Never)
        result.referenceSkipped = "--cpu-reference never";
    else if (settings_.cpuReference == CpuReference::Auto && !small && fills)
        result.referenceSkipped = "auto: above 256^3 voxels, and the flood fill checks this case";
    if (result.referenceSkipped.empty()) {
        reference = runReferencePipeline(*volume, volumeCase.seeds, volumeCase.params);
        result.referenceMs = reference->hostMilliseconds;
        if (fills) {
            result.referenceCheck = checkAgainstFill(*volume, fill, *reference);
        } else {
            result.iterations = reference->iterations;
            for (const RegionStats& region : reference->regions)
                result.classified += region.count;
        }
    }

    for (const GrowVariant& variant : variants_)
        result.variants.push_back(
            runVariant(volume, volumeCase, variant, fills ? &fill : nullptr, reference.get()));
    for (VolumeVariantRun& run : result.variants) {
        if (!run.skipped.empty() || run.residentMs.median <= 0)
            continue;
        if (result.floodFillMs)
            run.speedupOverFloodFill = result.floodFillMs->median / run.residentMs.median;
        if (result.referenceMs)
            run.speedupOverReference = *result.referenceMs / run.residentMs.median;
    }
    return result;
}

// A variant as a user meets it: a session made and its programs built
// (untimed), then a new session's first click (the volume uploaded, the
// buffers made), then `repeats` clicks on that resident session, each
// from the request to the box maps in host memory.
VolumeVariantRun VolumeBench::runVariant(const std::shared_ptr<const LumaImage>& volume, const VolumeCase& volumeCase,
                                         const GrowVariant& variant, const FloodFill* fill,
                                         const GrowResult* reference)
{
    VolumeVariantRun run;
    run.variant = variant;
    run.label = variantLabel(variant);
    run.expectedEqual = !variant.wrongOnPurpose();
    run.checkedAgainst = fill ? "flood fill" : reference ? "CPU reference" : "";
    if (auto reason = volumeTooLarge(volume->pixelCount(), volumeCase.seeds.size(), variant, device_.info())) {
        run.skipped = *reason;
        return run;
    }
    RunControl control;
    control.timeoutSeconds = 3600;
    auto check = [&](const ClickResult& click) {
        const GrowResult full = click.toGrowResult();
        if (fill)
            return checkAgainstFill(*volume, *fill, full);
        if (reference)
            return checkAgainst(*reference, full);
        return Check{};
    };
    auto worse = [](const Check& a, const Check& b) {
        if (!a.done || !b.done)
            return a.done ? a : b;
        return a.ok() ? b : a;
    };
    try {
        {
            DeviceSession warmUp(device_, volume);
            warmUp.click(volumeCase.seeds, volumeCase.params, variant, control);
        }
        DeviceSession session(device_, volume);
        auto start = Clock::now();
        const ClickResultPtr first = session.click(volumeCase.seeds, volumeCase.params, variant, control);
        run.firstClickMs = millisecondsSince(start);
        run.check = check(*first);
        run.note = first->note;
        std::vector<double> hostMs, kernelMs;
        ClickResultPtr last;
        for (int r = 0; r < settings_.repeats; ++r) {
            start = Clock::now();
            last = session.click(volumeCase.seeds, volumeCase.params, variant, control);
            hostMs.push_back(millisecondsSince(start));
            kernelMs.push_back(kernelMilliseconds(last->timings));
        }
        run.check = worse(run.check, check(*last));
        run.iterations = last->iterations;
        for (const RegionStats& region : last->regions)
            run.classified += region.count;
        run.residentMs = spreadOf(hostMs);
        run.kernelMs = spreadOf(kernelMs);
        run.kernels = kernelTotals(last->timings);
        run.commands = last->timings;
        std::stable_sort(run.kernels.begin(), run.kernels.end(),
                         [](const KernelTotal& a, const KernelTotal& b) { return a.totalNs > b.totalNs; });
    } catch (const InputError& error) {
        run.skipped = error.what(); // does not fit: the bench goes on
    } catch (const std::exception& error) {
        run.skipped = error.what(); // a failure: reported, and the bench goes on
        run.failed = true;
    }
    return run;
}

} // namespace rgx::bench
