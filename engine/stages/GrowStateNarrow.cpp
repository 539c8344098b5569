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
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace rgx {

// RGX_NARROW_STAMPS: 0 never narrow; 1 every box narrow, whatever its
// wide runs; 2 every box as a GPU's large boxes go (wideSlotsFor). For
// tests and the bench's A/B.
static int narrowAsked()
{
    const char* asked = std::getenv("RGX_NARROW_STAMPS");
    return asked ? std::max(std::atoi(asked), 0) : -1;
}

// On a GPU from 8 Mi samples: below that the read is a fraction of a
// millisecond and the run's bases, a kernel and a wait are not worth it.
// On a CPU runtime the read is a memcpy on the cores the pack needs.
// RGX_NARROW_STAMPS=0 never, =1 or 2 every box (narrowAsked).
uint64_t GrowState::narrowFrom(const DeviceInfo& info)
{
    if (const int asked = narrowAsked(); asked >= 0)
        return asked > 0 ? 1 : UINT64_MAX;
    return info.type == "GPU" ? uint64_t(8) << 20 : UINT64_MAX;
}

// The wide runs a read holds slots for: a 64th of the runs, at least 1024
// (RGX_NARROW_WIDE_SLOTS sets that floor: tests make them overflow). A
// read whose wide runs outgrow their slots reads its labels and narrow
// stamps for nothing and then two bytes a stamp: so, after a narrow read of
// this session, the slots are a quarter more than its share of wide runs
// asks for here (a click is most often like the last one), up to an eighth
// of the runs (the slots' memory, 256 bytes each, at most half a byte a
// sample). A wide run crosses the bus in 256 bytes, where two-byte stamps
// take 128: where the share asks for more slots than that, or for more wide
// bytes than narrow stamps save, the click reads two bytes without trying
// (no slots), but where every box is to be read narrow.
std::optional<size_t> GrowState::wideSlotsFor(size_t runs, size_t count) const
{
    const char* forced = std::getenv("RGX_NARROW_WIDE_SLOTS");
    const size_t floor = forced ? size_t(std::max(std::atoi(forced), 0)) : std::max<size_t>(1024, runs / 64);
    if (wideShare_ <= 0)
        return floor;
    const double wide = wideShare_ * double(runs);
    const size_t wanted = size_t(std::ceil(wide * 1.25)) + 16;
    const size_t most = std::max(floor, runs / 8);
    const bool fewerBytes = double(count) + 4.0 * double(runs) + 256.0 * wide < 2.0 * double(count);
    if (narrowAsked() == 1)
        return std::max(floor, std::min(wanted, most));
    if (!fewerBytes || wanted > most)
        return std::nullopt;
    return std::max(floor, wanted);
}

constexpr size_t headSlots = 15;

bool GrowState::readNarrow(int set, const PixelBox& box, BoxMaps& maps, TimingLog& timings)
{
    const size_t count = maps.samples();
    const size_t rows = size_t(maps.boxHeight) * size_t(maps.boxDepth);
    const size_t runs = size_t(maps.runsPerRow());
    const std::optional<size_t> wideSlots = wideSlotsFor(rows * runs, count);
    if (!wideSlots) {
        // The last narrow read's wide runs would cost more than they save:
        // two bytes now. The next click tries again once the share that
        // decided it has halved (a few clicks on), in case the maps changed.
        wideShare_ /= 2;
        return false;
    }
    const size_t slots = *wideSlots;
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
    // Counted whole, also past the slots (kernels/narrow_stamps.h).
    wideShare_ = double(wide) / double(rows * runs);
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
