// Host memory for large read-backs, offered for transparent huge pages.
#include "HostMemory.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace rgx {

void adviseHugePages(const void* begin, size_t bytes)
{
#ifdef __linux__
    // Only whole huge pages inside the block: the advice covers the pages it names.
    constexpr uintptr_t hugePage = 2u << 20;
    const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + hugePage - 1) & ~(hugePage - 1);
    const uintptr_t last = (reinterpret_cast<uintptr_t>(begin) + bytes) & ~(hugePage - 1);
    if (last > first)
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)begin;
    (void)bytes;
#endif
}

std::shared_ptr<uint8_t> pageableBlock(size_t bytes)
{
    std::shared_ptr<uint8_t> block(new uint8_t[bytes], std::default_delete<uint8_t[]>());
    adviseHugePages(block.get(), bytes);
    return block;
}

void touchInParallel(uint8_t* begin, size_t bytes)
{
    const unsigned threads = std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u);
    constexpr size_t hugePage = size_t(2) << 20;
    const size_t slice = (bytes / threads + hugePage - 1) / hugePage * hugePage;
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads && t * slice < bytes; ++t)
        helpers.emplace_back([=] { std::memset(begin + t * slice, 0, std::min(slice, bytes - t * slice)); });
    std::memset(begin, 0, std::min(slice, bytes));
    for (std::thread& helper : helpers)
        helper.join();
}

} // namespace rgx
