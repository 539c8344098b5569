// Platform and device discovery through the ICD loader, the capabilities
// that gate variants, and opening a device for work.
#include "Device.h"
#include "Errors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cctype>
#include <sstream>

namespace rgx {
namespace {

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\0' || std::isspace((unsigned char)text.back())))
        text.pop_back();
    return text;
}

template <typename T>
bool queryScalar(cl_device_id device, cl_device_info what, T& value)
{
    return clGetDeviceInfo(device, what, sizeof(T), &value, nullptr) == CL_SUCCESS;
}

std::string queryString(cl_device_id device, cl_device_info what)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string text(size, '\0');
    if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS)
        return {};
    return trimmed(text);
}

// "OpenCL C 1.2 pocl" -> (1, 2)
void parseVersion(const std::string& text, const std::string& prefix, int& major, int& minor)
{
    const size_t at = text.find(prefix);
    if (at == std::string::npos)
        return;
    std::istringstream stream(text.substr(at + prefix.size()));
    char dot = 0;
    int a = 0, b = 0;
    if (stream >> a >> dot >> b && dot == '.') {
        major = a;
        minor = b;
    }
}

DeviceInfo describeDevice(cl_platform_id platform, cl_device_id device, int platformIndex,
                          int deviceIndex)
{
    DeviceInfo info;
    info.platformIndex = platformIndex;
    info.deviceIndex = deviceIndex;
    auto platformString = [&](cl_platform_info what) {
        size_t size = 0;
        clGetPlatformInfo(platform, what, 0, nullptr, &size);
        std::string text(size, '\0');
        clGetPlatformInfo(platform, what, size, text.data(), nullptr);
        return trimmed(text);
    };
    info.platformName = platformString(CL_PLATFORM_NAME);
    info.platformVersion = platformString(CL_PLATFORM_VERSION);
    info.name = queryString(device, CL_DEVICE_NAME);
    info.vendor = queryString(device, CL_DEVICE_VENDOR);
    info.driverVersion = queryString(device, CL_DRIVER_VERSION);
    info.openClVersion = queryString(device, CL_DEVICE_VERSION);
    info.openClCVersion = queryString(device, CL_DEVICE_OPENCL_C_VERSION);
    parseVersion(info.openClCVersion, "OpenCL C ", info.openClCMajor, info.openClCMinor);

    cl_device_type type = 0;
    queryScalar(device, CL_DEVICE_TYPE, type);
    info.type = (type & CL_DEVICE_TYPE_GPU) ? "GPU"
                : (type & CL_DEVICE_TYPE_CPU) ? "CPU"
                : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";

    std::istringstream extensions(queryString(device, CL_DEVICE_EXTENSIONS));
    for (std::string name; extensions >> name;)
        info.extensions.push_back(name);

    cl_uint units = 0;
    queryScalar(device, CL_DEVICE_MAX_COMPUTE_UNITS, units);
    info.computeUnits = units;
    queryScalar(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, info.maxWorkGroupSize);
    cl_ulong bytes = 0;
    if (queryScalar(device, CL_DEVICE_LOCAL_MEM_SIZE, bytes))
        info.localMemoryBytes = bytes;
    if (queryScalar(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, bytes))
        info.maxAllocationBytes = bytes;
    if (queryScalar(device, CL_DEVICE_GLOBAL_MEM_SIZE, bytes))
        info.globalMemoryBytes = bytes;
    queryScalar(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, info.timerResolutionNs);

    int deviceMajor = 1, deviceMinor = 0;
    parseVersion(info.openClVersion, "OpenCL ", deviceMajor, deviceMinor);
    if (deviceMajor >= 3) {
        // OpenCL 3.0: the highest OpenCL C version and the optional features
        // are reported separately; CL_DEVICE_OPENCL_C_VERSION stays at 1.2.
        size_t size = 0;
        if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &size) == CL_SUCCESS) {
            std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
            clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, versions.data(), nullptr);
            for (const cl_name_version& version : versions) {
                const int major = int(CL_VERSION_MAJOR(version.version));
                const int minor = int(CL_VERSION_MINOR(version.version));
                if (major > info.openClCMajor || (major == info.openClCMajor && minor > info.openClCMinor)) {
                    info.openClCMajor = major;
                    info.openClCMinor = minor;
                }
            }
            info.openClCVersion = "OpenCL C " + std::to_string(info.openClCMajor) + "." +
                                  std::to_string(info.openClCMinor);
        }
        size = 0;
        if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size) == CL_SUCCESS) {
            std::vector<cl_name_version> features(size / sizeof(cl_name_version));
            clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr);
            for (const cl_name_version& feature : features)
                info.openClCFeatures.push_back(trimmed(std::string(feature.name, strnlen(feature.name, CL_NAME_VERSION_MAX_NAME_SIZE))));
        }
        auto hasFeature = [&](const std::string& name) {
            return std::find(info.openClCFeatures.begin(), info.openClCFeatures.end(), name) !=
                   info.openClCFeatures.end();
        };
        info.workGroupCollectives = hasFeature("__opencl_c_work_group_collective_functions");
        info.deviceEnqueue = hasFeature("__opencl_c_device_enqueue");
        info.subgroups = hasFeature("__opencl_c_subgroups");
        info.genericAddressSpace = hasFeature("__opencl_c_generic_address_space");
    } else if (info.openClCMajor == 2) {
        info.workGroupCollectives = true;
        info.deviceEnqueue = true;
        info.genericAddressSpace = true;
        info.subgroups = info.hasExtension("cl_khr_subgroups");
    }
    return info;
}

} // namespace

