// Loading NPP and the CUDA runtime at run time, and timing NPP's flood fill.
#include "NppBaseline.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace rgx::bench {
namespace {

// NVIDIA's types as their headers lay them out (nppdefs.h of NPP 11 to 13,
// driver_types.h): declared here so that nothing of CUDA is needed to build.
// A wrong layout corrupts memory; the asserts pin the sizes and offsets.
using CudaError = int;    // cudaError_t; 0 is cudaSuccess
using CudaStream = void*; // cudaStream_t
using CudaEvent = void*;  // cudaEvent_t
using NppStatus = int;    // below 0 an error, above 0 a warning

struct NppiSize {
    int width;
    int height;
};
struct NppiPoint {
    int x;
    int y;
};
struct NppiRect {
    int x, y, width, height;
};
struct NppiConnectedRegion {
    NppiRect oBoundingBox;
    uint32_t nConnectedPixelCount;
    uint32_t aSeedPixelValue[3];
};
struct NppStreamContext {
    CudaStream hStream;
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
struct NppLibraryVersion {
    int major;
    int minor;
    int build;
};
static_assert(sizeof(NppiSize) == 8 && sizeof(NppiPoint) == 8);
static_assert(sizeof(NppiConnectedRegion) == 32 && offsetof(NppiConnectedRegion, nConnectedPixelCount) == 16);
static_assert(sizeof(NppStreamContext) == 48 && offsetof(NppStreamContext, nSharedMemPerBlock) == 24 &&
              offsetof(NppStreamContext, nStreamFlags) == 40);

// Enumerators passed as int (C enums).
constexpr int nppiNormInf = 0; // 8-connected
constexpr int nppiNormL1 = 1;  // 4-connected
constexpr int cudaMemcpyHostToDevice = 1;
constexpr int cudaMemcpyDeviceToHost = 2;
constexpr int cudaDevAttrMaxThreadsPerBlock = 1;
constexpr int cudaDevAttrMaxSharedMemoryPerBlock = 8;
constexpr int cudaDevAttrMultiProcessorCount = 16;
constexpr int cudaDevAttrMaxThreadsPerMultiProcessor = 39;
constexpr int cudaDevAttrComputeCapabilityMajor = 75;
constexpr int cudaDevAttrComputeCapabilityMinor = 76;

std::string versionText(int cudaVersion) // 12090 -> "12.9"
{
    return std::to_string(cudaVersion / 1000) + "." + std::to_string(cudaVersion % 1000 / 10);
}

} // namespace

// The functions, resolved once.
struct NppBaseline::Api {
    CudaError (*cudaGetDeviceCount)(int*) = nullptr;
    CudaError (*cudaSetDevice)(int) = nullptr;
    CudaError (*cudaDeviceGetAttribute)(int*, int, int) = nullptr;
    CudaError (*cudaRuntimeGetVersion)(int*) = nullptr;
    CudaError (*cudaDriverGetVersion)(int*) = nullptr;
    const char* (*cudaGetErrorString)(CudaError) = nullptr;
    CudaError (*cudaMalloc)(void**, size_t) = nullptr;
    CudaError (*cudaMallocPitch)(void**, size_t*, size_t, size_t) = nullptr;
    CudaError (*cudaFree)(void*) = nullptr;
    CudaError (*cudaMemcpy2D)(void*, size_t, const void*, size_t, size_t, size_t, int) = nullptr;
    CudaError (*cudaStreamCreate)(CudaStream*) = nullptr;
    CudaError (*cudaStreamDestroy)(CudaStream) = nullptr;
    CudaError (*cudaStreamSynchronize)(CudaStream) = nullptr;
    CudaError (*cudaStreamGetFlags)(CudaStream, unsigned int*) = nullptr;
    CudaError (*cudaEventCreate)(CudaEvent*) = nullptr;
    CudaError (*cudaEventDestroy)(CudaEvent) = nullptr;
    CudaError (*cudaEventRecord)(CudaEvent, CudaStream) = nullptr;
    CudaError (*cudaEventSynchronize)(CudaEvent) = nullptr;
    CudaError (*cudaEventElapsedTime)(float*, CudaEvent, CudaEvent) = nullptr;
    const NppLibraryVersion* (*nppGetLibVersion)() = nullptr;
    const char* (*nppGetGpuName)() = nullptr; // optional: gone from NPP 13
    // The size's type is int* up to NPP 12 and size_t* in some later
    // releases: it is given a zeroed size_t, which reads right either way on
    // a little-endian machine.
    NppStatus (*nppiFloodFillGetBufferSize)(NppiSize, void*) = nullptr;
    NppStatus (*nppiFloodFillRange_8u_C1IR_Ctx)(uint8_t*, int, NppiPoint, uint8_t, uint8_t, uint8_t, int, NppiSize,
                                                NppiConnectedRegion*, uint8_t*, NppStreamContext) = nullptr;
    NppStreamContext context{};

