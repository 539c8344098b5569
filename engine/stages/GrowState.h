// The device memory of region growing on one image, kept between runs by a
// resident session (engine/DeviceSession.h): the luma, the label and stamp
// maps, the frontier queues or tile lists, the per-region words and the
// counters. Buffers are made on first need and reused; a run resets only the
// rows the previous run touched. The read-back goes through pinned host
// memory that is recycled once no result refers to it; a large one that
// finds none free goes to pageable memory while a pinned block is made on
// another thread for the next (pinning costs more than that read).
#pragma once

#include "OpenCl.h"
#include "Result.h"
#include "Variant.h"
#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

// Side of the square tiles of fusion=tiles (kernels/grow_tiles.cl), and of
// the cubic bricks it grows volumes in (kernels/grow_bricks.cl).
constexpr int growTileSide = 32;
constexpr int growBrickSide = 8;
inline int brickCountAlong(int voxels) { return (voxels + growBrickSide - 1) / growBrickSide; }

// Regions the per-region buffers hold for a run with `regions` seeds: room
// for twice as many, so that adding seeds one click at a time reallocates
// rarely.
inline size_t regionCapacityFor(size_t regions) { return regions * 2 > 64 ? regions * 2 : 64; }

// A box of pixels, x0 y0 x1 y1 inclusive, in each of the slices z0 to z1
// of a volume (y a row within a slice; an image is slice 0 alone); empty
// when x0 > x1.
struct PixelBox {
    uint32_t x0 = 1, y0 = 1, x1 = 0, y1 = 0, z0 = 0, z1 = 0;
    bool empty() const { return x0 > x1 || y0 > y1 || z0 > z1; }
    uint64_t pixels() const
    {
        return empty() ? 0 : uint64_t(x1 - x0 + 1) * uint64_t(y1 - y0 + 1) * uint64_t(z1 - z0 + 1);
    }
    bool operator==(const PixelBox& other) const
    {
        return x0 == other.x0 && y0 == other.y0 && x1 == other.x1 && y1 == other.y1 && z0 == other.z0 &&
               z1 == other.z1;
    }
};

// Bytes held by a session for a W x H image with K regions (docs/PERFORMANCE.md,
// "Device memory", states the formula; growStateBytes computes it).
struct Footprint {
    uint64_t deviceBytes = 0;
    uint64_t hostBytes = 0;   // pinned read-back memory
};

// Where a state's pixels lie in an image's full maps: at (x0, y0) of an
// image `width` pixels wide (0: the state's own width).
struct MapPlacement {
    int x0 = 0;
    int y0 = 0;
    int width = 0;
};

class GrowState {
public:
    // How read-backs use host memory: recycled pinned blocks, or (for a
    // state used for one run) ordinary memory: on the H100 making and
    // mapping a small pinned block took a first click 1.5 ms.
    enum class HostMemory { Recycled, OneRun };
    // A volume's maps are its slices one below the other: `height` rows of
    // slices of `sliceHeight` rows each (0: an image, one slice).
    GrowState(ComputeDevice& device, int width, int height, HostMemory hostMemory = HostMemory::Recycled,
              int sliceHeight = 0);
    ~GrowState();
    GrowState(const GrowState&) = delete;
    GrowState& operator=(const GrowState&) = delete;

    ComputeDevice& device() { return device_; }
    int width() const { return width_; }
    int height() const { return height_; } // rows of all slices
    int sliceHeight() const { return sliceHeight_; }
    bool isVolume() const { return sliceHeight_ != height_; }
    int depth() const { return height_ / sliceHeight_; }
    // Every pixel of every slice.
    PixelBox whole() const
    {
        return {0, 0, uint32_t(width_ - 1), uint32_t(sliceHeight_ - 1), 0, uint32_t(depth() - 1)};
    }
    uint64_t pixelCount() const { return uint64_t(width_) * uint64_t(height_); }
    int tilesX() const { return (width_ + growTileSide - 1) / growTileSide; }
    int tilesY() const { return (height_ + growTileSide - 1) / growTileSide; }
    // The tiles of fusion=tiles: 2D tiles of an image, bricks of a volume.
    size_t tileCount() const
    {
        if (!isVolume())
            return size_t(tilesX()) * size_t(tilesY());
        return size_t(brickCountAlong(width_)) * size_t(brickCountAlong(sliceHeight_)) *
               size_t(brickCountAlong(height_ / sliceHeight_));
    }

