// Generated inputs for the filter-stage tests: label maps with regions,
// holes and speckles, from a seeded RNG so that a failure can be replayed.
#pragma once

#include "Result.h"
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace rgx::test {

struct LabelMap {
    int width = 0;
    int height = 0;
    std::vector<uint16_t> labels;
    std::vector<uint32_t> stamps;
};

// Voronoi cells of `regions` random sites labelled 1..regions, with about a
// fifth of the pixels unclassified and some pixels relabelled at random
// (speckles a density filter removes); classified pixels get random stamps.
inline LabelMap randomLabelMap(int width, int height, int regions, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<std::pair<int, int>> sites(size_t(std::max(regions, 1)));
    for (auto& site : sites)
        site = {int(rng() % uint32_t(width)), int(rng() % uint32_t(height))};
    LabelMap map;
    map.width = width;
    map.height = height;
    map.labels.resize(size_t(width) * size_t(height));
    map.stamps.resize(map.labels.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            size_t nearest = 0;
            int64_t best = -1;
            for (size_t s = 0; s < sites.size(); ++s) {
                const int64_t dx = x - sites[s].first, dy = y - sites[s].second;
                if (best < 0 || dx * dx + dy * dy < best) {
                    best = dx * dx + dy * dy;
                    nearest = s;
                }
            }
            uint16_t label = uint16_t(nearest + 1);
            const uint32_t roll = rng() % 100;
            if (roll < 20)
                label = 0;
            else if (roll < 27)
                label = uint16_t(1 + rng() % uint32_t(sites.size()));
            const size_t p = size_t(y) * size_t(width) + size_t(x);
            map.labels[p] = label;
            map.stamps[p] = label == 0 ? unclassifiedStamp : rng() % 1000;
        }
    return map;
}

// First index where two vectors differ, -1 when equal.
template <typename T>
int64_t firstDifference(const std::vector<T>& expected, const std::vector<T>& actual)
{
    if (expected.size() != actual.size())
        return 0;
    for (size_t i = 0; i < expected.size(); ++i)
        if (expected[i] != actual[i])
            return int64_t(i);
    return -1;
}

template <typename T>
uint64_t countDifferences(const std::vector<T>& expected, const std::vector<T>& actual)
{
    if (expected.size() != actual.size())
        return std::max(expected.size(), actual.size());
    uint64_t count = 0;
    for (size_t i = 0; i < expected.size(); ++i)
        count += expected[i] != actual[i] ? 1 : 0;
    return count;
}

} // namespace rgx::test
