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

} // namespace rgx::test
