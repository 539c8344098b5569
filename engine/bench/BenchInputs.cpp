// The benches' generated images and seed grids.
#include "BenchInputs.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>

namespace rgx::bench {

LumaImage smoothNoise(int size, uint32_t seed)
{
    struct Octave {
        int cell;
        float amplitude;
    };
    const Octave octaves[] = {{64, 150.0f}, {16, 70.0f}, {4, 35.0f}};
    std::mt19937 rng(seed);
    std::vector<float> lattices[std::size(octaves)];
    int latticeWidths[std::size(octaves)];
    for (size_t o = 0; o < std::size(octaves); ++o) {
        latticeWidths[o] = size / octaves[o].cell + 2;
        lattices[o].resize(size_t(latticeWidths[o]) * size_t(latticeWidths[o]));
        for (float& value : lattices[o])
            value = float(rng()) / float(std::mt19937::max()) * 2.0f - 1.0f;
    }
    LumaImage image;
    image.width = size;
    image.height = size;
    image.bitDepth = 8;
    image.luma.resize(size_t(size) * size_t(size));
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            float value = 128.0f;
            for (size_t o = 0; o < std::size(octaves); ++o) {
                const int cell = octaves[o].cell;
                const float fx = float(x % cell) / float(cell);
                const float fy = float(y % cell) / float(cell);
                const float* row = &lattices[o][size_t(y / cell) * size_t(latticeWidths[o]) + size_t(x / cell)];
                const float* next = row + latticeWidths[o];
                const float top = row[0] + (row[1] - row[0]) * fx;
                const float bottom = next[0] + (next[1] - next[0]) * fx;
                value += octaves[o].amplitude * (top + (bottom - top) * fy);
            }
            image.luma[size_t(y) * size_t(size) + size_t(x)] = uint16_t(std::clamp(std::lround(value), 0l, 255l));
        }
    }
    keepLumaBytes(image);
    return image;
}

LumaImage scaledPhoto(const LumaImage& photo, int size, uint32_t seed)
{
    constexpr int64_t one = 1 << 16;
    // Where output pixel i's centre falls in the photo, in 16.16 fixed point:
    // (i + 0.5) * from / size - 0.5, held inside the photo.
    auto sourcePosition = [&](int i, int from) {
        const int64_t position = (2 * int64_t(i) + 1) * from * one / (2 * int64_t(size)) - one / 2;
        return std::clamp<int64_t>(position, 0, int64_t(from - 1) * one);
    };
    std::vector<int64_t> columns(static_cast<size_t>(size));
    for (int x = 0; x < size; ++x)
        columns[size_t(x)] = sourcePosition(x, photo.width);
    const int64_t maximum = (int64_t(1) << photo.bitDepth) - 1;
    std::mt19937 rng(seed);
    LumaImage image;
    image.width = size;
    image.height = size;
    image.bitDepth = photo.bitDepth;
    image.colour = photo.colour;
    image.luma.resize(size_t(size) * size_t(size));
    for (int y = 0; y < size; ++y) {
        const int64_t fy = sourcePosition(y, photo.height);
        const int y0 = int(fy / one), y1 = std::min(y0 + 1, photo.height - 1);
        const int64_t wy = fy % one;
        for (int x = 0; x < size; ++x) {
            const int64_t fx = columns[size_t(x)];
            const int x0 = int(fx / one), x1 = std::min(x0 + 1, photo.width - 1);
            const int64_t wx = fx % one;
            const int64_t top = photo.at(x0, y0) * (one - wx) + photo.at(x1, y0) * wx;
            const int64_t bottom = photo.at(x0, y1) * (one - wx) + photo.at(x1, y1) * wx;
            const int64_t value = (top * (one - wy) + bottom * wy + one * one / 2) / (one * one);
            const int64_t noise = int64_t(rng() % 5) - 2;
            image.luma[size_t(y) * size_t(size) + size_t(x)] = uint16_t(std::clamp<int64_t>(value + noise, 0, maximum));
        }
    }
    if (image.bitDepth == 8)
        keepLumaBytes(image);
    return image;
}

std::vector<Seed> gridSeeds(int width, int height, int count)
{
    const int columns = int(std::ceil(std::sqrt(double(count))));
    const int rows = (count + columns - 1) / columns;
    if (columns > width || rows > height)
        return {};
    std::vector<Seed> seeds;
    for (int i = 0; i < count; ++i) {
        const int column = i % columns, row = i / columns;
        seeds.push_back({int((2 * int64_t(column) + 1) * width / (2 * columns)),
                         int((2 * int64_t(row) + 1) * height / (2 * rows))});
    }
    return seeds;
}

} // namespace rgx::bench