    // The luma the regions grow on, uploaded when `key` (the image and its
    // prefilter) differs from the one on the device. True when it uploaded.
    // `bytes`, where not null, holds the same lumas a byte each
    // (LumaImage::lumaBytes): those cross the bus, and widen_luma
    // (kernels/grow_session.cl) widens them on the device.
    bool setLuma(const std::vector<uint16_t>& luma, const std::vector<uint8_t>* bytes, const std::string& key,
                 TimingLog& timings);
    // A window's luma: the rectangle of this state's size at (x0, y0) of an
    // image `imageWidth` pixels wide, uploaded as one rectangle.
    void setLumaWindow(const std::vector<uint16_t>& imageLuma, int imageWidth, int x0, int y0,
                       TimingLog& timings);
    // The same upload made on another thread while this state is not used
    // (DeviceSession, after a first run in a window): through its own queue,
    // returning when it is done. Throws cl::Error.
    void uploadLuma(const std::vector<uint16_t>& luma, const std::vector<uint8_t>* bytes, const std::string& key);
    // The largest luma the device's may hold: 255 where it was sent a byte
    // each (every luma fits), else 65535.
    uint32_t lumaLimit() const { return lumaLimit_; }

    // What the start of a run resets (start_run in kernels/grow_session.cl):
    // the pixels the previous run touched (everywhere the first time, or
    // after a run that failed), the words of the tile marks and of the
    // region totals.
    struct RunStart {
        PixelBox reset; // empty: nothing to reset
        size_t markWords = 0;
        size_t statWords = 0;
    };
    // Host memory for a first large read-back of `bytes` at most, its pages
    // touched on other threads while the device works: fresh memory costs
    // the H100's host about 0.46 ms per MiB in page faults (a 4096 x 4096
    // box: 22 ms), a read into touched memory 0.07.
    void prepareHostMemory(size_t bytes);
    // Before any run (DeviceSession::makeResident): that memory, and on a
    // GPU a pinned block of `bytes` made on another thread, so that the
    // first two large read-backs find memory ready.
    void prepareReadBack(size_t bytes);
    // That memory goes once its read is over and did not need it (waits
    // for nothing: memory still being touched goes at a later call).
    void dropPreparedMemory();

    // The per-region buffers and the pinned read-back words for `regions`
    // seeds (prepareRun makes them too); the read-back words in ordinary
    // memory until pinned ones, made on another thread, take over at the
    // start of a later run.
    void reserveRegions(size_t regions);

    // Makes the buffers a run of this variant with `regions` seeds needs and
    // says what must be reset before it starts.
    RunStart prepareRun(const GrowVariant& variant, bool tiles, size_t regions);
    // Where the finished run's classified pixels are: reset by the next run.
    void finishRun(const PixelBox& classified) { dirty_ = classified; failed_ = false; }
    // A run that stopped half-way leaves the maps unknown: reset them all.
    void markFailed()
    {
        failed_ = true;
        heldSeedPixels_.clear();
    }
    // Whether seedPixels holds `pixels` already (the seeds of the last run,
    // when a run changes only its range, mode or rule): then the run skips
    // their upload, a command that costs NVIDIA's driver 10 to 20 us of host
    // time. holdSeedPixels says what the upload just enqueued puts there.
    bool holdsSeedPixels(const std::vector<uint32_t>& pixels) const { return pixels == heldSeedPixels_; }
    // Whether a fused launch of the bricks found its work-groups not all
    // resident (its roll call waits long before it gives up): the session's
    // next runs go one round per launch at once.
    bool bricksNotResident = false;
    void holdSeedPixels(const std::vector<uint32_t>& pixels) { heldSeedPixels_ = pixels; }

