// A click's large box maps with their stamps narrow, a byte a sample over
// a base per run (kernels/narrow_stamps.h): the bus carries about half the
// bytes of two-byte stamps, where a large region's read-back is most of a
// click (a whole 512^3 volume: 268 MB of stamps against 4.8 ms of growing).
#include "GrowState.h"
#include "Device.h"
#include "TimingLog.h"
#include "grow/GrowPrograms.h"
#include "grow_counters.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace rgx {

// On a GPU from 8 Mi samples: below that the read is a fraction of a
// millisecond and the run's bases, a kernel and a wait are not worth it.
// On a CPU runtime the read is a memcpy on the cores the pack needs.
// RGX_NARROW_STAMPS=0 never, =1 every box (tests, the bench's A/B).
uint64_t GrowState::narrowFrom(const DeviceInfo& info)
{
    const char* forced = std::getenv("RGX_NARROW_STAMPS");
    if (forced)
        return std::atoi(forced) > 0 ? 1 : UINT64_MAX;
    return info.type == "GPU" ? uint64_t(8) << 20 : UINT64_MAX;
}

// The wide runs a read holds slots for: a 64th of the runs, at least 1024
// (RGX_NARROW_WIDE_SLOTS sets it: tests make them overflow). The host reads
// the count with the first `headSlots`, and the rest only where there are more.
static size_t wideSlots(size_t runs)
{
    const char* forced = std::getenv("RGX_NARROW_WIDE_SLOTS");
    return forced ? size_t(std::max(std::atoi(forced), 0)) : std::max<size_t>(1024, runs / 64);
}
constexpr size_t headSlots = 15;

bool GrowState::readNarrow(int set, const PixelBox& box, BoxMaps& maps, TimingLog& timings)
{
    const size_t count = maps.samples();
    const size_t rows = size_t(maps.boxHeight) * size_t(maps.boxDepth);
    const size_t runs = size_t(maps.runsPerRow());
    const size_t slots = wideSlots(rows * runs);
    const size_t slotBytes = size_t(BoxMaps::narrowRun) * 4; // a slot's words; the first holds the count
    const size_t labelsEnd = stampsOffset(count, maps.labelBytes);
    const size_t basesAt = labelsEnd + (count + 3) / 4 * 4;
    const size_t wideAt = basesAt + rows * runs * 4;
    uint8_t* host = nullptr;
    std::shared_ptr<const void> storage = readMemory(wideAt + (slots + 1) * slotBytes, host);
    ensure(packedStamps_, count);
    ensure(narrowBases_, rows * runs * 4);
    ensure(narrowWide_, (slots + 1) * slotBytes);

    BoxMaps narrow = maps;
    narrow.stampBytes = 1;
    cl::CommandQueue& queue = device_.queue();
    queue.enqueueFillBuffer(narrowWide_, cl_uint(0), 0, 4, nullptr, timings.track("download", "fill:wide"));
    cl::Kernel& pack = kernel(sessionKernels(device_).program, "pack_narrow");
    const uint64_t slabs = RGX_READ_SLABS(narrow.bytes(), readSlabBytes(device_.info()));
    std::vector<SlabRead> mapReads;
    if (maps.labelBytes > 0)
        mapReads.push_back({&packedLabels_, size_t(maps.boxWidth) * size_t(maps.labelBytes), host, "read:labels"});
    mapReads.push_back({&packedStamps_, size_t(maps.boxWidth), host + labelsEnd, "read:stamps"});
    mapReads.push_back({&narrowBases_, runs * 4, host + basesAt, "read:stamps"});
    std::vector<cl::Event> lastPacks;
    cl::CommandQueue& reads = readInSlabs(
        slabs, rows,
        [&](cl_uint2 slab, uint64_t) {
            std::vector<cl::Event> packed;
            if (maps.labelBytes > 0)
                packed.push_back(*enqueuePack(set, box, maps, maps.labelBytes, 0, timings, slab));
            int a = 0;
            pack.setArg(a++, stamps[set]);
            pack.setArg(a++, cl_uint(width_));
            pack.setArg(a++, cl_uint(sliceHeight_));
            pack.setArg(a++, cl_uint4{{box.x0, box.y0, box.z0, 0}});
            pack.setArg(a++, cl_uint4{{cl_uint(maps.boxWidth), cl_uint(maps.boxHeight), cl_uint(maps.boxDepth), 0}});
            pack.setArg(a++, slab);
            pack.setArg(a++, cl_uint(std::min<size_t>(slots, UINT32_MAX)));
            pack.setArg(a++, packedStamps_);
            pack.setArg(a++, narrowBases_);
            pack.setArg(a++, narrowWide_);
            cl::Event* done = timings.track("download", "pack_narrow");
            const size_t across =
                std::min<size_t>((runs + narrowAtOnce - 1) / narrowAtOnce, 16) * size_t(BoxMaps::narrowRun);
            queue.enqueueNDRangeKernel(pack, cl::NullRange,
                                       cl::NDRange(across, std::min<size_t>(slab.s[1] - slab.s[0], 4096)),
                                       cl::NDRange(size_t(BoxMaps::narrowRun), 1), nullptr, done);
            packed.push_back(*done);
            return packed;
        },
        mapReads, timings, lastPacks);
    // The wide runs' count, with the first slots, once every slab is packed.
    const size_t head = std::min(slots, headSlots);
    reads.enqueueReadBuffer(narrowWide_, CL_FALSE, 0, (head + 1) * slotBytes, host + wideAt,
                            slabs > 1 ? &lastPacks : nullptr, timings.track("download", "read:wide"));
    reads.finish();
    queue.finish();
    uint32_t wide = 0;
    std::memcpy(&wide, host + wideAt, 4);
    if (wide > slots)
        return false;
    if (wide > head)
        queue.enqueueReadBuffer(narrowWide_, CL_TRUE, (head + 1) * slotBytes, (wide - head) * slotBytes,
                                host + wideAt + (head + 1) * slotBytes, nullptr, timings.track("download", "read:wide"));
    narrow.storage = std::move(storage);
    narrow.labels = host;
    narrow.stamps = host + labelsEnd;
    narrow.stampBases = reinterpret_cast<const uint32_t*>(host + basesAt);
    narrow.wideStamps = reinterpret_cast<const uint32_t*>(host + wideAt + slotBytes);
    maps = narrow;
    return true;
}

} // namespace rgx
