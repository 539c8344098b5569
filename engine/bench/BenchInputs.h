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

// A photograph as a bench image: scaled (bilinear, stretched to a square
// when it is not one) to size x size, then a little noise added so that the
// enlarged pixels are not flat patches: each pixel +-2 grey levels (luma
// units), uniform, from mt19937(seed) in raster order. Integer arithmetic
// throughout (16.16 fixed point), so the result is the same on every machine.
LumaImage scaledPhoto(const LumaImage& photo, int size, uint32_t seed);

// K seeds at the centres of the cells of a near-square grid, row by row: one
// seed is the image centre. Empty when the image is too small for the grid.
std::vector<Seed> gridSeeds(int width, int height, int count);

} // namespace rgx::bench
