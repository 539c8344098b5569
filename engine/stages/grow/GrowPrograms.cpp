// Build options and launch shapes of the region-growing programs, and the
// grid of the fused launches.
#include "GrowPrograms.h"
#include "Result.h"
#include "Device.h"
#include "stages/GrowState.h"
#include "stages/RegionGrowing.h"
#include "stages/StageSupport.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace rgx {
namespace {

constexpr const char* levelProgram = "region_growing.cl";
constexpr const char* tileProgram = "grow_tiles.cl";
constexpr const char* sessionProgram = "grow_session.cl";
constexpr const char* brickProgram = "grow_bricks.cl";

using stage::largestPowerOfTwoAtMost;

std::string levelBuildOptions(const GrowVariant& variant, const DeviceInfo& device, const grow::LevelGeometry& geometry)
{
    const bool deviceEnqueue = variant.driver == Driver::DeviceEnqueue;
    const bool needsTwoPointZero = variant.collectives == Collectives::Builtin ||
                                   variant.collectives == Collectives::Subgroup || deviceEnqueue;
    const size_t sweepGroup = geometry.tileWidth * geometry.tileHeight;
    std::ostringstream options;
    options << device.openClCStandardOption(needsTwoPointZero)
            << " -DRGX_WG_SIZE=" << (variant.frontier == Frontier::Queue ? geometry.workGroup : sweepGroup)
            << " -DRGX_TILE_W=" << geometry.tileWidth << " -DRGX_TILE_H=" << geometry.tileHeight
            << variant.buildDefines();
    if (geometry.volume)
        options << " -DRGX_NEIGHBOURS=26";
    if (variant.fusion != Fusion::None)
        options << gridBarrierOptions(device);
    // An NVIDIA GPU loads a candidate's neighbours at once
    // (region_growing.cl: its volatile loads skip the L1 cache,
    // ../shared/GPU-NOTES.md); the CPU runtimes and Oclgrind (whose device
    // says GPU too) keep the atomic reads the race check wants. Tests take
    // the GPU's reads on every device: RGX_TEST_SPECULATIVE_READS=1.
    const char* speculative = std::getenv("RGX_TEST_SPECULATIVE_READS");
    if ((device.type == "GPU" && device.isNvidia()) || (speculative && std::atoi(speculative) > 0))
        options << " -DRGX_SPECULATIVE_READS=1";
    // In volumes the same GPUs load a neighbour's stamp before they claim
    // it (H200, 512^3: whole volume 55.4 -> 52.8 ms of kernel time, 64 seeds
    // 72.1 -> 65.4); in images that cost 4096² with 64 seeds in mode range
    // 5 % (61.7 -> 64.7 ms), so images claim straight away. RGX_PRE_READ=0
    // or 1 overrides it on any device (the bench's A/B, tests).
    const char* preRead = std::getenv("RGX_PRE_READ");
    if (preRead ? std::atoi(preRead) > 0 : (geometry.volume && device.type == "GPU" && device.isNvidia()))
        options << " -DRGX_PRE_READ=1";
    if (deviceEnqueue)
        options << " -DRGX_DEVICE_ENQUEUE=1 -DRGX_FRONTIER_SWEEP=" << (variant.frontier == Frontier::Sweep ? 1 : 0);
    return options.str();
}

// The bitmap step (one work-item per tile row) where every classified
// pixel's label follows from its luma, the per-pixel step otherwise; on
// GPUs, the bitmap step's options (kernels/tile_step_bits.h, docs/PERFORMANCE.md
// for the H100's figures):
// - a tile's rows read with vector loads where the width allows (part of
//   4096² ±100 0.587 -> 0.503 ms of kernel time; PoCL and Intel's runtime
//   were 15 to 25 % slower with them on 2048² whole images); elsewhere 8
//   rows read before the first is used (a one-tile run 20 % shorter than
//   with 1 row, 7 % than with 32); a CPU reads one row at a time;
// - a step stops after 32 levels in a round of few tiles, whose rounds wait
//   for their slowest tile (4096² ±100 0.538 -> 0.503 ms, 8192² ±100 4 %
//   slower, wide fronts within 1 %); CPUs, with a few work-groups, have no
//   thin rounds.
// Tests take the row reads on every device, and stop every round's steps
// early: RGX_TEST_TILE_STEP_LEVELS=n.
// Whether an open tile or brick takes its sweeps (tile_step_bits.h,
// grow_bricks.cl): not on PoCL, whose compiler took 46 s over grow_tiles with
// them and 15 s without (a first run would wait for it), nor where tests and
// the bench's A/B take the levels: RGX_TEST_NO_SWEEPS=1.
bool takesSweeps(const DeviceInfo& device)
{
    const char* noSweeps = std::getenv("RGX_TEST_NO_SWEEPS");
    return !device.isPocl() && !(noSweeps && std::atoi(noSweeps) == 1);
}

std::string tileBuildOptions(const DeviceInfo& device, size_t workGroup, grow::TileStep step)
{
    const bool bits = step != grow::TileStep::Pixels;
    std::string options = device.openClCStandardOption(false) + " -DRGX_WG_SIZE=" + std::to_string(workGroup) +
                          " -DRGX_TILE_SIDE=" + std::to_string(growTileSide) + " -DRGX_TILE_BITS=" + (bits ? "1" : "0");
    if (step == grow::TileStep::BitsApart)
        options += " -DRGX_TILE_APART=1";
    if (step == grow::TileStep::Ring)
        options += " -DRGX_TILE_RING=" + std::to_string(grow::ringLevels) +
                   (grow::ringGoesOnAlone(device) ? " -DRGX_RING_ALONE=1" : "");
    const bool gpu = device.type == "GPU";
    const char* test = std::getenv("RGX_TEST_TILE_STEP_LEVELS");
    const int testLevels = test ? std::atoi(test) : 0;
    if (bits && gpu)
        options += " -DRGX_TILE_READ_AHEAD=8";
    if (bits && (gpu || testLevels > 0))
        options += " -DRGX_TILE_ROW_VECTORS=1";
    if (bits && testLevels > 0)
        options += " -DRGX_TILE_STEP_LEVELS=" + std::to_string(testLevels) + " -DRGX_TILE_THIN_ROUND=0";
    else if (bits && gpu)
        options += " -DRGX_TILE_STEP_LEVELS=32";
    if (bits && !takesSweeps(device))
        options += " -DRGX_TILE_SWEEPS=0";
    // Where a round's time goes (kernels/tile_profile.h): NVIDIA GPUs, for the bench.
    if (grow::profilesTiles(device))
        options += " -DRGX_PROFILE_TILES=1";
    return options + gridBarrierOptions(device);
}

} // namespace

