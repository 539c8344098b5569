// Large host buffers for results read back from a device: fresh memory
// costs a page fault per 4 KiB page on first touch (tens of milliseconds for
// the maps of a 4096 x 4096 image), so it is offered for transparent huge
// pages first, where touching it faults once per 2 MiB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rgx {

// Advice only (Linux, where the system allows): a failure is harmless.
void adviseHugePages(const void* begin, size_t bytes);

// `bytes` of uninitialised host memory, advised so.
std::shared_ptr<uint8_t> pageableBlock(size_t bytes);

// Touches every page of `bytes` at `begin` (writes zeros), on up to four
// threads where the machine has cores to spare: page faults are the cost.
void touchInParallel(uint8_t* begin, size_t bytes);

// A map of `count` values, each `value`, advised so.
template <typename T>
std::vector<T> hostMap(size_t count, T value)
{
    std::vector<T> map;
    map.reserve(count);
    adviseHugePages(map.data(), count * sizeof(T));
    map.resize(count, value);
    return map;
}

} // namespace rgx
