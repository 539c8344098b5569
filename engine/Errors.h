// The two kinds of failure a user can act on: bad input (exit code 2) and an
// OpenCL failure (exit code 3, with the build log where there is one).
#pragma once

#include <stdexcept>
#include <string>

namespace rgx {

// Something the user gave is wrong: a file, a seed, an option, a variant.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The OpenCL runtime refused or failed; carries the error code and, for a
// failed program build, the compiler's log.
class OpenClError : public std::runtime_error {
public:
    OpenClError(const std::string& message, int code = 0, std::string buildLog = {})
        : std::runtime_error(message), code_(code), buildLog_(std::move(buildLog)) {}
    int code() const { return code_; }
    const std::string& buildLog() const { return buildLog_; }

private:
    int code_;
    std::string buildLog_;
};

// A run stopped because its caller cancelled it or its time ran out.
class RunInterrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Readable name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
std::string openClErrorName(int code);

} // namespace rgx
