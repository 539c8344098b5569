// The parameter of the tests that run every correct variant on every
// OpenCL device this machine has (images and volumes alike), and the names
// gtest and CTest show for it.
#pragma once

#include "Device.h"
#include "Variant.h"

#include <gtest/gtest.h>
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

namespace rgx::test {

struct DeviceVariant {
    DeviceInfo device;
    GrowVariant variant;
};

// Shown by gtest and CTest instead of a byte dump of the parameter.
inline void PrintTo(const DeviceVariant& value, std::ostream* out)
{
    *out << value.device.id() << " " << value.device.name << " " << value.variant.text();
}

inline std::vector<DeviceVariant> correctVariantsOnEveryDevice()
{
    std::vector<DeviceVariant> cases;
    for (const DeviceInfo& device : listDevices())
        for (const GrowVariant& variant : allVariants())
            if (!variant.wrongOnPurpose() && !whyUnavailable(variant, device))
                cases.push_back({device, variant});
    return cases;
}

inline std::string caseName(const testing::TestParamInfo<DeviceVariant>& info)
{
    std::string name = info.param.device.platformName.substr(0, 12) + "_" + info.param.variant.text();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name;
}

} // namespace rgx::test