    cl::Buffer luma;
    cl::Buffer labels[2];   // [1]: sweep frontier only
    cl::Buffer stamps[2];
    cl::Buffer frontier[2]; // queue frontier only
    cl::Buffer tileMark;    // fusion=tiles only
    cl::Buffer tileLists;
    cl::Buffer ringRows;    // fusion=tiles on an image: 32 rows of 16 bytes a tile
    cl::Buffer seedPixels;  // per region
    cl::Buffer seedLuma;
    cl::Buffer totals;
    cl::Buffer deltas;
    cl::Buffer regionStats;
    cl::Buffer counters;

    // The box maps of the final state in sets `set` (labels and stamps),
    // read into recycled pinned host memory; with step > 1 every step-th
    // pixel of every step-th row only.
    // labelsFromStamps: one region of a correct run, no labels read at all.
    BoxMaps readBox(int set, const PixelBox& box, size_t regions, uint32_t largestStamp,
                    TimingLog& timings, int step = 1, bool labelsFromStamps = false);

    // The same box read straight into full maps of the image (which hold
    // label 0 and stamp "never" elsewhere): no narrow copy, no pinned block.
    void readBoxInto(int set, const PixelBox& box, std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps,
                     TimingLog& timings, const MapPlacement& at = {});

    // A click's box maps packed on the device as soon as its run is
    // summarised (pack_ahead in kernels/grow_session.cl), before the host
    // knows the box: readBox then reads them with no command before its
    // reads (a command costs NVIDIA's driver 10 to 17 us of host time).
    // packAhead says whether the next runs are clicks and how their labels
    // travel (readBox's labelsFromStamps); enqueuePackAhead follows a run's
    // summary (where the packed buffers exist and the maps fit them);
    // notePackedAhead takes what it did from the counters read after it.
    void packAhead(bool on, size_t regions, bool labelsFromStamps);
    void enqueuePackAhead(int set, TimingLog& timings);
    void notePackedAhead(uint32_t stampBytes, const PixelBox& box, int set);

    // A click whose stamps are final before its labels (a competitive run
    // of several regions: its second pass only labels) and cover the whole
    // image: the stamps packed now and read on a second queue while the
    // label pass runs; readBox then packs and reads the labels only. Not a
    // click (packAhead off), or a device with no copy engine (a CPU
    // runtime; RGX_STAMPS_AHEAD=1 forces it): nothing. Any other read of
    // the maps first waits for these stamps and drops them.
    void readStampsAhead(int set, uint32_t largestStamp, TimingLog& timings);
    bool stampsAhead() const;

    Footprint footprint() const;

    // The words the host reads back every run: the counters, then the region
    // totals (RGX_REGION_STATS_WORDS per region of the capacity). Pinned
    // from a kept state's second run on (reserveRegions): on NVIDIA's
    // driver a read into pageable memory is staged and its call returns
    // tens of microseconds later. Valid after prepareRun.
    uint32_t* readBackWords() const;

    // The list of every pixel by stamp that a competitive run of several
    // regions in tiles or bricks labels level by level
    // (kernels/label_levels.cl), and per pixel its neighbours of the stamp
    // before (with its luma in an image): the queue's frontier buffers,
    // which that run does not use.
    cl::Buffer& levelOrder()
    {
        ensure(frontier[0], pixelCount() * 4);
        return frontier[0];
    }
    cl::Buffer& levelInfo()
    {
        ensure(frontier[1], pixelCount() * 4);
        return frontier[1];
    }
    // A buffer of its own for a run's small scratch (at least 4 bytes).
    cl::Buffer scratch(size_t bytes) { return make(bytes); }

