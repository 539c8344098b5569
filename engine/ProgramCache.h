// Builds a kernel file for one device with a set of options, keeps the build
// log, and caches built programs in memory and on disk (user cache directory,
// keyed by device, driver version, source hash and options).
#pragma once

#include "OpenCl.h"
#include "Result.h"
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace rgx {

struct BuiltProgram {
    cl::Program program;
    std::string fileName;
    std::string options;
    std::string buildLog;
    bool fromDiskCache = false;
    std::vector<KernelReport> kernels;
};

class ProgramCache {
public:
    ProgramCache() = default;
    void attach(const cl::Context& context, const cl::Device& device, std::string deviceKey,
                bool nvidia);

    // The program of kernels/<fileName> built with options; throws
    // OpenClError (with the log) when the build fails.
    const BuiltProgram& get(const std::string& fileName, const std::string& options);
    // The same, or null when the build fails (remembered: a failed build is
    // not tried again), for options a driver may refuse, such as inline PTX.
    const BuiltProgram* tryGet(const std::string& fileName, const std::string& options);

    // Where binaries are kept; empty disables the disk cache (tests set
    // RGX_CACHE_DIR to choose another place).
    static std::string diskCacheDirectory();

    // Told when a program is compiled from source (neither in memory nor on
    // disk yet): seconds on a CPU runtime, which OpenCL cannot interrupt, so
    // the explorer says what it waits for. Called on the thread that asked
    // for the program, `started` before the compiler and `finished` after
    // it (with its seconds; not where the build failed); empty: nothing.
    struct BuildListener {
        std::function<void(const std::string& fileName)> started;
        std::function<void(const std::string& fileName, double seconds)> finished;
    };
    void setBuildListener(BuildListener listener);

private:
    BuiltProgram build(const std::string& fileName, const std::string& options);

    cl::Context context_;
    cl::Device device_;
    std::string deviceKey_;
    bool nvidia_ = false;
    std::map<std::string, BuiltProgram> programs_;
    std::map<std::string, std::string> failed_; // key -> the build's error
    BuildListener buildListener_;
    std::mutex mutex_;
};

// Registers and spills per kernel from an NVIDIA -cl-nv-verbose build log.
void parseNvidiaVerboseLog(const std::string& log, std::vector<KernelReport>& kernels);

} // namespace rgx
