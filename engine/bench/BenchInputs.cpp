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
