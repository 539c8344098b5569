// Variant names, parsing, build options and device gating: the one place
// that knows what each axis choice means.
#include "Variant.h"
#include "Device.h"
#include "Errors.h"

#include <sstream>

namespace rgx {
namespace {

template <typename Enum>
struct Choice {
    Enum value;
    const char* name;
    const char* description;
};

const Choice<Driver> driverChoices[] = {
    {Driver::HostSync, "host-sync",
     "the host reads the frontier size after every iteration (OpenCL 1.2)"},
    {Driver::HostBatched, "host-batched",
     "the host enqueues many iterations without reading back; kernels stop themselves "
     "when the frontier is empty (OpenCL 1.2)"},
    {Driver::DeviceEnqueue, "device-enqueue",
     "the kernels enqueue the next iteration themselves with enqueue_kernel (OpenCL 2.0)"},
};
const Choice<Frontier> frontierChoices[] = {
    {Frontier::Queue, "queue", "a compacted list of frontier pixels"},
    {Frontier::Sweep, "sweep", "every iteration visits every pixel, reading a local tile"},
};
const Choice<Collectives> collectivesChoices[] = {
    {Collectives::Atomics, "atomics", "one global atomic per work-item"},
    {Collectives::Local, "local", "local-memory reduce and scan with barriers"},
    {Collectives::LocalNoBarrier, "local-nobarrier",
     "the local-memory reduce and scan with their barriers removed (wrong on purpose)"},
    {Collectives::Builtin, "builtin",
     "work_group_reduce_add, work_group_scan_exclusive_add, work_group_broadcast (OpenCL 2.0)"},
    {Collectives::Subgroup, "subgroup", "sub_group functions, combined in local memory"},
};
const Choice<Tile> tileChoices[] = {
    {Tile::None, "none", "no tile: the queue frontier reads neighbours from global memory"},
    {Tile::Async, "async",
     "async_work_group_copy of the tile and halo, a barrier between copies into the same buffer"},
    {Tile::AsyncNoBarrier, "async-nobarrier",
     "the async tile copies without the barrier between them (wrong on purpose)"},
    {Tile::Direct, "direct", "plain global loads of the neighbours"},
};
const Choice<Fusion> fusionChoices[] = {
    {Fusion::None, "none", "one iteration per kernel launch"},
    {Fusion::GridBarrier, "grid-barrier",
     "many iterations per launch: every work-group stays resident and they meet at a grid-wide "
     "barrier of global atomics between iterations (host-batched queue only; a roll call at the "
     "start checks that all work-groups run at once, else one iteration per launch)"},
    {Fusion::Tiles, "tiles",
     "many iterations per grid barrier: each work-group runs them inside a 32 x 32 tile in local "
     "memory, tiles exchange their borders at grid barriers (mode range, or one region; otherwise "
     "as grid-barrier, since the means change between iterations)"},
};

template <typename Enum, size_t N>
std::string nameOf(const Choice<Enum> (&choices)[N], Enum value)
{
    for (const auto& choice : choices)
        if (choice.value == value)
            return choice.name;
    return "?";
}

template <typename Enum, size_t N>
std::string descriptionOf(const Choice<Enum> (&choices)[N], Enum value)
{
    for (const auto& choice : choices)
        if (choice.value == value)
            return choice.description;
    return {};
}

template <typename Enum, size_t N>
Enum parseChoice(const Choice<Enum> (&choices)[N], const std::string& axis, const std::string& text)
{
    std::string names;
    for (const auto& choice : choices) {
        if (text == choice.name)
            return choice.value;
        names += (names.empty() ? "" : ", ") + std::string(choice.name);
    }
    throw InputError("unknown " + axis + " '" + text + "' in --variant (expected one of: " + names + ")");
}

} // namespace

bool GrowVariant::operator==(const GrowVariant& other) const
{
    return driver == other.driver && frontier == other.frontier &&
           collectives == other.collectives && tile == other.tile && fusion == other.fusion;
}

std::string GrowVariant::text() const
{
    std::string out = "driver=" + driverName(driver) + ",frontier=" + frontierName(frontier) +
                      ",collectives=" + collectivesName(collectives);
    if (frontier == Frontier::Sweep)
        out += ",tile=" + tileName(tile);
    if (fusion != Fusion::None)
        out += ",fusion=" + fusionName(fusion);
    return out;
}

std::string GrowVariant::shortText() const
{
    std::string out = driverName(driver) + "/" + frontierName(frontier) + "/" + collectivesName(collectives);
    if (frontier == Frontier::Sweep)
        out += "/" + tileName(tile);
    if (fusion != Fusion::None)
        out += "/" + fusionName(fusion);
    return out;
}

bool fusionApplies(Driver driver, Frontier frontier)
{
    return driver == Driver::HostBatched && frontier == Frontier::Queue;
}

bool GrowVariant::wrongOnPurpose() const
{
    return collectives == Collectives::LocalNoBarrier || tile == Tile::AsyncNoBarrier;
}

GrowVariant GrowVariant::correctTwin() const
{
    GrowVariant twin = *this;
    if (twin.collectives == Collectives::LocalNoBarrier)
        twin.collectives = Collectives::Local;
    if (twin.tile == Tile::AsyncNoBarrier)
        twin.tile = Tile::Async;
    return twin;
}

std::string GrowVariant::buildDefines() const
{
    std::ostringstream defines;
    switch (collectives) {
    case Collectives::Atomics: defines << " -DRGX_COLLECTIVES=0"; break;
    case Collectives::Local:
    case Collectives::LocalNoBarrier: defines << " -DRGX_COLLECTIVES=1"; break;
    case Collectives::Builtin: defines << " -DRGX_COLLECTIVES=2"; break;
    case Collectives::Subgroup: defines << " -DRGX_COLLECTIVES=3"; break;
    }
    defines << (tile == Tile::Async || tile == Tile::AsyncNoBarrier ? " -DRGX_TILE=1" : " -DRGX_TILE=0");
    // A wrong-on-purpose variant is its correct twin with one barrier macro emptied.
    if (collectives == Collectives::LocalNoBarrier)
        defines << " -D\"RGX_BARRIER(flags)=\"";
    if (tile == Tile::AsyncNoBarrier)
        defines << " -D\"RGX_TILE_BARRIER(flags)=\"";
    if (fusion != Fusion::None)
        defines << " -DRGX_FUSION=1"; // tiles falls back to grow_levels
    return defines.str();
}

GrowVariant parseVariant(const std::string& text)
{
    GrowVariant variant;
    bool tileGiven = false;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        if (item.empty())
            continue;
        const size_t equals = item.find('=');
        if (equals == std::string::npos)
            throw InputError("bad --variant entry '" + item + "' (expected axis=choice, e.g. driver=host-sync)");
        const std::string axis = item.substr(0, equals);
        const std::string value = item.substr(equals + 1);
        if (axis == "driver")
            variant.driver = parseChoice(driverChoices, axis, value);
        else if (axis == "frontier")
            variant.frontier = parseChoice(frontierChoices, axis, value);
        else if (axis == "collectives")
            variant.collectives = parseChoice(collectivesChoices, axis, value);
        else if (axis == "tile") {
            variant.tile = parseChoice(tileChoices, axis, value);
            tileGiven = true;
        } else if (axis == "fusion")
            variant.fusion = parseChoice(fusionChoices, axis, value);
        else
            throw InputError("unknown variant axis '" + axis +
                             "' (expected driver, frontier, collectives, tile or fusion)");
    }
    if (variant.frontier == Frontier::Sweep && !tileGiven)
        variant.tile = Tile::Async;
    if (variant.frontier == Frontier::Sweep && variant.tile == Tile::None)
        throw InputError("tile=none applies to frontier=queue only; sweep takes async, "
                         "async-nobarrier or direct");
    if (variant.frontier == Frontier::Queue && tileGiven && variant.tile != Tile::None)
        throw InputError("tile=" + tileName(variant.tile) +
                         " applies to frontier=sweep only (the queue frontier has no tile)");
    if (variant.fusion != Fusion::None && !fusionApplies(variant.driver, variant.frontier))
        throw InputError("fusion=" + fusionName(variant.fusion) +
                         " applies to driver=host-batched with frontier=queue only "
                         "(host-sync reads back after every iteration; the device chain and the sweep "
                         "launch one iteration at a time)");
    if (variant.fusion == Fusion::Tiles && variant.collectives == Collectives::LocalNoBarrier)
        throw InputError("fusion=tiles does not take collectives=local-nobarrier: where it grows by "
                         "tiles there is no scan whose barriers could be left out");
    return variant;
}