    // The buffers of the ties' label pass (grow/LabelTies.cpp,
    // kernels/label_ties.h), kept from click to click, each of at least
    // `bytes`: the ties per stamp, the totals per stamp and region, the
    // ties listed and sorted, where their neighbours' labels are, their
    // labels, the stamps' starts (twice: one copy is consumed) and the
    // levels with ties.
    enum class TieBuffer {
        Counts, Unique, List, Order, Refs, Labels, Starts, Cursor, Levels,
        BigIndex, BigLevels, BigPrefix, BigTotals, // settle_ties' levels of many ties
        Count
    };
    cl::Buffer& tieBuffer(TieBuffer which, size_t bytes)
    {
        cl::Buffer& buffer = tieBuffers_[size_t(which)];
        ensure(buffer, bytes);
        return buffer;
    }

    // A kernel of a built program, made once per state (clCreateKernel is a
    // cost a click can feel); the caller sets every argument before use.
    cl::Kernel& kernel(const cl::Program& program, const char* name);

private:
    // setLuma's and uploadLuma's write of the whole luma through `queue`.
    void writeLuma(cl::CommandQueue& queue, const std::vector<uint16_t>& values, const std::vector<uint8_t>* bytes,
                   TimingLog& timings);
    struct HostBlock;
    cl::Buffer make(size_t bytes);
    void ensure(cl::Buffer& buffer, size_t bytes);
    // pack_maps for the box maps readBox reads: the labels in labelBytes,
    // the stamps in stampBytes (0: not that map). Its event, for a wait.
    // Its rows (slices stacked) rows.s[0] to rows.s[1]; {0, 0}: all of them.
    const cl::Event* enqueuePack(int set, const PixelBox& box, const BoxMaps& maps, int labelBytes, int stampBytes,
                                 TimingLog& timings, cl_uint2 rows = {{0, 0}});
    // readBox's packs and reads of the maps, slab by slab (RGX_READ_SLABS),
    // into host memory at labelsHost and stampsHost; the first slab packed
    // by pack_ahead where firstPacked. Returns once every read is done.
    void readSlabs(int set, const PixelBox& box, const BoxMaps& maps, bool firstPacked, uint8_t* labelsHost,
                   uint8_t* stampsHost, TimingLog& timings);
    // Where a read-back's stamps start in its host memory: after the labels
    // (labelBytes each), at a 4-byte boundary.
    static size_t stampsOffset(size_t count, int labelBytes);
    // The bytes of a slab of RGX_READ_SLABS on this device (0: one read).
    static uint64_t readSlabBytes(const DeviceInfo& info);
    // Box maps of at least this many samples (step 1) read their stamps
    // narrow, a byte each (GrowStateNarrow.cpp).
    static uint64_t narrowFrom(const DeviceInfo& info);
    // readBox's packs and reads of narrow stamps (kernels/narrow_stamps.h)
    // and of the labels, slab by slab, into `maps` (stampBytes 1, its
    // memory); false, having set nothing, where the wide runs outgrew
    // their slots, or where the session's last narrow read had so many that
    // two-byte stamps are fewer bytes (then the stamps are read as they
    // would be otherwise, and in the second case nothing was read).
    bool readNarrow(int set, const PixelBox& box, BoxMaps& maps, TimingLog& timings);
    // The slots a narrow read of `runs` runs of `count` samples holds for
    // wide runs, from the share of wide runs the session's last narrow read
    // found (wideShare_); none where two-byte stamps would be fewer bytes.
    std::optional<size_t> wideSlotsFor(size_t runs, size_t count) const;
    // One map of box maps read slab by slab: rows of rowBytes from `buffer`
    // into host memory at `host`, each read tracked as `name`.
    struct SlabRead {
        const cl::Buffer* buffer;
        size_t rowBytes;
        uint8_t* host;
        const char* name;
    };
    // A slab's packs on the device queue (rows of the box, slices stacked;
    // k: the slab's number), returning what its reads wait for (none: no pack).
    using SlabPacks = std::function<std::vector<cl::Event>(cl_uint2 rows, uint64_t k)>;
    // The box's `rows` in `slabs` slabs (RGX_READ_SLABS): each slab packed,
    // then every map of `mapReads` read, on the side queue beside the next
    // slab's packs where there are several. Returns the queue of the reads
    // (not finished) and leaves the last slab's packs in lastPacks.
    cl::CommandQueue& readInSlabs(uint64_t slabs, uint64_t rows, const SlabPacks& pack,
                                  const std::vector<SlabRead>& mapReads, TimingLog& timings,
                                  std::vector<cl::Event>& lastPacks);
    // The queue of reads beside the device queue's kernels, made on first use.
    cl::CommandQueue& sideQueue();
    // Host memory for a read of `bytes`: a free pinned block, or pageable.
    std::shared_ptr<const void> readMemory(size_t bytes, uint8_t*& host);
    // Waits for readStampsAhead's read, if one is under way, and drops it.
    void settleStampsAhead();
    // Pageable memory for a read-back: prepareHostMemory's when it is large
    // enough (waited for), fresh otherwise.
    std::shared_ptr<uint8_t> pageableMemory(size_t bytes);
    // A free pinned block of at least `bytes`, or null: then the read goes
    // to pageable memory and a pinned block is being made for the next.
    std::shared_ptr<HostBlock> hostBlock(size_t bytes);
    // Starts making the pinned block (or two) a read went without (after the read).
    void makeWantedBlock();
    // The blocks made on another thread, into hostBlocks_ once they are there
    // (or at once, with wait).
    void adoptPendingBlock(bool wait);