std::string DeviceInfo::id() const
{
    return std::to_string(platformIndex) + ":" + std::to_string(deviceIndex);
}

bool DeviceInfo::hasExtension(const std::string& extension) const
{
    return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
}

bool DeviceInfo::takesCallsFromOtherThreads() const
{
    return lower(platformName).find("oclgrind") == std::string::npos;
}

bool DeviceInfo::isNvidia() const
{
    return lower(platformName).find("nvidia") != std::string::npos;
}

bool DeviceInfo::isPocl() const
{
    return lower(platformName).find("portable computing language") != std::string::npos ||
           lower(platformName).find("pocl") != std::string::npos;
}

std::string DeviceInfo::openClCStandardOption(bool needsTwoPointZero) const
{
    if (!needsTwoPointZero)
        return "-cl-std=CL1.2";
    return openClCMajor >= 3 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

std::vector<DeviceInfo> listDevices()
{
    cl_uint platformCount = 0;
    const cl_int status = clGetPlatformIDs(0, nullptr, &platformCount);
    if (status != CL_SUCCESS || platformCount == 0)
        return {};
    std::vector<cl_platform_id> platforms(platformCount);
    clGetPlatformIDs(platformCount, platforms.data(), nullptr);

    std::vector<DeviceInfo> devices;
    for (cl_uint p = 0; p < platformCount; ++p) {
        cl_uint deviceCount = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount) != CL_SUCCESS)
            continue;
        std::vector<cl_device_id> ids(deviceCount);
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, deviceCount, ids.data(), nullptr);
        for (cl_uint d = 0; d < deviceCount; ++d)
            devices.push_back(describeDevice(platforms[p], ids[d], int(p), int(d)));
    }
    return devices;
}

DeviceInfo selectDevice(const std::string& spec)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty())
        throw InputError("no OpenCL device found (is an ICD such as pocl-opencl-icd installed? "
                         "clinfo -l lists what the loader sees)");
    if (spec.empty()) {
        for (const DeviceInfo& device : devices)
            if (device.isPocl() && device.type == "CPU")
                return device;
        return devices.front();
    }
    for (const DeviceInfo& device : devices)
        if (device.id() == spec)
            return device;
    // A bare index: the N-th device as `rgx-cli devices` lists them.
    if (std::all_of(spec.begin(), spec.end(), [](unsigned char c) { return std::isdigit(c); })) {
        const size_t index = spec.size() <= 4 ? size_t(std::stoul(spec)) : devices.size();
        if (index < devices.size())
            return devices[index];
        throw InputError("there is no device " + spec + ": rgx-cli devices lists " + std::to_string(devices.size()) +
                         (devices.size() == 1 ? " device, number 0" : " devices, numbered 0 to " +
                                                                          std::to_string(devices.size() - 1)));
    }
    const std::string wanted = lower(spec);
    // "pocl" is what users call the Portable Computing Language platform.
    if (wanted == "pocl")
        for (const DeviceInfo& device : devices)
            if (device.isPocl())
                return device;
    for (const DeviceInfo& device : devices)
        if (lower(device.platformName).find(wanted) != std::string::npos ||
            lower(device.name).find(wanted) != std::string::npos)
            return device;
    std::string known;
    for (const DeviceInfo& device : devices)
        known += (known.empty() ? "" : ", ") + device.id() + " " + device.name;
    throw InputError("no OpenCL device matches '" + spec + "' (devices: " + known + ")");
}

