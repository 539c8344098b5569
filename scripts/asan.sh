#!/usr/bin/env bash
# The engine tests under AddressSanitizer and UndefinedBehaviorSanitizer (the
# `asan` CMake preset, build-asan/), with the suppression files of
# tests/sanitizers: every device, every variant, the resident session, Cancel;
# then the monkey test (a random user of the whole window) for 15 s.
# .ci/run calls it after the README's test command. Builds only these two
# test binaries; `ctest --preset asan` runs every suite (docs/TESTING.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake --preset asan >/dev/null
cmake --build --preset asan --target rgx_engine_tests rgx_gui_monkey_tests

export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0:use_sigaltstack=0:suppressions=$PWD/tests/sanitizers/asan.supp"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The kernels' binaries of the README's test run where it left them (the
# same sources, options and devices: loaded, not built again; PoCL builds a
# program in 20 to 60 s on two cores), else a cache of its own.
if [[ -d build/kernel-cache ]]; then
    export RGX_CACHE_DIR=$PWD/build/kernel-cache
else
    export RGX_CACHE_DIR=$PWD/build-asan/kernel-cache
fi
# Left out under the sanitizers: the volume equivalence cases (every
# variant on every device: the host code the 2D equivalence cases run here
# already, about 100 s more on two cores), the residency lab (its time is
# the device waiting at roll calls), the host-sync and host-batched sweep
# variants on Intel's runtime (their host code is the same on PoCL, which
# runs them here; about 110 s of Intel's kernels), and on Intel, the
# collectives builtin and subgroup with host-sync and fusion=grid-barrier,
# and device-enqueue with any collectives but atomics (the collectives
# change the kernels' defines, not the host code that host-batched's and
# fusion=tiles' subgroup and builtin cases and device-enqueue's atomics
# cases run here; about 120 s): CI stays under 30 minutes on two cores
# (31.4 min before, 2026-11-28).
# The whole log goes to a file; where the run fails (a crash inside a
# runtime's kernel names no test in its stack), its last lines name the test.
log=build-asan/engine-tests.log
intel='AllDevices/DeviceEquivalence.*/Intel*'
left_out="*VolumeEquivalence*:ResidencyLab.*:${intel}_host_*_frontier_sweep_*"
for collectives in builtin subgroup; do
    left_out+=":${intel}_host_sync_*_collectives_$collectives*:${intel}_collectives_${collectives}_fusion_grid_barrier"
done
for collectives in local builtin subgroup; do
    left_out+=":${intel}_device_enqueue_*_collectives_$collectives*"
done
if ! build-asan/tests/rgx_engine_tests \
    --gtest_filter="-$left_out" \
    >"$log" 2>&1; then
    grep -E '^\[  FAILED  \]' "$log" || true
    echo "asan: the engine tests failed; the last lines of $log:"
    tail -n 60 "$log"
    exit 1
fi
grep -E '^\[==========\]|^\[  PASSED  \]' "$log"
echo "asan: the engine tests passed with no AddressSanitizer or UBSan report"

# Settings of its own (it writes none); LeakSanitizer reports at its exit.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data \
    RGX_MONKEY_SECONDS=${RGX_MONKEY_SECONDS:-15} \
    build-asan/tests/gui/rgx_gui_monkey_tests aRandomUserFindsNoCrashHangWarningOrLeak
echo "asan: the monkey test passed with no AddressSanitizer, UBSan or LeakSanitizer report"
