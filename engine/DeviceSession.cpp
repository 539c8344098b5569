// The resident session: the pipeline of DESIGN.md on one image kept on one
// device, prefilter -> region growing -> postfilter, each run reusing what
// the last one left.
#include "DeviceSession.h"
#include "Device.h"
#include "Errors.h"
#include "HostMemory.h"
#include "stages/BoxMean.h"
#include "stages/DensityFilter.h"
#include "stages/GrowWindow.h"
#include "stages/Gaussian.h"
#include "stages/GrowState.h"
#include "stages/RegionGrowing.h"
#include "stages/StageVariants.h"
#include "stages/TimingLog.h"

#include <chrono>
#include <future>

namespace rgx {
namespace {

using Clock = std::chrono::steady_clock;

// A click's labels: one region of a correct run reads them off the stamps.
bool labelsFromStamps(const std::vector<Seed>& seeds, const GrowVariant& variant)
{
    return seeds.size() == 1 && !variant.wrongOnPurpose();
}

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The state of an image, or of a volume with its slices stacked (GrowState.h).
std::unique_ptr<GrowState> makeState(ComputeDevice& device, const LumaImage& image)
{
    return std::make_unique<GrowState>(device, image.width, image.height * image.depth,
                                       GrowState::HostMemory::Recycled, image.height);
}

void checkCancel(const RunControl& control, const char* where)
{
    if (control.cancel && control.cancel->load())
        throw RunInterrupted(std::string("cancelled ") + where);
}

} // namespace

// What a result says about its run, the same for full and box maps.
template <typename Result>
void DeviceSession::describeRun(Result& result, const GrowRun& run, const GrowVariant& variant) const
{
    result.regions = run.regions;
    result.iterations = run.iterations;
    result.stoppedAtCap = run.stoppedAtCap;
    result.note = run.note;
    result.device = device_.info().name;
    result.variant = variant.text();
}

// The stages of one request, each made once: making a stage checks its part
// of the request and builds its programs.
struct DeviceSession::Prepared {
    std::string prefilterKey;           // prefilterText of the request's prefilter
    std::unique_ptr<RegionGrowing> regionGrowing;
    std::unique_ptr<BoxMean> boxMean;   // null when the prefilter is none or unchanged
    std::unique_ptr<Gaussian> gaussian;
    std::unique_ptr<DensityFilter> density;
};

// One run of prefilter and region growing, its maps still on the device.
struct DeviceSession::Grown {
    Clock::time_point start;
    TimingLog timings;
    GrowRun run;
    std::vector<KernelReport> kernels;
    const std::vector<uint16_t>* luma = nullptr; // the luma the regions grew on
    GrowState* state = nullptr;                  // where the maps are: state_, or
    std::unique_ptr<GrowState> windowState;      // the window's of a first run
    GrowWindow window;                           // (its place in the image)
};

DeviceSession::DeviceSession(ComputeDevice& device, std::shared_ptr<const LumaImage> image, Use use)
    : device_(device), image_(std::move(image)), use_(use)
{
}

DeviceSession::~DeviceSession()
{
    awaitBackground();
}

DeviceSession::Prepared DeviceSession::prepare(const std::vector<Seed>& seeds, const PipelineParams& params,
                                               const GrowVariant& variant)
{
    const LumaImage& image = *image_;
    // Everything a user can get wrong is reported before anything runs (the
    // region growing's inputs first, then the filters), and programs are
    // built (or loaded) before any other thread starts: the host time counts
    // from the first command of the run to its result, and a runtime's
    // compiler may load libraries the first time it runs.
    Prepared prepared;
    prepared.regionGrowing =
        std::make_unique<RegionGrowing>(device_, image.width, image.height, seeds, params.grow, variant, image.depth);
    const PrefilterSpec& pre = params.prefilter;
    checkFilters(params, image.depth);
    prepared.prefilterKey = prefilterText(pre);
    if (pre.kind != PrefilterSpec::Kind::None && prepared.prefilterKey != filteredKey_) {
        if (pre.kind == PrefilterSpec::Kind::BoxMean)
            prepared.boxMean = std::make_unique<BoxMean>(device_, pre.size, parseBoxMeanVariant(pre.variant));
        else
            prepared.gaussian = std::make_unique<Gaussian>(device_, pre.size, parseGaussianVariant(pre.variant));
    }
    const PostfilterSpec& post = params.postfilter;
    if (post.enabled)
        prepared.density =
            std::make_unique<DensityFilter>(device_, post.window, post.minimum, parseDensityVariant(post.variant));
    return prepared;
}

DeviceSession::Grown DeviceSession::grow(Prepared& prepared, const std::vector<Seed>& seeds,
                                         const PipelineParams& params, const GrowVariant& variant,
                                         const RunControl& control, Maps maps)
{
    Grown grown;
    grown.start = Clock::now();
    const LumaImage& image = *image_;
    const PrefilterSpec& pre = params.prefilter;
    const std::string& key = prepared.prefilterKey;
    std::unique_ptr<BoxMean>& boxMean = prepared.boxMean;
    std::unique_ptr<Gaussian>& gaussian = prepared.gaussian;

    // The prefilter runs only when it changed; its output stays for the next run.
    if (boxMean || gaussian) {
        filteredKey_.clear();
        std::vector<uint16_t> filtered;
        if (boxMean) {
            filtered = boxMean->run(image.luma, image.width, image.height, grown.timings);
            grown.kernels = boxMean->kernels();
        } else {
            filtered = gaussian->run(image.luma, image.width, image.height, grown.timings);
            grown.kernels = gaussian->kernels();
        }
        filtered_ = std::make_shared<const std::vector<uint16_t>>(std::move(filtered));
        filteredKey_ = key;
        checkCancel(control, "after the prefilter");
    }
    grown.luma = pre.kind == PrefilterSpec::Kind::None ? &image.luma : filtered_.get();

    awaitBackground();
    if (!state_) {
        if (pre.kind == PrefilterSpec::Kind::None && !image.isVolume() &&
            growInWindow(grown, seeds, params, variant, control))
            return grown;
        state_ = makeState(device_, image);
        // Box maps of up to the whole image, two bytes a stamp and one a
        // label (none for one region, two beyond 255): ready by the time
        // the run ends.
        if (maps == Maps::Box)
            state_->prepareHostMemory(size_t(image.pixelCount()) *
                                      (seeds.size() == 1 ? 2 : seeds.size() <= 255 ? 3 : 4));
    }
    grown.state = state_.get();
    state_->packAhead(maps == Maps::Box, seeds.size(), labelsFromStamps(seeds, variant));
    state_->reserveRegions(seeds.size());
    state_->setLuma(*grown.luma, pre.kind == PrefilterSpec::Kind::None ? &image.lumaBytes : nullptr, key,
                    grown.timings);
    grown.run = prepared.regionGrowing->run(*state_, seedLumaOf(seeds, *grown.luma, image.width, image.height),
                                            control, grown.timings);
    grown.kernels.insert(grown.kernels.end(), grown.run.kernels.begin(), grown.run.kernels.end());
    return grown;
}

bool DeviceSession::growInWindow(Grown& grown, const std::vector<Seed>& seeds, const PipelineParams& params,
                                 const GrowVariant& variant, const RunControl& control)
{
    const LumaImage& image = *image_;
    const std::optional<GrowWindow> window =
        firstRunWindow(image, seeds, params.grow, variant, control.partialStep);
    if (!window)
        return false;
    const RegionGrowing growing(device_, window->width, window->height, windowSeeds(seeds, *window), params.grow,
                                variant);
    auto state = std::make_unique<GrowState>(device_, window->width, window->height, GrowState::HostMemory::OneRun);
    state->reserveRegions(seeds.size());
    state->setLumaWindow(*grown.luma, image.width, window->x0, window->y0, grown.timings);
    // Partial pictures are of the image, as in any other run.
    RunControl inWindow = control;
    if (control.partial)
        inWindow.partial = [&](const BoxMaps& maps, uint32_t iteration) {
            control.partial(inImage(maps, *window, image.width, image.height), iteration);
        };
    GrowRun run = growing.run(*state, seedLumaOf(seeds, *grown.luma, image.width), inWindow, grown.timings);
    if (reachesInnerEdge(run.box, *window, image.width, image.height)) {
        releaseInBackground(std::move(state));
        return false; // the region may go on outside: the whole image decides
    }
    grown.run = std::move(run); // its box in the window's coordinates
    grown.kernels.insert(grown.kernels.end(), grown.run.kernels.begin(), grown.run.kernels.end());
    grown.window = *window;
    grown.windowState = std::move(state);
    grown.state = grown.windowState.get();
    return true;
}

void DeviceSession::followFirstRun(Grown& grown, const std::string& key)
{
    if (!grown.windowState)
        return;
    // Used once, or on a device that takes no calls from other threads: the
    // next run, if any, uploads what it needs itself.
    if (use_ == Use::Once || !device_.info().takesCallsFromOtherThreads()) {
        releaseInBackground(std::move(grown.windowState));
        return;
    }
    const LumaImage& image = *image_;
    state_ = makeState(device_, image);
    lumaUpload_ = std::async(std::launch::async, [state = state_.get(), luma = &image.luma, bytes = &image.lumaBytes,
                                                  key, window = std::move(grown.windowState)]() mutable {
        window.reset();
        state->uploadLuma(*luma, bytes, key);
    });
}

void DeviceSession::releaseInBackground(std::unique_ptr<GrowState> state)
{
    if (released_.valid())
        released_.wait();
    if (!device_.info().takesCallsFromOtherThreads())
        return; // released here, now
    released_ = std::async(std::launch::async, [state = std::move(state)]() mutable { state.reset(); });
}

void DeviceSession::awaitBackground()
{
    if (released_.valid())
        released_.wait();
    if (!lumaUpload_.valid())
        return;
    try {
        lumaUpload_.get();
    } catch (const std::exception&) {
        state_.reset(); // the next run uploads again, and says what fails
    }
}

GrowResultPtr DeviceSession::run(const std::vector<Seed>& seeds, const PipelineParams& params,
                                 const GrowVariant& variant, const RunControl& control)
{
    const LumaImage& image = *image_;
    // The full maps are allocated (and their pages touched) on other threads
    // while this one drives the device: at 4096 x 4096 that is 96 MB and tens
    // of milliseconds the device would otherwise sit idle for.
    Prepared prepared = prepare(seeds, params, variant);
    const size_t pixelCount = size_t(image.pixelCount());
    auto labelMap = std::async(std::launch::async, [pixelCount] { return hostMap<uint16_t>(pixelCount, 0); });
    auto stampMap = std::async(std::launch::async,
                               [pixelCount] { return hostMap<uint32_t>(pixelCount, unclassifiedStamp); });
    Grown grown = grow(prepared, seeds, params, variant, control, Maps::Full);

    GrowResult result;
    result.width = image.width;
    result.height = image.height;
    result.depth = image.depth;
    result.labels = labelMap.get();
    result.stamps = stampMap.get();
    grown.state->readBoxInto(grown.run.finalSet, grown.run.box, result.labels, result.stamps, grown.timings,
                             {grown.window.x0, grown.window.y0, image.width});
    followFirstRun(grown, prepared.prefilterKey);
    describeRun(result, grown.run, variant);
    result.grownIn = {grown.window.x0, grown.window.y0, grown.window.width, grown.window.height};

    if (DensityFilter* density = prepared.density.get()) {
        checkCancel(control, "before the postfilter");
        result.labelsBeforePostfilter = result.labels;
        result.stampsBeforePostfilter = result.stamps;
        density->run(result.labels, result.stamps, image.width, image.height, grown.timings, control.cancel);
        recountRegions(result, *grown.luma);
        grown.kernels.insert(grown.kernels.end(), density->kernels().begin(), density->kernels().end());
    }
    if (params.prefilter.kind != PrefilterSpec::Kind::None)
        result.filteredLuma = filtered_;
    result.kernels = std::move(grown.kernels);
    result.timings = grown.timings.records();
    result.hostMilliseconds = millisecondsSince(grown.start);
    return std::make_shared<const GrowResult>(std::move(result));
}

ClickResultPtr DeviceSession::click(const std::vector<Seed>& seeds, const PipelineParams& params,
                                    const GrowVariant& variant, const RunControl& control)
{
    if (params.postfilter.enabled)
        throw InputError("a click returns the box maps of region growing; the postfilter " +
                         postfilterText(params.postfilter) + " needs the full maps (run the whole pipeline)");
    Prepared prepared = prepare(seeds, params, variant);
    Grown grown = grow(prepared, seeds, params, variant, control, Maps::Box);
    const LumaImage& image = *image_;
    ClickResult result;
    BoxMaps maps = grown.state->readBox(grown.run.finalSet, grown.run.box, seeds.size(), grown.run.iterations,
                                        grown.timings, 1, labelsFromStamps(seeds, variant));
    result.maps = inImage(std::move(maps), grown.window, image.width, image.height * image.depth);
    result.maps.depth = image.depth;
    if (state_ && grown.state == state_.get())
        state_->dropPreparedMemory();
    followFirstRun(grown, prepared.prefilterKey);
    result.hostMilliseconds = millisecondsSince(grown.start);
    describeRun(result, grown.run, variant);
    result.grownIn = {grown.window.x0, grown.window.y0, grown.window.width, grown.window.height};
    if (params.prefilter.kind != PrefilterSpec::Kind::None)
        result.filteredLuma = filtered_;
    result.kernels = std::move(grown.kernels);
    result.timings = grown.timings.records();
    return std::make_shared<const ClickResult>(std::move(result));
}

double DeviceSession::makeResident()
{
    const Clock::time_point start = Clock::now();
    const LumaImage& image = *image_;
    awaitBackground();
    if (!state_)
        state_ = makeState(device_, image);
    TimingLog timings;
    state_->setLuma(image.luma, &image.lumaBytes, prefilterText(PrefilterSpec{}), timings);
    // One region's box maps of the whole image: two bytes a stamp.
    state_->prepareReadBack(size_t(image.pixelCount()) * 2);
    device_.queue().finish();
    return millisecondsSince(start);
}

Footprint DeviceSession::footprint() const
{
    if (released_.valid())
        released_.wait();
    if (lumaUpload_.valid())
        lumaUpload_.wait();
    return state_ ? state_->footprint() : Footprint{};
}

} // namespace rgx
