// The variant model: names round-trip, errors are clear, devices gate by
// their reported features, NVIDIA's verbose build log is understood.
#include "Device.h"
#include "Errors.h"
#include "ProgramCache.h"
#include "Pipeline.h"
#include <QFileInfo>
#include "Variant.h"

#include <gtest/gtest.h>

using namespace rgx;

TEST(Variant, TextRoundTripsForEveryVariant)
{
    for (const GrowVariant& variant : allVariants())
        EXPECT_EQ(parseVariant(variant.text()), variant) << variant.text();
}

TEST(Variant, LeftOutAxesTakeTheDefaults)
{
    const GrowVariant sweep = parseVariant("frontier=sweep");
    EXPECT_EQ(sweep.tile, Tile::Async);
    EXPECT_EQ(sweep.driver, Driver::HostBatched);
    EXPECT_EQ(parseVariant("").text(), "driver=host-batched,frontier=queue,collectives=atomics");
}

TEST(Variant, UnknownAxisOrChoiceIsAnInputError)
{
    EXPECT_THROW(parseVariant("driver=warp-speed"), InputError);
    EXPECT_THROW(parseVariant("colour=red"), InputError);
    EXPECT_THROW(parseVariant("frontier=queue,tile=async"), InputError);
    EXPECT_THROW(parseVariant("driver"), InputError);
}

TEST(Variant, FusionAppliesToTheHostBatchedQueueOnly)
{
    const GrowVariant fused = parseVariant("collectives=local,fusion=grid-barrier");
    EXPECT_EQ(fused.fusion, Fusion::GridBarrier);
    EXPECT_EQ(fused.text(), "driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier");
    EXPECT_EQ(fused.shortText(), "host-batched/queue/local/grid-barrier");
    EXPECT_EQ(parseVariant("frontier=sweep,tile=direct").shortText(), "host-batched/sweep/atomics/direct");
    EXPECT_NE(fused.buildDefines().find("-DRGX_FUSION=1"), std::string::npos);
    EXPECT_EQ(parseVariant("fusion=none"), parseVariant(""));
    EXPECT_THROW(parseVariant("driver=host-sync,fusion=grid-barrier"), InputError);
    EXPECT_THROW(parseVariant("driver=device-enqueue,fusion=grid-barrier"), InputError);
    EXPECT_THROW(parseVariant("frontier=sweep,fusion=grid-barrier"), InputError);
    EXPECT_THROW(parseVariant("fusion=warp"), InputError);
    EXPECT_THROW(parseVariant("frontier=sweep,fusion=tiles"), InputError);
    // Where it grows by tiles there is no scan whose barriers could be left out.
    EXPECT_THROW(parseVariant("collectives=local-nobarrier,fusion=tiles"), InputError);
    EXPECT_EQ(parseVariant("fusion=tiles").shortText(), "host-batched/queue/atomics/tiles");
    int fusedVariants = 0;
    for (const GrowVariant& variant : allVariants())
        if (variant.fusion != Fusion::None) {
            ++fusedVariants;
            EXPECT_EQ(variant.driver, Driver::HostBatched);
            EXPECT_EQ(variant.frontier, Frontier::Queue);
        }
    // grid-barrier with every collectives choice, tiles with all but local-nobarrier.
    EXPECT_EQ(fusedVariants, 9);
}

TEST(Variant, WrongOnPurposeAreExactlyTheNoBarrierChoices)
{
    for (const GrowVariant& variant : allVariants())
        EXPECT_EQ(variant.wrongOnPurpose(), variant.collectives == Collectives::LocalNoBarrier ||
                                                variant.tile == Tile::AsyncNoBarrier)
            << variant.text();
}

TEST(Variant, OpenClOnePointTwoDeviceCannotRunTheTwoPointZeroChoicesAndSaysWhy)
{
    DeviceInfo device;
    device.openClCVersion = "OpenCL C 1.2";
    const auto builtin = whyUnavailable(parseVariant("collectives=builtin"), device);
    ASSERT_TRUE(builtin.has_value());
    EXPECT_NE(builtin->find("needs work-group collective functions"), std::string::npos);
    EXPECT_NE(builtin->find("OpenCL C 1.2"), std::string::npos);
    const auto enqueue = whyUnavailable(parseVariant("driver=device-enqueue"), device);
    ASSERT_TRUE(enqueue.has_value());
    EXPECT_NE(enqueue->find("device-side enqueue"), std::string::npos);
    EXPECT_FALSE(whyUnavailable(parseVariant("collectives=local"), device).has_value());
}

