// The generated inputs of the benches, the same on every machine for the
// same arguments.
#pragma once

#include "Image.h"
#include "Seeds.h"
#include <cstdint>
#include <vector>

namespace rgx::bench {

// Smooth 8-bit noise: three octaves of value noise (lattice cells of 64, 16
// and 4 pixels, bilinear between random lattice values), the same for the
// same size and seed on every machine (mt19937 is specified exactly).
LumaImage smoothNoise(int size, uint32_t seed);

// K seeds at the centres of the cells of a near-square grid, row by row: one
// seed is the image centre. Empty when the image is too small for the grid.
std::vector<Seed> gridSeeds(int width, int height, int count);

} // namespace rgx::bench
