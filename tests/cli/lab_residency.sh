#!/usr/bin/env bash
# rgx-cli lab residency (DESIGN.md): on the default device and on every other
# CPU runtime it lists, the line `resident work-groups: N` with N >= 1, RGX's
# own count, a launch with more groups whose roll call says "not resident"
# (and returns: the command ends), the fallback's two runs, both exact; a bad
# option is exit 2 with one line naming it.
# Usage: lab_residency.sh RGX_CLI
set -u
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; cat "$work/out" "$work/err" 2>/dev/null; exit 1; }

run_lab() { # device spec, or none for the default
    timeout 300 "$cli" lab residency ${1:+--device "$1"} --time-limit 60 >"$work/out" 2>"$work/err"
    local code=$?
    [ "$code" -eq 0 ] || fail "lab residency ${1:+--device $1 }exited with $code"
    grep -qE '^resident work-groups: [1-9][0-9]*$' "$work/out" || fail "no line 'resident work-groups: N' (N >= 1)"
    grep -qE "^RGX's fused launches: [0-9]+ work-groups" "$work/out" || fail "no line with RGX's fused count"
    grep -qE '^launch with more: [0-9]+ work-groups: roll call verdict not resident' "$work/out" ||
        fail "no launch with more groups, or its verdict was not 'not resident'"
    grep -qE '^  forced, .*roll call failed.*, exact$' "$work/out" || fail "the forced run did not fall back exactly"
    grep -qE '^  fused, .*, exact$' "$work/out" || fail "the fused run was not exact"
    echo "${1:-default}: $(grep -E '^(device|resident work-groups|fallback cost)' "$work/out" | tr '\n' ' ')"
}

run_lab ""
# Intel's CPU runtime too, where it is installed.
if "$cli" devices | grep -q 'Intel(R) OpenCL'; then
    run_lab "Intel(R) OpenCL"
fi

"$cli" lab residency --size 3 >"$work/out" 2>"$work/err"
[ $? -eq 2 ] || fail "an option the residency lab does not take was not exit 2"
grep -q -- '--size' "$work/err" || fail "the error does not name the option"
"$cli" lab residency --time-limit 0 >"$work/out" 2>"$work/err"
[ $? -eq 2 ] || fail "--time-limit 0 was not exit 2"
"$cli" lab --help | grep -q 'rgx-cli lab residency' || fail "lab --help does not show lab residency"
echo "lab residency: ok"