    void check(CudaError error, const char* call) const
    {
        if (error != 0)
            throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(error) + " (CUDA error " +
                                     std::to_string(error) + ")");
    }
};

namespace {

// The library `base` ("libnppif") in `directory`: base.so, else the highest
// base.so.N. Empty when there is none.
std::string findLibrary(const std::filesystem::path& directory, const std::string& base)
{
    std::string best;
    int bestVersion = -1;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
        const std::string name = entry.path().filename().string();
        if (name == base + ".so")
            return entry.path().string();
        if (name.rfind(base + ".so.", 0) == 0) {
            const int version = std::atoi(name.c_str() + base.size() + 4);
            if (version > bestVersion) {
                bestVersion = version;
                best = entry.path().string();
            }
        }
    }
    return best;
}

// Opened for good: CUDA's libraries are never unloaded (their exit handlers
// run at process exit, after the bench has released what it made).
void* openLibrary(const std::string& file, std::string& error)
{
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        error = dlerror();
    return handle;
}

template <typename Function>
bool resolve(void* library, const char* name, Function& function, std::string& missing)
{
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (!function)
        missing += std::string(missing.empty() ? "" : ", ") + name;
    return function != nullptr;
}

} // namespace

NppBaseline::NppBaseline(const std::string& directory)
{
    std::string folder = directory;
    if (folder.empty())
        if (const char* fromEnvironment = std::getenv("RGX_NPP_DIR"))
            folder = fromEnvironment;
    const std::string getIt = "scripts/npp-fetch.sh DIR fetches NPP and the CUDA runtime; then --npp-dir DIR";

    // Which files: from the folder, or by name through the loader's path
    // (a CUDA toolkit installed on the machine). NPP 13 before 12.
    std::string runtimeFile, coreFile, fillFile;
    if (!folder.empty()) {
        if (!std::filesystem::is_directory(folder)) {
            whyNot_ = "the NPP folder " + folder + " does not exist (" + getIt + ")";
            return;
        }
        runtimeFile = findLibrary(folder, "libcudart");
        coreFile = findLibrary(folder, "libnppc");
        fillFile = findLibrary(folder, "libnppif");
        if (runtimeFile.empty() || coreFile.empty() || fillFile.empty()) {
            whyNot_ = folder + " lacks libcudart, libnppc or libnppif (" + getIt + ")";
            return;
        }
    }
    std::string error;
    void* runtime = nullptr;
    void* core = nullptr;
    void* fill = nullptr;
    if (folder.empty()) {
        for (const char* version : {"13", "12"}) {
            if (!core && (core = dlopen((std::string("libnppc.so.") + version).c_str(), RTLD_NOW | RTLD_LOCAL)))
                fill = dlopen((std::string("libnppif.so.") + version).c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!runtime)
                runtime = dlopen((std::string("libcudart.so.") + version).c_str(), RTLD_NOW | RTLD_LOCAL);
        }
        if (!runtime || !core || !fill) {
            whyNot_ = "no --npp-dir or RGX_NPP_DIR, and libnppif.so.12/13 or libcudart.so.12/13 is not on the "
                      "loader's path (" + getIt + ")";
            return;
        }
    } else {
        // libnppc first: libnppif needs it, and finds it among the loaded libraries by its name.
        if (!(runtime = openLibrary(runtimeFile, error)) || !(core = openLibrary(coreFile, error)) ||
            !(fill = openLibrary(fillFile, error))) {
            whyNot_ = "the libraries in " + folder + " did not load: " + error;
            return;
        }
    }

    auto api = std::make_unique<Api>();
    std::string missing;
    resolve(runtime, "cudaGetDeviceCount", api->cudaGetDeviceCount, missing);
    resolve(runtime, "cudaSetDevice", api->cudaSetDevice, missing);
    resolve(runtime, "cudaDeviceGetAttribute", api->cudaDeviceGetAttribute, missing);
    resolve(runtime, "cudaRuntimeGetVersion", api->cudaRuntimeGetVersion, missing);
    resolve(runtime, "cudaDriverGetVersion", api->cudaDriverGetVersion, missing);
    resolve(runtime, "cudaGetErrorString", api->cudaGetErrorString, missing);
    resolve(runtime, "cudaMalloc", api->cudaMalloc, missing);
    resolve(runtime, "cudaMallocPitch", api->cudaMallocPitch, missing);
    resolve(runtime, "cudaFree", api->cudaFree, missing);
    resolve(runtime, "cudaMemcpy2D", api->cudaMemcpy2D, missing);
    resolve(runtime, "cudaStreamCreate", api->cudaStreamCreate, missing);
    resolve(runtime, "cudaStreamDestroy", api->cudaStreamDestroy, missing);
    resolve(runtime, "cudaStreamSynchronize", api->cudaStreamSynchronize, missing);
    resolve(runtime, "cudaStreamGetFlags", api->cudaStreamGetFlags, missing);
    resolve(runtime, "cudaEventCreate", api->cudaEventCreate, missing);
    resolve(runtime, "cudaEventDestroy", api->cudaEventDestroy, missing);
    resolve(runtime, "cudaEventRecord", api->cudaEventRecord, missing);
    resolve(runtime, "cudaEventSynchronize", api->cudaEventSynchronize, missing);
    resolve(runtime, "cudaEventElapsedTime", api->cudaEventElapsedTime, missing);
    resolve(core, "nppGetLibVersion", api->nppGetLibVersion, missing);
    resolve(fill, "nppiFloodFillGetBufferSize", api->nppiFloodFillGetBufferSize, missing);
    resolve(fill, "nppiFloodFillRange_8u_C1IR_Ctx", api->nppiFloodFillRange_8u_C1IR_Ctx, missing);
    if (!missing.empty()) {
        whyNot_ = "the NPP or CUDA runtime libraries lack " + missing;
        return;
    }
    std::string unused;
    resolve(core, "nppGetGpuName", api->nppGetGpuName, unused);

    // CUDA device 0, and the stream context NPP's _Ctx calls take.
    int devices = 0;
    if (const CudaError status = api->cudaGetDeviceCount(&devices); status != 0 || devices == 0) {
        whyNot_ = status != 0 ? std::string("the CUDA runtime found no usable GPU: cudaGetDeviceCount: ") +
                                    api->cudaGetErrorString(status) + " (no NVIDIA driver on this machine?)"
                              : std::string("the CUDA runtime found no GPU");
        return;
    }
    try {
        NppStreamContext& context = api->context;
        api->check(api->cudaSetDevice(0), "cudaSetDevice");
        context.nCudaDeviceId = 0;
        int sharedMemory = 0;
        api->check(api->cudaDeviceGetAttribute(&context.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, 0),
                   "cudaDeviceGetAttribute");
        api->check(api->cudaDeviceGetAttribute(&context.nMaxThreadsPerMultiProcessor,
                                               cudaDevAttrMaxThreadsPerMultiProcessor, 0),
                   "cudaDeviceGetAttribute");
        api->check(api->cudaDeviceGetAttribute(&context.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, 0),
                   "cudaDeviceGetAttribute");
        api->check(api->cudaDeviceGetAttribute(&sharedMemory, cudaDevAttrMaxSharedMemoryPerBlock, 0),
                   "cudaDeviceGetAttribute");
        context.nSharedMemPerBlock = size_t(sharedMemory);
        api->check(api->cudaDeviceGetAttribute(&context.nCudaDevAttrComputeCapabilityMajor,
                                               cudaDevAttrComputeCapabilityMajor, 0),
                   "cudaDeviceGetAttribute");
        api->check(api->cudaDeviceGetAttribute(&context.nCudaDevAttrComputeCapabilityMinor,
                                               cudaDevAttrComputeCapabilityMinor, 0),
                   "cudaDeviceGetAttribute");
        api->check(api->cudaStreamCreate(&context.hStream), "cudaStreamCreate");
        api->check(api->cudaStreamGetFlags(context.hStream, &context.nStreamFlags), "cudaStreamGetFlags");
    } catch (const std::exception& failure) {
        whyNot_ = std::string("CUDA device 0 did not open: ") + failure.what();
        return;
    }
    int runtimeVersion = 0, driverVersion = 0;
    api->cudaRuntimeGetVersion(&runtimeVersion);
    api->cudaDriverGetVersion(&driverVersion);
    const NppLibraryVersion* version = api->nppGetLibVersion();
    const char* gpuName = api->nppGetGpuName ? api->nppGetGpuName() : nullptr;
    description_ = "NPP " + std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
                   std::to_string(version->build) + ", CUDA runtime " + versionText(runtimeVersion) +
                   ", driver " + versionText(driverVersion) + ", " + (gpuName ? gpuName : "CUDA device 0") +
                   " (sm_" + std::to_string(api->context.nCudaDevAttrComputeCapabilityMajor) +
                   std::to_string(api->context.nCudaDevAttrComputeCapabilityMinor) + ", " +
                   std::to_string(api->context.nMultiProcessorCount) + " multiprocessors)";
    api_ = api.release();
}

