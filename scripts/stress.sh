#!/usr/bin/env bash
# Random stress against the CPU reference: N cases per device (default
# 1000), each on the next correct variant the device can run
# (tests/stress/StressTest.cpp says what a case is). Needs a build in
# build/ (scripts/test.sh or cmake --build build). Prints per device how
# many cases equalled the reference; exit 0 when all did.
#   bash scripts/stress.sh [N] [SEED]   (RGX_STRESS_VARIANTS=TEXT: only the variants whose text contains TEXT)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cases=${1:-1000}
seed=${2:-1}
binary=build/tests/stress/rgx_stress_tests
if [[ ! -x $binary ]]; then
    echo "stress.sh: $binary is missing; build first (cmake --build build)" >&2
    exit 2
fi
RGX_STRESS_CASES=$cases RGX_STRESS_SEED=$seed RGX_CACHE_DIR=${RGX_CACHE_DIR:-build/kernel-cache} \
    "$binary" --gtest_brief=1 | grep -vE '^Running main|^$'