std::string devicesText(const std::vector<DeviceInfo>& devices)
{
    std::ostringstream out;
    for (const DeviceInfo& d : devices) {
        out << d.id() << "  " << d.name << "  [" << d.platformName << "]\n"
            << "     type " << d.type << ", " << d.openClVersion << ", " << d.openClCVersion
            << ", driver " << d.driverVersion << "\n"
            << "     compute units " << d.computeUnits << ", max work-group " << d.maxWorkGroupSize
            << ", local memory " << d.localMemoryBytes / 1024 << " KiB, max allocation "
            << d.maxAllocationBytes / (1024 * 1024) << " MiB, timer resolution "
            << d.timerResolutionNs << " ns\n"
            << "     work-group collectives " << (d.workGroupCollectives ? "yes" : "no")
            << ", device enqueue " << (d.deviceEnqueue ? "yes" : "no") << ", subgroups "
            << (d.subgroups ? "yes" : "no") << ", generic address space "
            << (d.genericAddressSpace ? "yes" : "no") << "\n";
        if (!d.openClCFeatures.empty()) {
            out << "     features";
            for (const std::string& feature : d.openClCFeatures)
                out << " " << feature;
            out << "\n";
        }
        out << "     extensions";
        for (const std::string& extension : d.extensions)
            out << " " << extension;
        out << "\n";
    }
    return out.str();
}

std::string devicesJson(const std::vector<DeviceInfo>& devices)
{
    QJsonArray array;
    auto strings = [](const std::vector<std::string>& values) {
        QJsonArray list;
        for (const std::string& value : values)
            list.append(QString::fromStdString(value));
        return list;
    };
    for (const DeviceInfo& d : devices) {
        QJsonObject object;
        object["id"] = QString::fromStdString(d.id());
        object["platform"] = QString::fromStdString(d.platformName);
        object["platformVersion"] = QString::fromStdString(d.platformVersion);
        object["name"] = QString::fromStdString(d.name);
        object["vendor"] = QString::fromStdString(d.vendor);
        object["driverVersion"] = QString::fromStdString(d.driverVersion);
        object["type"] = QString::fromStdString(d.type);
        object["openclVersion"] = QString::fromStdString(d.openClVersion);
        object["openclCVersion"] = QString::fromStdString(d.openClCVersion);
        object["openclCFeatures"] = strings(d.openClCFeatures);
        object["workGroupCollectives"] = d.workGroupCollectives;
        object["deviceEnqueue"] = d.deviceEnqueue;
        object["subgroups"] = d.subgroups;
        object["genericAddressSpace"] = d.genericAddressSpace;
        object["extensions"] = strings(d.extensions);
        object["computeUnits"] = qint64(d.computeUnits);
        object["maxWorkGroupSize"] = qint64(d.maxWorkGroupSize);
        object["localMemoryBytes"] = qint64(d.localMemoryBytes);
        object["maxAllocationBytes"] = qint64(d.maxAllocationBytes);
        object["globalMemoryBytes"] = qint64(d.globalMemoryBytes);
        object["timerResolutionNs"] = qint64(d.timerResolutionNs);
        array.append(object);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented).toStdString();
}

ComputeDevice::ComputeDevice(const DeviceInfo& info) : info_(info)
{
    try {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        if (info.platformIndex >= int(platforms.size()))
            throw OpenClError("OpenCL platform " + info.id() + " disappeared");
        std::vector<cl::Device> devices;
        platforms[info.platformIndex].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        if (info.deviceIndex >= int(devices.size()))
            throw OpenClError("OpenCL device " + info.id() + " disappeared");
        device_ = devices[info.deviceIndex];
        context_ = cl::Context(device_);
        queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE);
        programs_.attach(context_, device_,
                         info.platformName + "|" + info.name + "|" + info.driverVersion,
                         info.isNvidia());
    } catch (const cl::Error& error) {
        throw OpenClError("cannot open OpenCL device " + info.id() + " (" + info.name +
                              "): " + error.what() + " " + openClErrorName(error.err()),
                          error.err());
    }
}

cl::DeviceCommandQueue& ComputeDevice::deviceQueue()
{
    if (deviceQueue_() == nullptr) {
        try {
            deviceQueue_ = cl::DeviceCommandQueue::makeDefault(context_, device_);
        } catch (const cl::Error& error) {
            throw OpenClError("cannot create the on-device queue of " + info_.name + ": " +
                                  openClErrorName(error.err()),
                              error.err());
        }
    }
    return deviceQueue_;
}

} // namespace rgx
