// Device buffers of region growing kept between runs, their reset, and the
// read-back of a run's box maps through pinned host memory.
#include "GrowState.h"
#include "Device.h"
#include "HostMemory.h"
#include "grow/GrowPrograms.h"
#include "StageSupport.h"
#include "TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>

namespace rgx {

size_t GrowState::stampsOffset(size_t count, int labelBytes)
{
    return (count * size_t(labelBytes) + 3) / 4 * 4;
}

// Pinned host memory for a read-back: an OpenCL buffer allocated by the
// runtime in host memory (CL_MEM_ALLOC_HOST_PTR) and mapped once. NVIDIA's
// driver copies into such memory by DMA at full bus speed; a read into
// ordinary (pageable) memory is staged through a bounce buffer. A state
// used for one run takes ordinary memory instead: making a pinned block
// costs more than it saves there.
struct GrowState::HostBlock {
    cl::CommandQueue queue;
    cl::Buffer buffer; // null for ordinary memory
    std::unique_ptr<uint8_t[]> ordinary;
    void* mapped = nullptr;
    size_t bytes = 0;

    HostBlock(cl::Context& context, cl::CommandQueue& commandQueue, size_t size)
        : queue(commandQueue), buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size), bytes(size)
    {
        mapped = queue.enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size);
    }
    explicit HostBlock(size_t size) : ordinary(new uint8_t[size]), mapped(ordinary.get()), bytes(size) {}
    ~HostBlock()
    {
        if (buffer() == nullptr)
            return;
        try {
            // Waited for: a runtime still unmapping when the process exits
            // can crash in its own teardown.
            queue.enqueueUnmapMemObject(buffer, mapped);
            queue.finish();
        } catch (const cl::Error&) {
            // The context is going away: nothing left to unmap into.
        }
    }
};

GrowState::GrowState(ComputeDevice& device, int width, int height, HostMemory hostMemory, int sliceHeight)
    : device_(device), width_(width), height_(height), sliceHeight_(sliceHeight > 0 ? sliceHeight : height),
      hostMemory_(hostMemory),
      // Pinned memory pays on a GPU: only there is it made on other threads.
      pinInBackground_(device.info().type == "GPU" && device.info().takesCallsFromOtherThreads())
{
}

GrowState::~GrowState()
{
    settleStampsAhead(); // its read writes into a block of this state
    adoptPendingBlock(true); // the block's thread uses the queue
    if (pinnedWords_.valid())
        pinnedWords_.wait();
    if (preparedMemory_.valid())
        preparedMemory_.wait();
}

cl::Buffer GrowState::make(size_t bytes)
{
    return cl::Buffer(device_.context(), CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4));
}

void GrowState::ensure(cl::Buffer& buffer, size_t bytes)
{
    if (buffer() == nullptr || buffer.getInfo<CL_MEM_SIZE>() < bytes)
        buffer = make(bytes);
}

bool GrowState::setLuma(const std::vector<uint16_t>& values, const std::vector<uint8_t>* bytes,
                        const std::string& key, TimingLog& timings)
{
    if (luma() != nullptr && key == lumaKey_)
        return false;
    writeLuma(device_.queue(), values, bytes, timings);
    lumaKey_ = key;
    return true;
}