TEST(Variant, NoBarrierIsTheSameKernelWithOneMacroEmpty)
{
    const std::string correct = parseVariant("collectives=local").buildDefines();
    const std::string wrong = parseVariant("collectives=local-nobarrier").buildDefines();
    EXPECT_EQ(wrong, correct + " -D\"RGX_BARRIER(flags)=\"");
}

TEST(ProgramCache, ParsesRegistersAndSpillsFromNvidiaVerboseLog)
{
    std::vector<KernelReport> kernels(2);
    kernels[0].kernel = "grow_queue";
    kernels[1].kernel = "update_means";
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'grow_queue' for 'sm_90'\n"
        "ptxas info    : Function properties for grow_queue\n"
        "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 40 registers, 432 bytes cmem[0]\n"
        "ptxas info    : Compiling entry function 'update_means' for 'sm_90'\n"
        "ptxas info    : Function properties for update_means\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, 384 bytes cmem[0]\n";
    parseNvidiaVerboseLog(log, kernels);
    EXPECT_EQ(kernels[0].registers, 40);
    EXPECT_EQ(kernels[0].spillStores, 8);
    EXPECT_EQ(kernels[0].spillLoads, 4);
    EXPECT_EQ(kernels[1].registers, 12);
    EXPECT_EQ(kernels[1].spillStores, 0);
}

TEST(Devices, DefaultIsPoclAndNamesSelectDevices)
{
    const std::vector<DeviceInfo> devices = listDevices();
    ASSERT_FALSE(devices.empty()) << "no OpenCL device: run scripts/setup.sh";
    EXPECT_TRUE(selectDevice("").isPocl());
    for (const DeviceInfo& device : devices) {
        EXPECT_EQ(selectDevice(device.id()).id(), device.id());
        EXPECT_GT(device.maxWorkGroupSize, 0u);
        EXPECT_GT(device.localMemoryBytes, 0u);
    }
    EXPECT_THROW(selectDevice("no such device anywhere"), InputError);
}

TEST(Devices, ABareIndexIsTheNthDeviceAsListed)
{
    const std::vector<DeviceInfo> devices = listDevices();
    ASSERT_FALSE(devices.empty());
    for (size_t i = 0; i < devices.size(); ++i)
        EXPECT_EQ(selectDevice(std::to_string(i)).id(), devices[i].id());
    EXPECT_THROW(selectDevice(std::to_string(devices.size())), InputError);
    EXPECT_THROW(selectDevice("123456789012"), InputError);
}

TEST(Devices, ImageLargerThanTheDeviceCanHoldIsAnInputErrorBeforeAnyBuffer)
{
    DeviceInfo info = selectDevice("");
    info.maxAllocationBytes = 4096; // a device that holds at most 1024 stamps in one buffer
    ComputeDevice device(info);
    LumaImage image;
    image.width = 64;
    image.height = 64;
    image.luma.assign(64 * 64, 7);
    try {
        runDevicePipeline(device, image, {{1, 1}}, PipelineParams{}, GrowVariant{});
        FAIL() << "a 64x64 image fit a device with 4 KiB buffers";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("64x64 image needs"), std::string::npos) << error.what();
    }
}

TEST(Devices, IntelCpuRuntimeIsListedWhenTheSetupRegisteredIt)
{
    // scripts/setup.sh registers Intel's runtime here; if it is registered
    // but missing from the list, something in the process (a library that
    // shadows its TBB, say) stops it from loading, and its tests would
    // silently not run.
    if (!QFileInfo::exists(QStringLiteral("/etc/OpenCL/vendors/intel-cpu.icd")))
        GTEST_SKIP() << "Intel's CPU runtime is not registered on this machine";
    EXPECT_NO_THROW(selectDevice("Intel(R) OpenCL"));
}
