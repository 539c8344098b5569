// Generated test volumes (SPEC "Volumes (3D)"): blocky random luma with
// structure in all three directions, random distinct voxel seeds, from a
// seeded RNG so that a failure can be replayed from its seed.
#pragma once

#include "Image.h"
#include "Seeds.h"
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

namespace rgx::test {

inline LumaImage randomVolume(int width, int height, int depth, bool sixteenBit, uint32_t seed)
{
    std::mt19937 rng(seed);
    const int maxValue = sixteenBit ? 65535 : 255;
    std::uniform_int_distribution<int> value(0, maxValue);
    std::uniform_int_distribution<int> noise(-maxValue / 16, maxValue / 16);
    const int block = 1 + int(rng() % 5);
    const int cx = width / block + 1, cy = height / block + 1, cz = depth / block + 1;
    std::vector<int> coarse(size_t(cx) * size_t(cy) * size_t(cz));
    for (int& v : coarse)
        v = value(rng);
    LumaImage volume;
    volume.width = width;
    volume.height = height;
    volume.depth = depth;
    volume.bitDepth = sixteenBit ? 16 : 8;
    volume.luma.resize(size_t(width) * size_t(height) * size_t(depth));
    size_t p = 0;
    for (int z = 0; z < depth; ++z)
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int v = coarse[(size_t(z / block) * size_t(cy) + size_t(y / block)) * size_t(cx)
                                     + size_t(x / block)] + noise(rng);
                volume.luma[p++] = uint16_t(std::clamp(v, 0, maxValue));
            }
    return volume;
}

inline std::vector<Seed> randomVoxelSeeds(int width, int height, int depth, int count, uint32_t seed)
{
    std::mt19937 rng(seed);
    count = int(std::min<int64_t>(count, int64_t(width) * height * depth));
    std::set<std::tuple<int, int, int>> used;
    std::vector<Seed> seeds;
    while (int(seeds.size()) < count) {
        const Seed s{int(rng() % uint32_t(width)), int(rng() % uint32_t(height)), int(rng() % uint32_t(depth))};
        if (used.insert({s.x, s.y, s.z}).second)
            seeds.push_back(s);
    }
    return seeds;
}

} // namespace rgx::test
