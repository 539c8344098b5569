// The message of the InputError an action throws, for tests of the one
// clear message every bad input gets.
#pragma once

#include "Errors.h"

#include <gtest/gtest.h>
#include <string>

namespace rgx::test {

// The InputError's text, or a test failure (and "") when none is thrown.
template <typename Action>
std::string inputErrorOf(Action action)
{
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "no InputError was thrown";
    return {};
}

} // namespace rgx::test