std::optional<std::string> whyUnavailable(const GrowVariant& variant, const DeviceInfo& device)
{
    // OpenCL 3.0 made these features optional: a 3.0 device may lack them.
    const std::string has = "this device has " + device.openClCVersion +
                            (device.openClCMajor >= 3 ? " without that feature" : "");
    if (variant.collectives == Collectives::Builtin && !device.workGroupCollectives)
        return "needs work-group collective functions (OpenCL C 2.0, or the 3.0 feature "
               "__opencl_c_work_group_collective_functions); " + has;
    if (variant.collectives == Collectives::Subgroup && !device.subgroups)
        return "needs subgroups (OpenCL C 2.0 with cl_khr_subgroups, or the 3.0 feature "
               "__opencl_c_subgroups); " + has;
    if (variant.driver == Driver::DeviceEnqueue && !device.deviceEnqueue)
        return "needs device-side enqueue (OpenCL C 2.0, or the 3.0 feature "
               "__opencl_c_device_enqueue); " + has;
    return std::nullopt;
}

namespace {

bool isGpu(const DeviceInfo& device)
{
    return device.type.find("GPU") != std::string::npos && device.takesCallsFromOtherThreads();
}

} // namespace

GrowVariant fastestVariantOn(const DeviceInfo& device)
{
    if (isGpu(device)) {
        GrowVariant tiles;
        tiles.fusion = Fusion::Tiles;
        if (!whyUnavailable(tiles, device))
            return tiles;
    }
    return GrowVariant{};
}