void GrowState::writeLuma(cl::CommandQueue& queue, const std::vector<uint16_t>& values,
                          const std::vector<uint8_t>* bytes, TimingLog& timings)
{
    ensure(luma, pixelCount() * 2);
    // RGX_LUMA_BYTES=2 sends two bytes a luma whatever the image (to compare).
    const char* chosen = std::getenv("RGX_LUMA_BYTES");
    const bool twoBytes = chosen != nullptr && std::atoi(chosen) == 2;
    if (bytes == nullptr || bytes->size() != pixelCount() || twoBytes) {
        queue.enqueueWriteBuffer(luma, CL_FALSE, 0, pixelCount() * 2, values.data(), nullptr,
                                 timings.track("upload", "write:luma"));
        lumaLimit_ = 0xFFFF;
        return;
    }
    lumaLimit_ = 0xFF;
    // A buffer of the bytes for this upload alone: released here, freed by
    // the driver once widen_luma has run.
    const cl::Buffer narrow(device_.context(), CL_MEM_READ_ONLY, std::max<size_t>(pixelCount(), 4));
    queue.enqueueWriteBuffer(narrow, CL_FALSE, 0, pixelCount(), bytes->data(), nullptr,
                             timings.track("upload", "write:luma"));
    // Its own kernel object: uploadLuma runs on another thread.
    cl::Kernel widen(sessionKernels(device_).program, "widen_luma");
    widen.setArg(0, narrow);
    widen.setArg(1, cl_uint(pixelCount()));
    widen.setArg(2, luma);
    const size_t items = stage::roundUp((pixelCount() + 3) / 4, 256);
    queue.enqueueNDRangeKernel(widen, cl::NullRange, cl::NDRange(items), cl::NDRange(256), nullptr,
                               timings.track("upload", "widen_luma"));
}

void GrowState::setLumaWindow(const std::vector<uint16_t>& imageLuma, int imageWidth, int x0, int y0,
                              TimingLog& timings)
{
    lumaLimit_ = 0xFFFF;
    ensure(luma, pixelCount() * 2);
    const std::array<size_t, 3> origin{0, 0, 0};
    const std::array<size_t, 3> hostOrigin{size_t(x0) * 2, size_t(y0), 0};
    const std::array<size_t, 3> region{size_t(width_) * 2, size_t(height_), 1};
    device_.queue().enqueueWriteBufferRect(luma, CL_FALSE, origin, hostOrigin, region, size_t(width_) * 2, 0,
                                           size_t(imageWidth) * 2, 0, imageLuma.data(), nullptr,
                                           timings.track("upload", "write:luma_window"));
    lumaKey_ = "window";
}

void GrowState::uploadLuma(const std::vector<uint16_t>& values, const std::vector<uint8_t>* bytes,
                           const std::string& key)
{
    cl::CommandQueue queue(device_.context(), device_.device());
    TimingLog untimed; // nobody reads this upload's times
    writeLuma(queue, values, bytes, untimed);
    queue.finish();
    lumaKey_ = key;
}

void GrowState::reserveRegions(size_t regions)
{
    // The pinned words made on another thread take over once they are there.
    if (pinnedWords_.valid() && pinnedWords_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        try {
            std::shared_ptr<HostBlock> pinned = pinnedWords_.get();
            if (pinned->bytes >= readBack_->bytes)
                readBack_ = std::move(pinned);
        } catch (const std::exception&) {
            // No pinned memory to be had: the words stay in ordinary memory.
        }
    }
    if (regions <= regionCapacity_)
        return;
    regionCapacity_ = regionCapacityFor(regions);
    seedPixels = make(regionCapacity_ * 4);
    heldSeedPixels_.clear();
    seedLuma = make(regionCapacity_ * 4);
    totals = make(3 * 3 * regionCapacity_ * 4);
    deltas = make(3 * 3 * regionCapacity_ * 4);
    regionStats = make(RGX_REGION_STATS_WORDS * regionCapacity_ * 4);
    // Ordinary memory at once; for a state that is kept, pinned memory
    // made on another thread for the runs after this one (making and
    // mapping it took a first click 1.5 ms on the H100).
    const size_t bytes = (RGX_COUNTER_WORDS + RGX_REGION_STATS_WORDS * regionCapacity_) * 4;
    if (hostMemory_ == HostMemory::Recycled && !pinInBackground_) {
        readBack_ = std::make_shared<HostBlock>(device_.context(), device_.queue(), bytes);
        return;
    }
    readBack_ = std::make_shared<HostBlock>(bytes);
    if (hostMemory_ == HostMemory::Recycled) {
        if (pinnedWords_.valid())
            pinnedWords_.wait();
        pinnedWords_ = std::async(std::launch::async, [context = device_.context(), queue = device_.queue(),
                                                       bytes]() mutable {
            return std::make_shared<HostBlock>(context, queue, bytes);
        });
    }
}

