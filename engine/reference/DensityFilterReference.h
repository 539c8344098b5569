// CPU reference of the postfilter density:W:MIN (docs/STAGES.md).
#pragma once

#include <cstdint>
#include <vector>

namespace rgx {

// Every classified pixel whose clipped W x W window holds fewer than
// `minimum` pixels of its own region becomes unclassified (label 0, stamp
// 0xFFFFFFFF); all decisions use the labels as they were before. In place.
void densityFilterReference(std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps,
                            int width, int height, int window, int minimum);

} // namespace rgx
