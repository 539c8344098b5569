#!/usr/bin/env bash
# Runs a test command (CTest's launcher for the engine and stress tests):
# where Intel's CPU OpenCL compiler crashed inside it, runs it once more and
# says so; any other failure is the test's own. LLVM's crash handler in
# Intel's runtime asks for a bug report to Intel; the crash came at a
# program's first build under `ctest -j2` (twice in three full runs on a
# 2-core machine, 2026-11-26), never when the same build ran again.
#   retry_intel_compiler_crash.sh COMMAND [ARGS...]
set -u
log=$(mktemp)
"$@" 2>"$log"
status=$?
cat "$log" >&2 # the test's stderr, after its stdout
if [ "$status" -ne 0 ] && grep -q "PLEASE submit a bug report to https://software.intel.com" "$log"; then
    rm -f "$log"
    echo "retry_intel_compiler_crash: Intel's OpenCL compiler crashed (exit $status); the test runs once more" >&2
    exec "$@"
fi
rm -f "$log"
exit "$status"
