// rgx-cli bench --volume's inputs and baselines (engine/bench/VolumeBench):
// the phantom is what its cases assume, its flood fill is SPEC's mode range
// with one seed, and its check sees a wrong voxel.
#include "TestVolumes.h"
#include "Pipeline.h"
#include "bench/VolumeBench.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>

using namespace rgx;

TEST(VolumeBench, ThePhantomIsTheSameEveryTimeAndItsBallsStayApart)
{
    const bench::Phantom phantom = bench::makePhantom(48, 1);
    EXPECT_EQ(phantom.volume.luma, bench::makePhantom(48, 1).volume.luma);
    EXPECT_NE(phantom.volume.luma, bench::makePhantom(48, 2).volume.luma);
    EXPECT_EQ(phantom.volume.depth, 48);
    EXPECT_EQ(phantom.volume.bitDepth, 16);
    ASSERT_GE(phantom.spheres.size(), 24u) << "a few dozen balls";
    for (size_t i = 0; i < phantom.spheres.size(); ++i) {
        const bench::PhantomSphere& a = phantom.spheres[i];
        EXPECT_GE(std::abs(int(a.level) - int(phantom.background)), 300) << "ball " << i;
        EXPECT_GT(a.voxels, 0u) << "ball " << i;
        EXPECT_LE(std::abs(int(phantom.volume.at(a.x, a.y, a.z)) - int(a.level)), phantom.noise)
            << "ball " << i << " holds its level at its centre";
        for (size_t j = 0; j < i; ++j) {
            const bench::PhantomSphere& b = phantom.spheres[j];
            const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            EXPECT_GT(std::sqrt(dx * dx + dy * dy + dz * dz), a.radius + b.radius + 2) << "balls " << j << ", " << i;
            EXPECT_GE(std::abs(int(a.level) - int(b.level)), 150) << "balls " << j << ", " << i;
        }
    }
    // Every voxel within the noise of the background or of a ball's level.
    for (size_t p = 0; p < phantom.volume.luma.size(); ++p) {
        const int value = phantom.volume.luma[p];
        const bool near = std::abs(value - int(phantom.background)) <= phantom.noise ||
                          std::any_of(phantom.spheres.begin(), phantom.spheres.end(),
                                      [&](const bench::PhantomSphere& s) { return std::abs(value - int(s.level)) <= phantom.noise; });
        ASSERT_TRUE(near) << "voxel " << p << " has luma " << value;
    }
}

TEST(VolumeBench, TheCasesAreWhatTheirNamesSay)
{
    const bench::Phantom phantom = bench::makePhantom(64, 1);
    const std::vector<bench::VolumeCase> cases = bench::volumeCases(phantom, 6);
    ASSERT_EQ(cases.size(), 4u);
    EXPECT_EQ(cases[0].name, "whole");
    EXPECT_EQ(cases[1].name, "background");
    EXPECT_EQ(cases[2].name, "small");
    EXPECT_EQ(cases[3].name, "64 seeds");
    bench::FloodFill fill;
    const auto fillOf = [&](const bench::VolumeCase& c) {
        bench::floodFillVolume(phantom.volume, c.seeds[0], c.params.grow.lower, c.params.grow.upper, 6, fill);
        return fill.voxels;
    };
    EXPECT_EQ(fillOf(cases[0]), phantom.volume.pixelCount());
    uint64_t inBalls = 0;
    for (const bench::PhantomSphere& sphere : phantom.spheres)
        inBalls += sphere.voxels;
    EXPECT_EQ(fillOf(cases[1]), phantom.volume.pixelCount() - inBalls) << "the background, every ball a hole";
    const uint64_t small = fillOf(cases[2]);
    EXPECT_LT(small, 1000000u);
    EXPECT_TRUE(std::any_of(phantom.spheres.begin(), phantom.spheres.end(),
                            [&](const bench::PhantomSphere& s) { return s.voxels == small; }))
        << "the small case's region is one ball";
    EXPECT_EQ(cases[3].seeds.size(), 64u);
    EXPECT_EQ(cases[3].params.grow.mode, Mode::Competitive);
}

TEST(VolumeBench, TheFloodFillIsRangeModeWithOneSeedInEveryConnectivity)
{
    for (int connectivity : {6, 18, 26}) {
        const LumaImage volume = test::randomVolume(21, 15, 11, true, 70u + uint32_t(connectivity));
        const Seed seed{10, 7, 5};
        PipelineParams params;
        params.grow.mode = Mode::Range;
        params.grow.lower = 9000;
        params.grow.upper = 7000;
        params.grow.connectivity = connectivity;
        const GrowResultPtr reference = runReferencePipeline(volume, {seed}, params);
        bench::FloodFill fill;
        bench::floodFillVolume(volume, seed, 9000, 7000, connectivity, fill);
        EXPECT_EQ(fill.distances, reference->stamps) << "connectivity " << connectivity;
        EXPECT_EQ(fill.levels, reference->iterations) << "connectivity " << connectivity;
        EXPECT_GT(fill.voxels, 30u) << "a region worth the name, connectivity " << connectivity;
        EXPECT_TRUE(bench::checkAgainstFill(volume, fill, *reference).ok()) << "connectivity " << connectivity;

        GrowResult wrong = *reference;
        const size_t p = size_t(seedIndex(seed, 21, 15)) + 1;
        wrong.stamps[p] = wrong.stamps[p] == unclassifiedStamp ? 3 : unclassifiedStamp;
        EXPECT_EQ(bench::checkAgainstFill(volume, fill, wrong).differingPixels, 1u);
    }
}
