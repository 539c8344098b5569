#!/usr/bin/env bash
# The engine tests under AddressSanitizer and UndefinedBehaviorSanitizer (the
# `asan` CMake preset, build-asan/), with the suppression files of
# tests/sanitizers: every device, every variant, the resident session, Cancel.
# .ci/run calls it after the README's test command. Builds only the engine
# test binary; `ctest --preset asan` runs every suite (docs/TESTING.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake --preset asan >/dev/null
cmake --build --preset asan --target rgx_engine_tests

export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0:use_sigaltstack=0:suppressions=$PWD/tests/sanitizers/asan.supp"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export RGX_CACHE_DIR=$PWD/build-asan/kernel-cache
build-asan/tests/rgx_engine_tests --gtest_brief=1
echo "asan: the engine tests passed with no AddressSanitizer or UBSan report"