std::string whyFastestOn(const DeviceInfo& device)
{
    if (fastestVariantOn(device).fusion == Fusion::Tiles)
        return "on a GPU a launch costs microseconds: the tile driver runs many levels per launch "
               "(H100: a resident click on 4096 x 4096 in 0.1 to 0.5 ms)";
    if (!device.takesCallsFromOtherThreads())
        return "a simulator: every variant is slow here; the default one is the simplest to follow";
    return "on a CPU runtime a launch costs little: host-batched with the queue frontier was as fast or faster "
           "than the tile driver in the click script wherever regions met or a range widened";
}

std::vector<GrowVariant> allVariants()
{
    std::vector<GrowVariant> variants;
    for (const auto& driver : driverChoices)
        for (const auto& frontier : frontierChoices)
            for (const auto& collectives : collectivesChoices)
                for (const auto& tile : tileChoices) {
                    const bool sweep = frontier.value == Frontier::Sweep;
                    if (sweep == (tile.value == Tile::None))
                        continue;
                    variants.push_back({driver.value, frontier.value, collectives.value, tile.value});
                    if (!fusionApplies(driver.value, frontier.value))
                        continue;
                    variants.push_back({driver.value, frontier.value, collectives.value, tile.value,
                                        Fusion::GridBarrier});
                    if (collectives.value != Collectives::LocalNoBarrier)
                        variants.push_back({driver.value, frontier.value, collectives.value, tile.value,
                                            Fusion::Tiles});
                }
    return variants;
}

std::vector<Fusion> fusionValues()
{
    std::vector<Fusion> values;
    for (const auto& choice : fusionChoices)
        values.push_back(choice.value);
    return values;
}

std::string driverName(Driver value) { return nameOf(driverChoices, value); }
std::string frontierName(Frontier value) { return nameOf(frontierChoices, value); }
std::string collectivesName(Collectives value) { return nameOf(collectivesChoices, value); }
std::string tileName(Tile value) { return nameOf(tileChoices, value); }
std::string fusionName(Fusion value) { return nameOf(fusionChoices, value); }
std::string describe(Driver value) { return descriptionOf(driverChoices, value); }
std::string describe(Frontier value) { return descriptionOf(frontierChoices, value); }
std::string describe(Collectives value) { return descriptionOf(collectivesChoices, value); }
std::string describe(Tile value) { return descriptionOf(tileChoices, value); }
std::string describe(Fusion value) { return descriptionOf(fusionChoices, value); }

} // namespace rgx