GrowState::RunStart GrowState::prepareRun(const GrowVariant& variant, bool tiles, size_t regions)
{
    const uint64_t pixels = pixelCount();
    const bool fresh = labels[0]() == nullptr;
    ensure(labels[0], pixels * 2);
    ensure(stamps[0], pixels * 4);
    if (variant.frontier == Frontier::Sweep) {
        ensure(labels[1], pixels * 2);
        ensure(stamps[1], pixels * 4);
    } else if (tiles) {
        ensure(tileMark, 2 * tileCount() * 4);
        ensure(tileLists, 3 * tileCount() * 4);
        if (!isVolume()) // the ring step's rows of each tile (kernels/tile_step_ring.h)
            ensure(ringRows, tileCount() * growTileSide * 16);
    } else {
        ensure(frontier[0], pixels * 4);
        ensure(frontier[1], pixels * 4);
    }
    reserveRegions(regions);
    ensure(counters, RGX_COUNTER_WORDS * 4);

    // Back to label 0 and stamp "never" where the previous run left pixels.
    RunStart start;
    start.reset = failed_ || fresh ? whole() : dirty_;
    if (!isVolume() && !start.reset.empty()) { // whole rows: one range of pixels (start_run)
        start.reset.x0 = 0;
        start.reset.x1 = uint32_t(width_ - 1);
    }
    start.markWords = tiles ? 2 * tileCount() : 0;
    start.statWords = RGX_REGION_STATS_WORDS * regions;
    failed_ = true; // until finishRun says where this run's pixels are
    dirty_ = PixelBox();
    packedAhead_ = PackedAhead();
    return start;
}

// Read-backs of at most this many bytes get pinned memory at once. A larger
// one that no free pinned block holds goes to pageable memory this time,
// and a pinned block of its size is made on another thread after it, for
// the next: on the H100's host making and mapping pinned memory costs
// 0.37 ms per MiB (docs/bench/host-memory-probe.cpp; a whole 4096 x 4096
// box, 48 MiB, took a first click 32 ms), a read into fresh pageable
// memory 0.27 to 0.62 ms per MiB, into touched memory 0.067.
constexpr size_t pinnedAtOnceBytes = size_t(1) << 20;

