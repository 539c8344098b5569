// A stand-in for NVIDIA's libcudart, libnppc and libnppif, built three times
// (FAKE_CUDART, FAKE_NPPC, FAKE_NPPIF) so that bench_photos.sh can run the
// bench's NPP baseline (engine/bench/NppBaseline) where there is no GPU: the
// "device" memory is host memory and the flood fill runs on the CPU. It
// declares the types as NVIDIA's headers lay them out, independently of
// NppBaseline.cpp, and refuses a stream context whose fields do not hold
// what cudaDeviceGetAttribute gave (a layout that disagrees).
// Environment: RGX_FAKE_CUDA_NO_DRIVER=1 answers as a machine without
// NVIDIA's driver; RGX_FAKE_NPP_WRONG=1 fills only part of the region.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {

#if defined(FAKE_CUDART)

namespace {
constexpr int insufficientDriver = 35; // cudaErrorInsufficientDriver
bool noDriver() { return std::getenv("RGX_FAKE_CUDA_NO_DRIVER") != nullptr; }
}

int cudaGetDeviceCount(int* count)
{
    if (noDriver())
        return insufficientDriver;
    *count = 1;
    return 0;
}
int cudaSetDevice(int) { return 0; }
int cudaDeviceGetAttribute(int* value, int attribute, int)
{
    switch (attribute) {
    case 1: *value = 1024; break;   // threads per block
    case 8: *value = 49152; break;  // shared memory per block
    case 16: *value = 3; break;     // multiprocessors
    case 39: *value = 2048; break;  // threads per multiprocessor
    case 75: *value = 9; break;     // compute capability
    case 76: *value = 0; break;
    default: return 1;              // cudaErrorInvalidValue
    }
    return 0;
}
int cudaRuntimeGetVersion(int* version) { *version = 12090; return 0; }
int cudaDriverGetVersion(int* version) { *version = noDriver() ? 0 : 13000; return 0; }
const char* cudaGetErrorString(int error)
{
    return error == insufficientDriver ? "CUDA driver version is insufficient for CUDA runtime version"
                                       : "fake CUDA error";
}
int cudaMalloc(void** memory, size_t bytes) { return (*memory = std::malloc(bytes)) ? 0 : 2; }
int cudaMallocPitch(void** memory, size_t* pitch, size_t width, size_t height)
{
    *pitch = (width + 511) / 512 * 512; // a pitch wider than the row, as a GPU's is
    return (*memory = std::malloc(*pitch * height)) ? 0 : 2;
}
int cudaFree(void* memory) { std::free(memory); return 0; }
int cudaMemcpy2D(void* destination, size_t destinationPitch, const void* source, size_t sourcePitch, size_t width,
                 size_t height, int)
{
    for (size_t y = 0; y < height; ++y)
        std::memcpy(static_cast<char*>(destination) + y * destinationPitch,
                    static_cast<const char*>(source) + y * sourcePitch, width);
    return 0;
}
int cudaStreamCreate(void** stream) { *stream = reinterpret_cast<void*>(0x5157); return 0; }
int cudaStreamDestroy(void*) { return 0; }
int cudaStreamSynchronize(void*) { return 0; }
int cudaStreamGetFlags(void*, unsigned int* flags) { *flags = 0; return 0; }
int cudaEventCreate(void** event) { *event = std::malloc(1); return 0; }
int cudaEventDestroy(void* event) { std::free(event); return 0; }
int cudaEventRecord(void*, void*) { return 0; }
int cudaEventSynchronize(void*) { return 0; }
int cudaEventElapsedTime(float* milliseconds, void*, void*) { *milliseconds = 0.25f; return 0; }

#elif defined(FAKE_NPPC)

struct NppLibraryVersion {
    int major, minor, build;
};
const NppLibraryVersion* nppGetLibVersion()
{
    static const NppLibraryVersion version{12, 4, 1};
    return &version;
}
const char* nppGetGpuName() { return "Fake GPU"; }
int fakeNppCoreLoaded() { return 1; } // libnppif needs this library, as the real one needs libnppc

#elif defined(FAKE_NPPIF)

int fakeNppCoreLoaded();

struct NppiSize {
    int width, height;
};
struct NppiPoint {
    int x, y;
};
struct NppiConnectedRegion {
    int box[4];
    uint32_t nConnectedPixelCount;
    uint32_t aSeedPixelValue[3];
};
struct NppStreamContext {
    void* hStream;
    int nCudaDeviceId;
    int nMultiProcessorCount;
    int nMaxThreadsPerMultiProcessor;
    int nMaxThreadsPerBlock;
    size_t nSharedMemPerBlock;
    int nCudaDevAttrComputeCapabilityMajor;
    int nCudaDevAttrComputeCapabilityMinor;
    unsigned int nStreamFlags;
    int nReserved0;
};

// NPP 12 writes an int.
int nppiFloodFillGetBufferSize(NppiSize size, int* bytes)
{
    *bytes = size.width * size.height;
    return fakeNppCoreLoaded() ? 0 : -1;
}

// A breadth-first fill of the pixels in min..max connected to the seed.
int nppiFloodFillRange_8u_C1IR_Ctx(uint8_t* image, int step, NppiPoint seed, uint8_t minimum, uint8_t maximum,
                                   uint8_t newValue, int norm, NppiSize size, NppiConnectedRegion* region,
                                   uint8_t* scratch, NppStreamContext context)
{
    if (context.hStream != reinterpret_cast<void*>(0x5157) || context.nMultiProcessorCount != 3 ||
        context.nMaxThreadsPerMultiProcessor != 2048 || context.nMaxThreadsPerBlock != 1024 ||
        context.nSharedMemPerBlock != 49152 || context.nCudaDevAttrComputeCapabilityMajor != 9 ||
        context.nCudaDevAttrComputeCapabilityMinor != 0)
        return -1000; // not the stream context that was made
    if (step < size.width || !scratch || seed.x < 0 || seed.y < 0 || seed.x >= size.width || seed.y >= size.height)
        return -6;
    const bool wrong = std::getenv("RGX_FAKE_NPP_WRONG") != nullptr;
    const size_t pixels = size_t(size.width) * size_t(size.height);
    std::vector<uint8_t> seen(pixels, 0);
    std::vector<NppiPoint> queue{seed};
    seen[size_t(seed.y) * size_t(size.width) + size_t(seed.x)] = 1;
    uint32_t filled = 0;
    const uint8_t seedValue = image[size_t(seed.y) * size_t(step) + size_t(seed.x)];
    for (size_t next = 0; next < queue.size(); ++next) {
        const NppiPoint p = queue[next];
        uint8_t& value = image[size_t(p.y) * size_t(step) + size_t(p.x)];
        if (value < minimum || value > maximum)
            continue;
        if (wrong && filled * 2 >= pixels / 8)
            break; // stops early: a region too small
        value = newValue;
        ++filled;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int x = p.x + dx, y = p.y + dy;
                if ((dx == 0 && dy == 0) || (norm == 1 && dx != 0 && dy != 0) || x < 0 || y < 0 ||
                    x >= size.width || y >= size.height)
                    continue;
                uint8_t& mark = seen[size_t(y) * size_t(size.width) + size_t(x)];
                if (!mark) {
                    mark = 1;
                    queue.push_back({x, y});
                }
            }
    }
    if (region) {
        std::memset(region, 0, sizeof *region);
        region->nConnectedPixelCount = filled;
        region->aSeedPixelValue[0] = seedValue;
    }
    return 0;
}

#endif

} // extern "C"
