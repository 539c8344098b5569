// The program cache tells who asks when it compiles a program from source,
// and only then: not for a program it holds in memory, nor for one it loads
// from its disk cache (the explorer's status says what a first run waits for).
#include "Device.h"
#include "ProgramCache.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <cstdlib>
#include <string>
#include <vector>

using namespace rgx;

namespace {

// RGX_CACHE_DIR pointed at an empty folder for the test's life.
class FreshDiskCache {
public:
    FreshDiskCache()
    {
        if (const char* old = std::getenv("RGX_CACHE_DIR"))
            old_ = old;
        hadOld_ = std::getenv("RGX_CACHE_DIR") != nullptr;
        setenv("RGX_CACHE_DIR", folder_.path().toLocal8Bit().constData(), 1);
    }
    ~FreshDiskCache()
    {
        if (hadOld_)
            setenv("RGX_CACHE_DIR", old_.c_str(), 1);
        else
            unsetenv("RGX_CACHE_DIR");
    }
    bool valid() const { return folder_.isValid(); }

private:
    QTemporaryDir folder_;
    std::string old_;
    bool hadOld_ = false;
};

} // namespace

TEST(ProgramCache, SaysWhenItCompilesFromSourceAndOnlyThen)
{
    FreshDiskCache cache;
    ASSERT_TRUE(cache.valid());
    int devices = 0;
    for (const DeviceInfo& info : listDevices()) {
        const std::string options = info.openClCStandardOption(false);
        std::vector<std::string> built;
        std::vector<double> seconds;
        // Each build told before (its name) and after (its time).
        const ProgramCache::BuildListener listener{
            [&](const std::string& file) { built.push_back(file); },
            [&](const std::string& file, double took) {
                EXPECT_EQ(file, built.back());
                seconds.push_back(took);
            }};
        {
            ComputeDevice device(info);
            device.programs().setBuildListener(listener);
            EXPECT_FALSE(device.programs().get("empty.cl", options).fromDiskCache) << info.name;
            ASSERT_EQ(built.size(), 1u) << info.name;
            EXPECT_EQ(built.front(), "empty.cl");
            // Held in memory: no second build, no word.
            device.programs().get("empty.cl", options);
            EXPECT_EQ(built.size(), 1u) << info.name;
            // Other options are another program.
            device.programs().get("empty.cl", options + " -DRGX_ANOTHER_BUILD=1");
            EXPECT_EQ(built.size(), 2u) << info.name;
            ASSERT_EQ(seconds.size(), 2u) << info.name;
            EXPECT_GT(seconds[0], 0.0);
        }
        // A device opened again loads both from the disk cache, without a word
        // (Oclgrind always compiles: it checks what it compiles itself).
        ComputeDevice again(info);
        again.programs().setBuildListener(listener);
        const bool fromDisk = again.programs().get("empty.cl", options).fromDiskCache;
        if (info.name.find("Oclgrind") == std::string::npos) {
            EXPECT_TRUE(fromDisk) << info.name;
            EXPECT_EQ(built.size(), 2u) << info.name;
        } else {
            EXPECT_EQ(built.size(), 3u) << info.name;
        }
        EXPECT_EQ(seconds.size(), built.size()) << info.name;
        // No listener: nothing is called.
        const size_t before = built.size();
        again.programs().setBuildListener({});
        EXPECT_FALSE(again.programs().get("empty.cl", options + " -DRGX_A_THIRD_BUILD=1").fromDiskCache);
        EXPECT_EQ(built.size(), before) << info.name;
        ++devices;
    }
    EXPECT_GT(devices, 0);
}
