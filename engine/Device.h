// OpenCL platforms and devices: what each can do (the facts that decide which
// variants run), how a user names one, and the live context a run uses.
#pragma once

#include "ProgramCache.h"
#include "OpenCl.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo {
    int platformIndex = 0;
    int deviceIndex = 0;
    std::string platformName;
    std::string platformVersion;
    std::string name;
    std::string vendor;
    std::string driverVersion;
    std::string type;              // "CPU", "GPU", "accelerator"
    std::string openClVersion;     // "OpenCL 3.0 ..."
    std::string openClCVersion;    // highest OpenCL C version, "OpenCL C 1.2 ..."
    int openClCMajor = 1;
    int openClCMinor = 2;
    std::vector<std::string> openClCFeatures; // 3.0 feature macros
    bool workGroupCollectives = false;
    bool deviceEnqueue = false;
    bool subgroups = false;
    bool genericAddressSpace = false;
    std::vector<std::string> extensions;
    uint32_t computeUnits = 0;
    size_t maxWorkGroupSize = 0;
    uint64_t localMemoryBytes = 0;
    uint64_t maxAllocationBytes = 0;
    uint64_t globalMemoryBytes = 0;
    size_t timerResolutionNs = 0;

    std::string id() const; // "P:I"
    bool hasExtension(const std::string& name) const;
    bool isNvidia() const;
    bool isPocl() const;
    // Whether other threads may make OpenCL calls on this device while one
    // drives it (the resident session's background work): every runtime but
    // Oclgrind, which asserted in notifyKernelBegin when they did.
    bool takesCallsFromOtherThreads() const;
    // The -cl-std option for kernels that need OpenCL C 2.0 features.
    std::string openClCStandardOption(bool needsTwoPointZero) const;
};

std::vector<DeviceInfo> listDevices();

// DESIGN.md: "P:I", a bare index N (the N-th device as devicesText lists
// them), or a case-insensitive part of the platform or device name; empty:
// the first PoCL CPU device, else the first device.
// Throws InputError when nothing matches or no device exists.
DeviceInfo selectDevice(const std::string& spec);

std::string devicesText(const std::vector<DeviceInfo>& devices);
std::string devicesJson(const std::vector<DeviceInfo>& devices);

// A device opened for work: context, one profiling in-order queue, and the
// programs built for it. Owned by one thread at a time.
class ComputeDevice {
public:
    explicit ComputeDevice(const DeviceInfo& info);
    const DeviceInfo& info() const { return info_; }
    cl::Context& context() { return context_; }
    cl::Device& device() { return device_; }
    cl::CommandQueue& queue() { return queue_; }
    ProgramCache& programs() { return programs_; }
    // The default on-device queue that device-side enqueue needs, made on
    // first use (throws OpenClError where the device has none).
    cl::DeviceCommandQueue& deviceQueue();

private:
    DeviceInfo info_;
    cl::Device device_;
    cl::Context context_;
    cl::CommandQueue queue_;
    cl::DeviceCommandQueue deviceQueue_;
    ProgramCache programs_;
};

} // namespace rgx
