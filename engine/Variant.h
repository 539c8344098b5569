// A region-growing variant is one choice on each axis of DESIGN.md. It is
// data: one function turns it into build options, one says whether a device
// can run it and, if not, why.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo;

enum class Driver { HostSync, HostBatched, DeviceEnqueue };
enum class Frontier { Queue, Sweep };
enum class Collectives { Atomics, Local, LocalNoBarrier, Builtin, Subgroup };
enum class Tile { None, Async, AsyncNoBarrier, Direct }; // None: queue frontier
// How many iterations one launch runs: one (None); as many as the host
// allows with every work-group meeting at a grid-wide barrier in between
// (GridBarrier); or many per grid barrier, run inside tiles in local memory
// where no decision depends on a mean (Tiles: mode range, or one region;
// otherwise as GridBarrier). Host-batched queue only.
enum class Fusion { None, GridBarrier, Tiles };

struct GrowVariant {
    Driver driver = Driver::HostBatched;
    Frontier frontier = Frontier::Queue;
    Collectives collectives = Collectives::Atomics;
    Tile tile = Tile::None;
    Fusion fusion = Fusion::None;

    bool operator==(const GrowVariant& other) const;
    bool operator!=(const GrowVariant& other) const { return !(*this == other); }

    // "driver=host-batched,frontier=queue,collectives=atomics" (tile only for
    // sweep, fusion only where it is not none).
    std::string text() const;
    // The same choices without the axis names, for labels and tables:
    // "host-batched/queue/atomics".
    std::string shortText() const;
    // Wrong on purpose: a barrier left out so that the damage can be seen.
    bool wrongOnPurpose() const;
    // The same variant with the barrier put back (itself when it is correct).
    GrowVariant correctTwin() const;
    // The -D options that specialise the kernels for this variant.
    std::string buildDefines() const;
};

// Whether the fusion axis applies: several iterations per launch exist for
// the host-batched queue only.
bool fusionApplies(Driver driver, Frontier frontier);
// The fusion choices, in order (for lists).
std::vector<Fusion> fusionValues();

// Parses "driver=..,frontier=..,collectives=..,tile=..,fusion=.."; axes left out keep
// their defaults; tile defaults to async for sweep. Throws InputError.
GrowVariant parseVariant(const std::string& text);

// Why the device cannot run the variant, in words a user understands;
// nullopt when it can.
std::optional<std::string> whyUnavailable(const GrowVariant& variant, const DeviceInfo& device);

// The variant the explorer opens on for a device until the user chooses one:
// the fastest correct one measured there (docs/PERFORMANCE.md, "The
// explorer's default variant"). On GPUs the tile driver (fusion=tiles: many
// levels per launch, where a launch costs microseconds); on CPU runtimes
// host-batched with the queue frontier, which was as fast or faster in the
// click script wherever two regions met or a range widened, where a launch
// costs little and tile rounds go level by level. Simulators get the default.
GrowVariant fastestVariantOn(const DeviceInfo& device);
// Why, in one line for the variant panel.
std::string whyFastestOn(const DeviceInfo& device);

// Every variant of the axes (in a stable order), and the names per axis.
std::vector<GrowVariant> allVariants();
std::string driverName(Driver value);
std::string frontierName(Frontier value);
std::string collectivesName(Collectives value);
std::string tileName(Tile value);
std::string fusionName(Fusion value);

// One line on what a choice teaches, for lists and tooltips.
std::string describe(Driver value);
std::string describe(Frontier value);
std::string describe(Collectives value);
std::string describe(Tile value);
std::string describe(Fusion value);

} // namespace rgx