NppBaseline::~NppBaseline()
{
    if (api_ && api_->context.hStream)
        api_->cudaStreamDestroy(api_->context.hStream);
    delete api_;
}

std::string NppBaseline::whyNotFor(const LumaImage& image)
{
    if (image.bitDepth != 8 || std::any_of(image.luma.begin(), image.luma.end(), [](uint16_t v) { return v > 255; }))
        return "a 16-bit image: NPP's 8-bit fill does not apply";
    return {};
}

NppFill NppBaseline::fill(const LumaImage& image, Seed seed, uint32_t lower, uint32_t upper, int connectivity,
                          int runs) const
{
    if (!api_)
        throw std::runtime_error("NPP is not available: " + whyNot_);
    const Api& api = *api_;
    const size_t width = size_t(image.width), height = size_t(image.height);
    std::vector<uint8_t> original(image.luma.size());
    std::transform(image.luma.begin(), image.luma.end(), original.begin(), [](uint16_t v) { return uint8_t(v); });

    NppFill result;
    const uint32_t seedValue = original[size_t(seed.y) * width + size_t(seed.x)];
    result.low = seedValue > lower ? seedValue - lower : 0;
    result.high = std::min<uint32_t>(255, seedValue + upper);
    // A value outside the range where there is one, so that the filled pixels
    // are told from the rest by their value alone.
    result.newValue = result.low > 0 ? 0 : result.high < 255 ? 255 : 0;

    // Everything made here is released on the way out, thrown or not.
    struct Resources {
        const Api& api;
        void* image = nullptr;
        void* scratch = nullptr;
        CudaEvent start = nullptr, stop = nullptr;
        ~Resources()
        {
            for (CudaEvent event : {start, stop})
                if (event)
                    api.cudaEventDestroy(event);
            for (void* memory : {image, scratch})
                if (memory)
                    api.cudaFree(memory);
        }
    } resources{api};
    size_t pitch = 0;
    api.check(api.cudaMallocPitch(&resources.image, &pitch, width, height), "cudaMallocPitch");
    const NppiSize size{image.width, image.height};
    size_t scratchBytes = 0;
    if (const NppStatus status = api.nppiFloodFillGetBufferSize(size, &scratchBytes); status < 0)
        throw std::runtime_error("nppiFloodFillGetBufferSize: NPP error " + std::to_string(status));
    api.check(api.cudaMalloc(&resources.scratch, std::max<size_t>(scratchBytes, 1)), "cudaMalloc");
    api.check(api.cudaEventCreate(&resources.start), "cudaEventCreate");
    api.check(api.cudaEventCreate(&resources.stop), "cudaEventCreate");

    auto* deviceImage = static_cast<uint8_t*>(resources.image);
    auto* scratch = static_cast<uint8_t*>(resources.scratch);
    const CudaStream stream = api.context.hStream;
    auto upload = [&] {
        api.check(api.cudaMemcpy2D(deviceImage, pitch, original.data(), width, width, height, cudaMemcpyHostToDevice),
                  "cudaMemcpy2D to the GPU");
        api.check(api.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    };
    auto fillOnce = [&](NppiConnectedRegion* region) {
        const NppStatus status = api.nppiFloodFillRange_8u_C1IR_Ctx(
            deviceImage, int(pitch), NppiPoint{seed.x, seed.y}, uint8_t(result.low), uint8_t(result.high),
            result.newValue, connectivity == 8 ? nppiNormInf : nppiNormL1, size, region, scratch, api.context);
        if (status < 0)
            throw std::runtime_error("nppiFloodFillRange_8u_C1IR_Ctx: NPP error " + std::to_string(status));
    };

    // The run that is checked: with NPP's count, its result read back.
    upload();
    NppiConnectedRegion region{};
    fillOnce(&region);
    api.check(api.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    result.reportedPixels = region.nConnectedPixelCount;
    result.filled.resize(original.size());
    api.check(api.cudaMemcpy2D(result.filled.data(), width, deviceImage, pitch, width, height, cudaMemcpyDeviceToHost),
              "cudaMemcpy2D from the GPU");

    // The timed runs, without the count (NPP: it may cost a little).
    using Clock = std::chrono::steady_clock;
    for (int r = 0; r < runs; ++r) {
        upload();
        const auto start = Clock::now();
        api.check(api.cudaEventRecord(resources.start, stream), "cudaEventRecord");
        fillOnce(nullptr);
        api.check(api.cudaEventRecord(resources.stop, stream), "cudaEventRecord");
        api.check(api.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
        result.hostMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        float eventMs = 0;
        api.check(api.cudaEventElapsedTime(&eventMs, resources.start, resources.stop), "cudaEventElapsedTime");
        result.eventMs.push_back(double(eventMs));
    }
    return result;
}

} // namespace rgx::bench
