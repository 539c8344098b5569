// The one place that configures the Khronos C++ bindings (see DESIGN.md's
// pitfall on CL_HPP_MINIMUM_OPENCL_VERSION).
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