// How long a work-group waits at the roll call and at a grid barrier before
// it gives up, in reads of a global word: a GPU's read takes about a
// microsecond, a CPU's a nanosecond, and a CPU thread may be descheduled for
// a good part of a second on a busy machine.
std::string gridBarrierOptions(const DeviceInfo& device)
{
    // Tests force a stall: RGX_TEST_STALL_AT_BARRIER=n makes work-group 1
    // late at the n-th grid barrier of a launch, and the others give up soon.
    if (const char* stall = std::getenv("RGX_TEST_STALL_AT_BARRIER"); stall && std::atoi(stall) > 0)
        return " -DRGX_TEST_LATE_GROUP=" + std::to_string(std::atoi(stall)) + " -DRGX_BARRIER_SPINS=(1u<<16)";
    return device.type == "GPU" ? std::string() : " -DRGX_ROLL_CALL_SPINS=(1u<<27) -DRGX_BARRIER_SPINS=(1u<<31)";
}

// Work-groups for a fused launch: few enough that all can be resident at
// once (the roll call checks it), enough to keep every compute unit busy;
// two per compute unit on a GPU to hide latency. One compute unit
// (Oclgrind) gets one work-group: its race detector then sees the
// work-group's side of the kernel, the only side the OpenCL 1.2 memory
// model speaks about.
size_t fusedGroupCount(const DeviceInfo& info)
{
    const size_t units = std::max<size_t>(1, info.computeUnits);
    return units == 1 ? 1 : units * (info.type == "GPU" ? 2 : 1);
}

