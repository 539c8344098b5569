// Kernel sources compiled into the binary (generated from kernels/*.cl and
// kernels/*.h by cmake/EmbedKernels.cmake).
#pragma once

#include <string>

namespace rgx {

// The text of kernels/<fileName>; throws std::out_of_range for an unknown name.
const std::string& embeddedKernel(const std::string& fileName);

} // namespace rgx
