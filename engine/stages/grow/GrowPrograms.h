// The programs of region growing and the launch shapes they were built
// for: the session steps every run shares (kernels/grow_session.cl), the
// level program (kernels/region_growing.cl) and the tile program
// (kernels/grow_tiles.cl), each built once per device and options.
#pragma once

#include "GrowParams.h"
#include "ProgramCache.h"
#include "Variant.h"
#include <cstddef>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;
struct DeviceInfo;

// The program of the steps every run shares (kernels/grow_session.cl).
const BuiltProgram& sessionKernels(ComputeDevice& device);
// Columns of a row a work-item of summarize and pack_maps reads before it
// uses them (PACK_AT_ONCE in that program; pack_maps' grid is sized by it).
constexpr size_t packAtOnce = 4;
// Runs of a box row a work-group of pack_narrow packs at a time
// (RGX_NARROW_AT_ONCE; kernels/narrow_stamps.h).
constexpr size_t narrowAtOnce = 4;

// Work-groups of a fused launch (grid-barrier, tiles) on this device, and
// the build options of a program with a grid barrier (its waits).
size_t fusedGroupCount(const DeviceInfo& device);
std::string gridBarrierOptions(const DeviceInfo& device);

} // namespace rgx

namespace rgx::grow {

// The launch shape of the level kernels.
struct LevelGeometry {
    size_t workGroup = 256;   // grow_queue, grow_levels
    size_t tileWidth = 16;    // grow_sweep
    size_t tileHeight = 16;
    bool volume = false;      // 26 neighbours at most (kernels/grow_common.h), else 8
};

// The variant the level drivers run: fusion=tiles falls back to grid-barrier.
GrowVariant levelVariant(GrowVariant variant);

// The level program of a variant, with the largest work-group its kernel
// takes on the device (a kernel may fit fewer work-items than the device:
// registers; then the sizes shrink and it is built again).
const BuiltProgram& levelKernels(ComputeDevice& device, const GrowVariant& variant, LevelGeometry& geometry);

// One region, or rule all in mode range: a classified pixel's label
// depends on its own luma only (grow_tiles.cl's bitmap step); or the labels
// are found in a second pass (labelsInSecondPass) and the step finds the
// stamps alone.
bool labelsFixed(const GrowParams& params, size_t regions);

// Mode range under rule adjacent with several regions, where no luma lies
// in two seeds' ranges: a pixel can only join the one region whose range
// holds it, from that region's pixels, so each region is the flood of its
// seed inside its range, whatever the others do (docs/VARIANTS.md).
bool rangesApart(const GrowParams& params, const std::vector<uint32_t>& seedLuma);

// Several regions in mode competitive under rule adjacent: every candidate
// is accepted, so the stamps are the distances from the nearest seed and
// the tiles or bricks find them as for one region; a second pass
// (labelLevels) finds the labels level by level (docs/VARIANTS.md).
bool labelsInSecondPass(const GrowParams& params, size_t regions);

// How grow_tiles grows a tile: by the bitmap step with one work-item per
// tile row where every classified pixel's label follows from its luma
// (labelsFixed); otherwise (several regions of mode range under rule
// adjacent) by the ring step, ringLevels exact levels a round from a copy
// of the tile with a ring. Where the device cannot take the ring step's
// work-group (256 work-items, about 21 KiB of local memory): the bitmap
// step with one pass per region where the regions' ranges fall apart
// (rangesApart), else per pixel in windows of levels.
enum class TileStep { Pixels, Bits, BitsApart, Ring };
constexpr uint32_t ringLevels = 16;
// Whether a ring step's run whose other regions have stopped goes on as the
// one region's by the bitmap step (kernels/tile_step_bits.h, `alone`): on
// GPUs, where it was measured, and wherever tests ask for it
// (RGX_TEST_RING_ALONE_FROM=n: at every round of n tiles or more). On a CPU
// runtime it would build the bitmap program beside the ring's for every such
// run (PoCL: about 25 s more the first time, and the ring's noting code 7 to
// 12 s more) for a gain nobody has measured there.
bool ringGoesOnAlone(const DeviceInfo& info);
// Whether the tile steps note where a round's time goes (kernels/tile_profile.h):
// RGX_TEST_PROFILE_TILES=1 on an NVIDIA GPU (its cycle counter is read in
// inline PTX). TiledDriver prints the phases on stderr after each run.
bool profilesTiles(const DeviceInfo& info);
// The step of a run whose seeds have the luma `seedLuma`.
TileStep tileStep(const GrowParams& params, const std::vector<uint32_t>& seedLuma, const DeviceInfo& info);

// The tile program of a step; the per-pixel step with the largest
// work-group grow_tiles takes. A ring step whose kernel cannot take its
// work-group becomes the per-pixel step (`step` says which was built).
const BuiltProgram& tileKernels(ComputeDevice& device, TileStep& step, size_t& workGroup);

// The brick program of volumes (kernels/grow_bricks.cl).
const BuiltProgram& brickKernels(ComputeDevice& device);
// The label pass of a competitive run of several regions in tiles or
// bricks (kernels/label_levels.cl), built for work-groups of labelLevelGroup.
constexpr size_t labelLevelGroup = 256;
// The most regions its single launch keeps in a work-group's local memory
// (LOCAL_REGIONS in label_levels.cl); more go two launches a level.
constexpr size_t labelLevelLocalRegions = 256;
// `volume`: for 26 neighbours at most, else 8.
const BuiltProgram& labelLevelKernels(ComputeDevice& device, bool volume);
// Work-groups of labelLevelGroup for the label pass's kernels that take
// every voxel in steps of the launch (seed_distances, largest_stamp,
// count_stamps, bucket_stamps): four fused grids' worth on a GPU.
size_t labelPassGroups(const DeviceInfo& info);

} // namespace rgx::grow