const BuiltProgram& sessionKernels(ComputeDevice& device)
{
    return device.programs().get(sessionProgram, device.info().openClCStandardOption(false) + " -DRGX_WG_SIZE=256" +
                                                     " -DRGX_PACK_AT_ONCE=" + std::to_string(packAtOnce) +
                                                     " -DRGX_NARROW_RUN=" + std::to_string(BoxMaps::narrowRun) +
                                                     " -DRGX_NARROW_WIDE=" + std::to_string(BoxMaps::narrowWide) +
                                                     "u -DRGX_NARROW_AT_ONCE=" + std::to_string(narrowAtOnce));
}

namespace grow {
namespace {

// The ring step's work-group (kernels/tile_step_ring.h): four work-items
// for each of the copy's 64 rows, and its local memory with some spare.
constexpr size_t ringWorkGroup = 256;
constexpr uint64_t ringLocalBytes = 24 * 1024;
static_assert(growTileSide + 2 * ringLevels == 64, "the ring step's copy is 64 pixels a side");

// An NVIDIA GPU by its vendor, whose driver takes the tile steps' inline
// PTX (warp shuffles, L2 loads, the profile's cycle counter).
bool nvidiaGpu(const DeviceInfo& info)
{
    return info.type == "GPU" && info.vendor.find("NVIDIA") != std::string::npos;
}

} // namespace

GrowVariant levelVariant(GrowVariant variant)
{
    if (variant.fusion == Fusion::Tiles)
        variant.fusion = Fusion::GridBarrier;
    return variant;
}

const BuiltProgram& levelKernels(ComputeDevice& device, const GrowVariant& variant, LevelGeometry& geometry)
{
    const DeviceInfo& info = device.info();
    geometry.workGroup = largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    while (geometry.tileWidth * geometry.tileHeight > info.maxWorkGroupSize && geometry.tileHeight > 1)
        geometry.tileHeight /= 2;
    const std::string kernelName = variant.frontier == Frontier::Queue ? "grow_queue" : "grow_sweep";
    ProgramCache& programs = device.programs();
    const BuiltProgram* built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
    for (const KernelReport& report : built->kernels) {
        if (report.kernel != kernelName || report.workGroupSizeLimit == 0)
            continue;
        if (variant.frontier == Frontier::Queue && report.workGroupSizeLimit < geometry.workGroup) {
            geometry.workGroup = largestPowerOfTwoAtMost(report.workGroupSizeLimit);
            built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
        } else if (variant.frontier == Frontier::Sweep &&
                   report.workGroupSizeLimit < geometry.tileWidth * geometry.tileHeight) {
            while (geometry.tileWidth * geometry.tileHeight > report.workGroupSizeLimit && geometry.tileHeight > 1)
                geometry.tileHeight /= 2;
            built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
        }
    }
    return *built;
}

const BuiltProgram& brickKernels(ComputeDevice& device)
{
    return device.programs().get(brickProgram, device.info().openClCStandardOption(false) + " -DRGX_NEIGHBOURS=26" +
                                                   gridBarrierOptions(device.info()) +
                                                   (takesSweeps(device.info()) ? "" : " -DRGX_BRICK_SWEEPS=0"));
}

const BuiltProgram& labelLevelKernels(ComputeDevice& device, bool volume)
{
    return device.programs().get("label_levels.cl", device.info().openClCStandardOption(false) +
                                                         (volume ? " -DRGX_NEIGHBOURS=26" : " -DRGX_NEIGHBOURS=8") +
                                                         " -DRGX_WG_SIZE=" +
                                                         std::to_string(labelLevelGroup) +
                                                         gridBarrierOptions(device.info()));
}

size_t labelPassGroups(const DeviceInfo& info)
{
    return std::max<size_t>(1, fusedGroupCount(info) * (info.type == "GPU" ? 4 : 1));
}

bool labelsFixed(const GrowParams& params, size_t regions)
{
    return regions == 1 || (params.mode == Mode::Range && params.rule == Rule::All) ||
           labelsInSecondPass(params, regions);
}

TileStep tileStep(const GrowParams& params, const std::vector<uint32_t>& seedLuma, const DeviceInfo& info)
{
    if (labelsFixed(params, seedLuma.size()))
        return TileStep::Bits;
    // Tests take the steps of devices whose work-groups cannot take the
    // ring step's: RGX_TEST_NO_RING=1.
    const char* test = std::getenv("RGX_TEST_NO_RING");
    const bool ring = info.maxWorkGroupSize >= ringWorkGroup && info.localMemoryBytes >= ringLocalBytes &&
                      !(test && std::atoi(test) == 1);
    if (ring)
        return TileStep::Ring;
    return rangesApart(params, seedLuma) ? TileStep::BitsApart : TileStep::Pixels;
}

bool profilesTiles(const DeviceInfo& info)
{
    const char* profile = std::getenv("RGX_TEST_PROFILE_TILES");
    return profile && std::atoi(profile) == 1 && nvidiaGpu(info);
}

bool ringGoesOnAlone(const DeviceInfo& info)
{
    const char* forced = std::getenv("RGX_TEST_RING_ALONE_FROM");
    return info.type == "GPU" || (forced && std::atoi(forced) > 0);
}

bool rangesApart(const GrowParams& params, const std::vector<uint32_t>& seedLuma)
{
    if (seedLuma.size() < 2 || params.mode != Mode::Range || params.rule != Rule::Adjacent)
        return false;
    // Each range as the lumas it holds ([0, 65535] bounds every image's).
    std::vector<std::pair<int64_t, int64_t>> ranges;
    ranges.reserve(seedLuma.size());
    for (const uint32_t seed : seedLuma)
        ranges.emplace_back(std::max<int64_t>(0, int64_t(seed) - int64_t(params.lower)),
                            std::min<int64_t>(0xFFFF, int64_t(seed) + int64_t(params.upper)));
    std::sort(ranges.begin(), ranges.end());
    for (size_t k = 1; k < ranges.size(); ++k)
        if (ranges[k].first <= ranges[k - 1].second)
            return false;
    return true;
}

bool labelsInSecondPass(const GrowParams& params, size_t regions)
{
    return regions > 1 && params.mode == Mode::Competitive && params.rule == Rule::Adjacent;
}

const BuiltProgram& tileKernels(ComputeDevice& device, TileStep& step, size_t& workGroup)
{
    const DeviceInfo& info = device.info();
    ProgramCache& programs = device.programs();
    if (step == TileStep::Ring) {
        workGroup = ringWorkGroup;
        const std::string options = tileBuildOptions(info, workGroup, step);
        // On an NVIDIA GPU the copy's stamps are read four at a time from L2
        // (kernels/tile_step_ring.h), unless the driver refuses the inline PTX.
        const BuiltProgram* built = nullptr;
        if (nvidiaGpu(info))
            built = programs.tryGet(tileProgram, options + " -DRGX_L2_PTX=1");
        if (!built)
            built = &programs.get(tileProgram, options);
        const size_t limit = stage::workGroupLimit(*built, "grow_tiles");
        if (limit == 0 || limit >= ringWorkGroup)
            return *built;
        step = TileStep::Pixels;
    }
    if (step != TileStep::Pixels) {
        workGroup = growTileSide;
        const std::string options = tileBuildOptions(info, workGroup, step);
        // On an NVIDIA GPU the group of 32 is one warp: its rows meet through
        // the warp's shuffles (kernels/tile_rows.h), and it reads other
        // tiles' words from L2 (kernels/l2_loads.h), unless the driver
        // refuses the inline PTX; then through local memory, as elsewhere.
        if (nvidiaGpu(info))
            if (const BuiltProgram* warp = programs.tryGet(tileProgram, options + " -DRGX_WARP_PTX=1 -DRGX_L2_PTX=1"))
                return *warp;
        return programs.get(tileProgram, options);
    }
    workGroup = largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    const BuiltProgram* built = &programs.get(tileProgram, tileBuildOptions(info, workGroup, step));
    const size_t limit = stage::workGroupLimit(*built, "grow_tiles");
    if (limit != 0 && limit < workGroup) {
        workGroup = largestPowerOfTwoAtMost(limit);
        built = &programs.get(tileProgram, tileBuildOptions(info, workGroup, step));
    }
    return *built;
}

} // namespace grow
} // namespace rgx
