// Generated test inputs: smooth random luma images and random distinct seeds,
// all from a seeded RNG so a failure can be replayed from its seed.
#pragma once

#include "Image.h"
#include "Seeds.h"
#include <QImage>
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace rgx::test {

enum class PixelKind { Grey8, Grey16, Colour8 };

// Blocky noise, blurred, so that regions have real structure; colour images
// go through lumaFromImage so the luma formula is part of what is compared.
inline LumaImage randomImage(int width, int height, PixelKind kind, uint32_t seed)
{
    std::mt19937 rng(seed);
    const int maxValue = kind == PixelKind::Grey16 ? 65535 : 255;
    std::uniform_int_distribution<int> value(0, maxValue);
    const int block = 1 + int(rng() % 8);
    std::vector<int> coarse(size_t((width / block + 2) * (height / block + 2)));
    for (int& v : coarse)
        v = value(rng);
    const int coarseWidth = width / block + 2;
    std::uniform_int_distribution<int> noise(-maxValue / 16, maxValue / 16);
    auto sample = [&](int x, int y) {
        const int v = coarse[size_t((y / block) * coarseWidth + x / block)] + noise(rng);
        return std::clamp(v, 0, maxValue);
    };
    if (kind == PixelKind::Colour8) {
        QImage picture(width, height, QImage::Format_RGB888);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                picture.setPixel(x, y, qRgb(sample(x, y), sample(x, y), sample(x, y)));
        return lumaFromImage(picture);
    }
    LumaImage image;
    image.width = width;
    image.height = height;
    image.bitDepth = kind == PixelKind::Grey16 ? 16 : 8;
    image.luma.resize(size_t(width) * size_t(height));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.luma[size_t(y) * size_t(width) + size_t(x)] = uint16_t(sample(x, y));
    return image;
}

inline std::vector<Seed> randomSeeds(int width, int height, int count, uint32_t seed)
{
    std::mt19937 rng(seed);
    count = std::min<int64_t>(count, int64_t(width) * height);
    std::set<std::pair<int, int>> used;
    std::vector<Seed> seeds;
    while (int(seeds.size()) < count) {
        Seed s{int(rng() % uint32_t(width)), int(rng() % uint32_t(height))};
        if (used.insert({s.x, s.y}).second)
            seeds.push_back(s);
    }
    return seeds;
}

// A perfect maze of 1-pixel corridors of luma `floor` between walls of luma
// `wall` (depth-first carving from a seeded RNG): 2 cellsX + 1 by
// 2 cellsY + 1 pixels, every corridor cell reachable from (1, 1) by one path.
inline LumaImage maze(int cellsX, int cellsY, uint32_t seed, uint16_t floor, uint16_t wall)
{
    LumaImage image;
    image.width = 2 * cellsX + 1;
    image.height = 2 * cellsY + 1;
    image.luma.assign(size_t(image.width) * size_t(image.height), wall);
    auto open = [&](int x, int y) { image.luma[size_t(y) * size_t(image.width) + size_t(x)] = floor; };
    std::mt19937 rng(seed);
    std::vector<bool> visited(size_t(cellsX) * size_t(cellsY), false);
    std::vector<std::pair<int, int>> stack = {{0, 0}};
    visited[0] = true;
    open(1, 1);
    const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        int options[4], count = 0;
        for (int d = 0; d < 4; ++d) {
            const int nx = cx + dx[d], ny = cy + dy[d];
            if (nx >= 0 && ny >= 0 && nx < cellsX && ny < cellsY && !visited[size_t(ny) * size_t(cellsX) + size_t(nx)])
                options[count++] = d;
        }
        if (count == 0) {
            stack.pop_back();
            continue;
        }
        const int d = options[rng() % uint32_t(count)];
        const int nx = cx + dx[d], ny = cy + dy[d];
        visited[size_t(ny) * size_t(cellsX) + size_t(nx)] = true;
        open(2 * cx + 1 + dx[d], 2 * cy + 1 + dy[d]);
        open(2 * nx + 1, 2 * ny + 1);
        stack.push_back({nx, ny});
    }
    return image;
}

} // namespace rgx::test
