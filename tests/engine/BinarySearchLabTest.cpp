// The binary-search lab finds std::lower_bound for every key, with every
// driver, on every device that can run it.
#include "Device.h"
#include "Errors.h"
#include "lab/BinarySearchLab.h"

#include <gtest/gtest.h>

using namespace rgx;

TEST(BinarySearchLab, EveryDriverOnEveryDeviceFindsTheLowerBound)
{
    const size_t sizes[] = {1, 2, 63, 64, 65, 4097, 250000};
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (Driver driver : {Driver::HostSync, Driver::HostBatched, Driver::DeviceEnqueue}) {
            if (driver == Driver::DeviceEnqueue && !info.deviceEnqueue) {
                EXPECT_THROW(runBinarySearchLab(device, {1, 2, 3}, {2}, driver), InputError) << info.name;
                continue;
            }
            uint32_t seed = 1;
            for (size_t size : sizes) {
                const std::vector<uint32_t> values = makeSortedValues(size, seed);
                const std::vector<uint32_t> keys = makeSearchKeys(1 + size % 700, values, seed + 1);
                const BinarySearchResult result = runBinarySearchLab(device, values, keys, driver);
                const std::vector<uint32_t> expected = lowerBoundsReference(values, keys);
                for (size_t k = 0; k < keys.size(); ++k)
                    ASSERT_EQ(result.positions[k], expected[k])
                        << info.name << ", driver " << driverName(driver) << ", size " << size
                        << ", seed " << seed << ", key " << k << " = " << keys[k];
                EXPECT_GE(result.rounds, 1u);
                ++seed;
            }
        }
    }
}

TEST(BinarySearchLab, HostBatchedReadsBackOncePerBatchHostSyncOncePerRound)
{
    ComputeDevice device(selectDevice(""));
    const std::vector<uint32_t> values = makeSortedValues(100000, 3);
    const std::vector<uint32_t> keys = makeSearchKeys(300, values, 4);
    auto reads = [](const BinarySearchResult& result) {
        int count = 0;
        for (const TimingRecord& record : result.timings)
            count += record.kernel == "read:counters";
        return count;
    };
    const BinarySearchResult sync = runBinarySearchLab(device, values, keys, Driver::HostSync);
    const BinarySearchResult batched = runBinarySearchLab(device, values, keys, Driver::HostBatched);
    EXPECT_EQ(reads(sync), int(sync.rounds));
    EXPECT_EQ(reads(batched), 1);
}

TEST(BinarySearchLab, EmptyInputIsAnInputError)
{
    ComputeDevice device(selectDevice(""));
    EXPECT_THROW(runBinarySearchLab(device, {}, {1}, Driver::HostSync), InputError);
    EXPECT_THROW(runBinarySearchLab(device, {1}, {}, Driver::HostSync), InputError);
}