void GrowState::adoptPendingBlock(bool wait)
{
    if (!pendingBlock_.valid())
        return;
    if (!wait && pendingBlock_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    try {
        for (std::shared_ptr<HostBlock>& block : pendingBlock_.get())
            hostBlocks_.push_back(std::move(block));
    } catch (const std::exception&) {
        // No pinned memory to be had: large reads stay pageable.
    }
}

void GrowState::prepareHostMemory(size_t bytes)
{
    if (preparedMemory_.valid() || !hostBlocks_.empty())
        return;
    preparedBytes_ = bytes;
    preparedMemory_ = std::async(std::launch::async, [bytes] {
        std::shared_ptr<uint8_t> block = pageableBlock(bytes);
        touchInParallel(block.get(), bytes);
        return block;
    });
}

void GrowState::prepareReadBack(size_t bytes)
{
    prepareHostMemory(bytes);
    if (pinInBackground_ && bytes > pinnedAtOnceBytes && hostBlocks_.empty() && !pendingBlock_.valid()) {
        pinnedWanted_ = bytes;
        makeWantedBlock();
    }
}

void GrowState::dropPreparedMemory()
{
    if (preparedMemory_.valid() && preparedMemory_.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        preparedMemory_ = {};
}

std::shared_ptr<uint8_t> GrowState::pageableMemory(size_t bytes)
{
    if (preparedMemory_.valid() && preparedBytes_ >= bytes) {
        try {
            return preparedMemory_.get();
        } catch (const std::exception&) {
            // No memory to be had in advance: fresh memory below says so too.
        }
    }
    return pageableBlock(bytes);
}

std::shared_ptr<GrowState::HostBlock> GrowState::hostBlock(size_t bytes)
{
    if (hostMemory_ == HostMemory::OneRun)
        return nullptr;
    adoptPendingBlock(false);
    // A block nobody else holds any more is free; the smallest that fits is taken.
    std::shared_ptr<HostBlock> best;
    for (const auto& block : hostBlocks_)
        if (block.use_count() == 1 && block->bytes >= bytes && (!best || block->bytes < best->bytes))
            best = block;
    if (best)
        return best;
    // Blocks that are free but too small go: the maps have grown.
    hostBlocks_.erase(std::remove_if(hostBlocks_.begin(), hostBlocks_.end(),
                                     [](const auto& block) { return block.use_count() == 1; }),
                      hostBlocks_.end());
    bytes = std::max<size_t>(bytes, 64);
    if (bytes <= pinnedAtOnceBytes || !pinInBackground_) {
        hostBlocks_.push_back(std::make_shared<HostBlock>(device_.context(), device_.queue(), bytes));
        return hostBlocks_.back();
    }
    // Two blocks of this size, unless a result holds one already: the
    // result of this read will hold one while the next click reads into the
    // other (with one, every other click of a size went to fresh pageable
    // memory: 4096^2 "add a second" 33 against 8 ms on the H100).
    if (!pendingBlock_.valid()) {
        pinnedWanted_ = bytes;
        const bool oneHeld = std::any_of(hostBlocks_.begin(), hostBlocks_.end(),
                                         [bytes](const auto& block) { return block->bytes >= bytes; });
        pinnedWantedCount_ = oneHeld ? 1 : 2;
    }
    return nullptr;
}

void GrowState::makeWantedBlock()
{
    if (pinnedWanted_ == 0)
        return;
    // Started once the read is done: NVIDIA's driver holds other calls
    // while it pins (a read enqueued meanwhile waited 19 ms at 48 MiB).
    pendingBlock_ = std::async(std::launch::async, [context = device_.context(), queue = device_.queue(),
                                                    bytes = pinnedWanted_, count = pinnedWantedCount_]() mutable {
        std::vector<std::shared_ptr<HostBlock>> blocks;
        for (int k = 0; k < count; ++k)
            blocks.push_back(std::make_shared<HostBlock>(context, queue, bytes));
        return blocks;
    });
    pinnedWanted_ = 0;
    pinnedWantedCount_ = 1;
}

BoxMaps GrowState::readBox(int set, const PixelBox& box, size_t regions, uint32_t largestStamp,
                           TimingLog& timings, int step, bool labelsFromStamps)
{
    BoxMaps maps;
    maps.width = width_;
    maps.height = height_;
    maps.depth = height_ / sliceHeight_; // a volume's slices stacked
    if (box.empty())
        return maps;
    maps.x0 = int(box.x0);
    maps.y0 = int(box.y0);
    maps.z0 = int(box.z0);
    maps.step = std::max(step, 1);
    maps.boxWidth = int(box.x1 - box.x0) / maps.step + 1;
    maps.boxHeight = int(box.y1 - box.y0) / maps.step + 1;
    maps.boxDepth = int(box.z1 - box.z0) + 1;
    maps.labelBytes = labelsFromStamps ? 0 : regions <= 255 ? 1 : 2;
    maps.stampBytes = largestStamp < 0xFFFF ? 2 : 4;
    const size_t count = maps.samples();
    const size_t labelBytes = stampsOffset(count, maps.labelBytes);
    cl::CommandQueue& queue = device_.queue();

    // This box's stamps may be on their way already (readStampsAhead):
    // then only the labels are packed and read here.
    const StampsAhead& early = stampsAhead_;
    const bool stampsOnTheirWay = early.host != nullptr && maps.step == 1 && early.set == set && early.box == box &&
                                  early.stampBytes == maps.stampBytes && early.labelBytes == maps.labelBytes;
    if (!stampsOnTheirWay)
        settleStampsAhead();
    const PackedAhead ahead = packedAhead_;
    packedAhead_ = PackedAhead();
    uint8_t* host = nullptr;
    if (stampsOnTheirWay) {
        if (maps.labelBytes > 0)
            enqueuePack(set, box, maps, maps.labelBytes, 0, timings);
        host = early.host;
        maps.storage = early.storage;
        if (maps.labelBytes > 0)
            queue.enqueueReadBuffer(packedLabels_, CL_FALSE, 0, count * size_t(maps.labelBytes), host, nullptr,
                                    timings.track("download", "read:labels"));
        queue.finish();
        stampsAhead_.read.wait(); // a failed read throws: these stamps are the click's
        stampsAhead_ = StampsAhead();
    } else if (maps.step == 1 && count >= narrowFrom(device_.info()) && readNarrow(set, box, maps, timings)) {
        makeWantedBlock();
        return maps;
    } else {
        const bool packed = maps.step == 1 && ahead.stampBytes == uint32_t(maps.stampBytes) &&
                            aheadLabelBytes_ == maps.labelBytes && ahead.box == box && ahead.set == set;
        maps.storage = readMemory(labelBytes + count * size_t(maps.stampBytes), host);
        readSlabs(set, box, maps, packed, host, host + labelBytes, timings);
    }
    makeWantedBlock();
    maps.labels = host;
    maps.stamps = host + labelBytes;
    return maps;
}

// Box maps of several slabs' bytes are packed and read slab by slab
// (RGX_READ_SLABS): each slab's read, on the side queue, runs beside the
// next slab's pack_maps. Only on a GPU, whose copy engine runs beside its
// kernels; RGX_READ_SLAB_KIB sets a slab's size (0: one read: the bench's A/B; tests force small slabs).
uint64_t GrowState::readSlabBytes(const DeviceInfo& info)
{
    const char* forced = std::getenv("RGX_READ_SLAB_KIB");
    const uint64_t kib = forced ? uint64_t(std::max(std::atoi(forced), 0)) : info.type == "GPU" ? 32768 : 0;
    return kib << 10;
}

void GrowState::readSlabs(int set, const PixelBox& box, const BoxMaps& maps, bool firstPacked, uint8_t* labelsHost,
                          uint8_t* stampsHost, TimingLog& timings)
{
    const uint64_t slabBytes = maps.step == 1 ? readSlabBytes(device_.info()) : 0;
    const uint64_t slabs = RGX_READ_SLABS(maps.bytes(), slabBytes);
    std::vector<SlabRead> mapReads;
    if (maps.labelBytes > 0)
        mapReads.push_back({&packedLabels_, size_t(maps.boxWidth) * size_t(maps.labelBytes), labelsHost, "read:labels"});
    mapReads.push_back({&packedStamps_, size_t(maps.boxWidth) * size_t(maps.stampBytes), stampsHost, "read:stamps"});
    std::vector<cl::Event> lastPacks;
    cl::CommandQueue& reads = readInSlabs(
        slabs, uint64_t(maps.boxHeight) * uint64_t(maps.boxDepth),
        [&](cl_uint2 rows, uint64_t k) {
            std::vector<cl::Event> packed;
            if (k > 0 || !firstPacked)
                packed.push_back(*enqueuePack(set, box, maps, maps.labelBytes, maps.stampBytes, timings, rows));
            return packed;
        },
        mapReads, timings, lastPacks);
    reads.finish();
    device_.queue().finish();
}

cl::CommandQueue& GrowState::readInSlabs(uint64_t slabs, uint64_t rows, const SlabPacks& pack,
                                         const std::vector<SlabRead>& mapReads, TimingLog& timings,
                                         std::vector<cl::Event>& lastPacks)
{
    // One slab: its reads follow the packs on the one queue.
    cl::CommandQueue& reads = slabs > 1 ? sideQueue() : device_.queue();
    for (uint64_t k = 0; k < slabs; ++k) {
        const size_t first = size_t(k * rows / slabs), end = size_t((k + 1) * rows / slabs);
        if (end == first)
            continue;
        lastPacks = pack({{cl_uint(first), cl_uint(end)}}, k);
        const std::vector<cl::Event>* wait = nullptr;
        if (slabs > 1 && !lastPacks.empty()) {
            wait = &lastPacks;
            device_.queue().flush();
        }
        for (const SlabRead& read : mapReads)
            reads.enqueueReadBuffer(*read.buffer, CL_FALSE, first * read.rowBytes, (end - first) * read.rowBytes,
                                    read.host + first * read.rowBytes, wait, timings.track("download", read.name));
        if (slabs > 1)
            reads.flush();
    }
    return reads;
}

cl::CommandQueue& GrowState::sideQueue()
{
    if (sideQueue_() == nullptr)
        sideQueue_ = cl::CommandQueue(device_.context(), device_.device(), CL_QUEUE_PROFILING_ENABLE);
    return sideQueue_;
}

std::shared_ptr<const void> GrowState::readMemory(size_t bytes, uint8_t*& host)
{
    if (std::shared_ptr<HostBlock> block = hostBlock(bytes)) {
        host = static_cast<uint8_t*>(block->mapped);
        return std::shared_ptr<const void>(block, block->mapped);
    }
    std::shared_ptr<uint8_t> pageable = pageableMemory(bytes);
    host = pageable.get();
    return pageable;
}

// Stamps read beside the label pass pay where a copy runs beside a kernel:
// a GPU's copy engine. On a CPU runtime the copy is a memcpy on the cores
// the labels need, after one more pack. RGX_STAMPS_AHEAD=0 or 1 overrides
// it on any device (tests, the bench's A/B).
static bool stampsAheadPay(const DeviceInfo& info)
{
    const char* forced = std::getenv("RGX_STAMPS_AHEAD");
    return forced ? std::atoi(forced) > 0 : info.type == "GPU";
}

void GrowState::readStampsAhead(int set, uint32_t largestStamp, TimingLog& timings)
{
    if (aheadLabelBytes_ < 0 || !stampsAheadPay(device_.info()))
        return; // not a click (the run reads its full maps), or no copy engine
    settleStampsAhead();
    // The whole image, laid out as readBox lays it out (step 1).
    BoxMaps whole;
    whole.boxWidth = width_;
    whole.boxHeight = sliceHeight_;
    whole.boxDepth = depth();
    StampsAhead ahead;
    ahead.set = set;
    ahead.box = this->whole();
    ahead.labelBytes = aheadLabelBytes_;
    ahead.stampBytes = largestStamp < 0xFFFF ? 2 : 4;
    const size_t count = size_t(width_) * size_t(height_);
    const size_t labelBytes = stampsOffset(count, ahead.labelBytes);
    ahead.storage = readMemory(labelBytes + count * size_t(ahead.stampBytes), ahead.host);
    const cl::Event* packed = enqueuePack(set, ahead.box, whole, 0, ahead.stampBytes, timings);
    device_.queue().flush();
    const std::vector<cl::Event> after{*packed};
    cl::CommandQueue& side = sideQueue();
    side.enqueueReadBuffer(packedStamps_, CL_FALSE, 0, count * size_t(ahead.stampBytes), ahead.host + labelBytes,
                           &after, timings.track("download", "read:stamps"));
    side.enqueueMarkerWithWaitList(nullptr, &ahead.read);
    side.flush();
    stampsAhead_ = std::move(ahead);
    packedAhead_ = PackedAhead(); // pack_ahead must not write the stamps being read
}

bool GrowState::stampsAhead() const { return stampsAhead_.host != nullptr; }

void GrowState::settleStampsAhead()
{
    if (!stampsAhead())
        return;
    try {
        stampsAhead_.read.wait();
    } catch (const cl::Error&) {
        // The read failed: the maps are read again the ordinary way.
    }
    stampsAhead_ = StampsAhead();
}

const cl::Event* GrowState::enqueuePack(int set, const PixelBox& box, const BoxMaps& maps, int labelBytes,
                                        int stampBytes, TimingLog& timings, cl_uint2 rows)
{
    if (rows.s[1] == 0)
        rows.s[1] = cl_uint(maps.boxHeight) * cl_uint(maps.boxDepth);
    const size_t count = maps.samples();
    ensure(packedLabels_, count * size_t(labelBytes));
    ensure(packedStamps_, count * size_t(stampBytes));
    cl::Kernel& pack = kernel(sessionKernels(device_).program, "pack_maps");
    int a = 0;
    pack.setArg(a++, stamps[set]);
    pack.setArg(a++, labels[set]);
    pack.setArg(a++, cl_uint(width_));
    pack.setArg(a++, cl_uint(sliceHeight_));
    pack.setArg(a++, cl_uint4{{box.x0, box.y0, box.z0, 0}});
    pack.setArg(a++, cl_uint4{{cl_uint(maps.boxWidth), cl_uint(maps.boxHeight), cl_uint(maps.boxDepth), 0}});
    pack.setArg(a++, cl_uint(maps.step));
    pack.setArg(a++, rows);
    pack.setArg(a++, cl_uint(labelBytes));
    pack.setArg(a++, cl_uint(stampBytes));
    pack.setArg(a++, packedLabels_);
    pack.setArg(a++, packedStamps_);
    // A work-item packs packAtOnce columns of a row (GrowPrograms.h).
    const size_t columns =
        std::min<size_t>((size_t(maps.boxWidth) + packAtOnce * 64 - 1) / (packAtOnce * 64) * 64, 1024);
    const size_t rowGroups = std::min<size_t>(rows.s[1] - rows.s[0], 4096);
    cl::Event* done = timings.track("download", "pack_maps");
    device_.queue().enqueueNDRangeKernel(pack, cl::NullRange, cl::NDRange(columns, rowGroups), cl::NDRange(64, 1),
                                         nullptr, done);
    return done;
}

void GrowState::packAhead(bool on, size_t regions, bool labelsFromStamps)
{
    settleStampsAhead(); // a run that stopped before its read-back left them
    aheadLabelBytes_ = !on ? -1 : labelsFromStamps ? 0 : regions <= 255 ? 1 : 2;
}

void GrowState::enqueuePackAhead(int set, TimingLog& timings)
{
    if (stampsAhead())
        return; // the stamps are being read: readBox packs the labels
    // Where no click made the packed buffers yet, the first packs after it.
    if (aheadLabelBytes_ < 0 || packedStamps_() == nullptr || (aheadLabelBytes_ > 0 && packedLabels_() == nullptr))
        return;
    cl::Kernel& pack = kernel(sessionKernels(device_).program, "pack_ahead");
    int a = 0;
    pack.setArg(a++, stamps[set]);
    pack.setArg(a++, labels[set]);
    pack.setArg(a++, cl_uint(width_));
    pack.setArg(a++, cl_uint(sliceHeight_));
    pack.setArg(a++, cl_uint(aheadLabelBytes_));
    const size_t labelCapacity = aheadLabelBytes_ > 0 ? packedLabels_.getInfo<CL_MEM_SIZE>() : 0;
    pack.setArg(a++, cl_uint(std::min<size_t>(labelCapacity, UINT32_MAX)));
    pack.setArg(a++, cl_uint(std::min<size_t>(packedStamps_.getInfo<CL_MEM_SIZE>(), UINT32_MAX)));
    pack.setArg(a++, cl_uint(std::min<uint64_t>(readSlabBytes(device_.info()), UINT32_MAX)));
    pack.setArg(a++, cl_uint(std::min<uint64_t>(narrowFrom(device_.info()), UINT32_MAX)));
    pack.setArg(a++, counters);
    pack.setArg(a++, aheadLabelBytes_ > 0 ? packedLabels_ : packedStamps_);
    pack.setArg(a++, packedStamps_);
    // The box is the device's: a fixed range, each work-item striding over
    // columns and rows (as pack_maps does past 1024 columns and 4096 rows).
    device_.queue().enqueueNDRangeKernel(pack, cl::NullRange, cl::NDRange(256, 256), cl::NDRange(64, 1), nullptr,
                                         timings.track("download", "pack_maps"));
}

void GrowState::notePackedAhead(uint32_t stampBytes, const PixelBox& box, int set)
{
    if (stampsAhead())
        return; // pack_ahead did not run: its counter is an older run's
    packedAhead_ = {stampBytes, box, set};
}

void GrowState::readBoxInto(int set, const PixelBox& box, std::vector<uint16_t>& fullLabels,
                            std::vector<uint32_t>& fullStamps, TimingLog& timings, const MapPlacement& at)
{
    if (box.empty())
        return;
    cl::CommandQueue& queue = device_.queue();
    const size_t boxWidth = box.x1 - box.x0 + 1, boxHeight = box.y1 - box.y0 + 1, boxDepth = box.z1 - box.z0 + 1;
    const size_t rowPitch = size_t(width_), hostPitch = size_t(at.width > 0 ? at.width : width_);
    // One box per map, its rows and slices where the image's are (a volume
    // is not placed in a larger one: at is an image's window).
    auto readRect = [&](const cl::Buffer& buffer, void* host, size_t bytesPerPixel, const char* name) {
        const std::array<size_t, 3> origin{box.x0 * bytesPerPixel, box.y0, box.z0};
        const std::array<size_t, 3> hostOrigin{(box.x0 + size_t(at.x0)) * bytesPerPixel, box.y0 + size_t(at.y0),
                                               box.z0};
        const std::array<size_t, 3> region{boxWidth * bytesPerPixel, boxHeight, boxDepth};
        const size_t rowBytes = rowPitch * bytesPerPixel, hostRowBytes = hostPitch * bytesPerPixel;
        queue.enqueueReadBufferRect(buffer, CL_FALSE, origin, hostOrigin, region, rowBytes,
                                    rowBytes * size_t(sliceHeight_), hostRowBytes, hostRowBytes * size_t(sliceHeight_),
                                    host, nullptr, timings.track("download", name));
    };
    readRect(labels[set], fullLabels.data(), 2, "read:labels");
    readRect(stamps[set], fullStamps.data(), 4, "read:stamps");
    queue.finish();
}

uint32_t* GrowState::readBackWords() const
{
    return static_cast<uint32_t*>(readBack_->mapped);
}

cl::Kernel& GrowState::kernel(const cl::Program& program, const char* name)
{
    const auto key = std::make_pair(program(), std::string(name));
    auto found = kernels_.find(key);
    if (found == kernels_.end())
        found = kernels_.emplace(key, cl::Kernel(program, name)).first;
    return found->second;
}

Footprint GrowState::footprint() const
{
    Footprint footprint;
    for (const cl::Buffer* buffer : {&luma, &labels[0], &labels[1], &stamps[0], &stamps[1], &frontier[0], &frontier[1],
                                     &tileMark, &tileLists, &ringRows, &seedPixels, &seedLuma, &totals, &deltas, &regionStats,
                                     &counters, &packedLabels_, &packedStamps_, &narrowBases_, &narrowWide_})
        if ((*buffer)() != nullptr)
            footprint.deviceBytes += buffer->getInfo<CL_MEM_SIZE>();
    for (const cl::Buffer& buffer : tieBuffers_)
        if (buffer() != nullptr)
            footprint.deviceBytes += buffer.getInfo<CL_MEM_SIZE>();
    for (const auto& block : hostBlocks_)
        footprint.hostBytes += block->bytes;
    if (readBack_)
        footprint.hostBytes += readBack_->bytes;
    return footprint;
}

} // namespace rgx