    ComputeDevice& device_;
    int width_;
    int height_;
    int sliceHeight_;
    HostMemory hostMemory_;
    bool pinInBackground_; // a GPU: pinned blocks are made on other threads
    std::string lumaKey_;
    uint32_t lumaLimit_ = 0xFFFF;
    size_t regionCapacity_ = 0;
    PixelBox dirty_;
    bool failed_ = true;       // fresh buffers: reset everything
    std::vector<uint32_t> heldSeedPixels_; // what seedPixels holds (empty: unknown)
    cl::Buffer packedLabels_;  // the box maps in their narrow types, on the device
    cl::Buffer packedStamps_;  // narrow stamps: their bytes
    cl::Buffer narrowBases_;   // narrow stamps: the runs' bases
    cl::Buffer narrowWide_;    // narrow stamps: the wide runs' count and slots
    double wideShare_ = 0;     // of the runs, wide at the last narrow read (0: none yet)
    int aheadLabelBytes_ = -1; // packAhead's, -1: off
    struct PackedAhead {
        uint32_t stampBytes = 0; // 0: nothing packed ahead
        PixelBox box;
        int set = 0;
    } packedAhead_;
    struct StampsAhead {
        int set = 0;
        PixelBox box;
        int labelBytes = 0;
        int stampBytes = 0;
        std::shared_ptr<const void> storage; // the maps' memory, labels first
        uint8_t* host = nullptr;             // null: no stamps ahead
        cl::Event read;                      // the stamps are in host memory
    } stampsAhead_;
    cl::CommandQueue sideQueue_; // sideQueue()'s
    std::vector<std::shared_ptr<HostBlock>> hostBlocks_;
    std::shared_ptr<HostBlock> readBack_;
    std::future<std::vector<std::shared_ptr<HostBlock>>> pendingBlock_;
    std::future<std::shared_ptr<HostBlock>> pinnedWords_; // readBack_'s successor, being made
    size_t pinnedWanted_ = 0; // bytes of the block a read went without
    int pinnedWantedCount_ = 1; // blocks of that size to make
    std::future<std::shared_ptr<uint8_t>> preparedMemory_; // prepareHostMemory's
    size_t preparedBytes_ = 0;
    std::map<std::pair<cl_program, std::string>, cl::Kernel> kernels_;
    std::array<cl::Buffer, size_t(TieBuffer::Count)> tieBuffers_;
};

} // namespace rgx
