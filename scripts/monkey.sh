#!/usr/bin/env bash
# The monkey test for longer (tests/gui/MonkeyTest.cpp): a scripted random
# user of the whole window, offscreen, for MINUTES (default 5), its actions
# drawn from SEED (default 28). Builds the test into build/ first. Prints
# the seed, the resident memory after each round and the actions done;
# exit 0 when it found no crash, hang, Qt warning or growth of memory.
#   bash scripts/monkey.sh [MINUTES] [SEED]
#   RGX_MONKEY_ACTIONS=N: actions per round (default 40)
#   RGX_BUILD_LOCK=FILE: build under flock FILE (a tree shared by several builders)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes=${1:-5}
seed=${2:-28}
if ! [[ $minutes =~ ^[0-9]+([.][0-9]+)?$ ]] || ! [[ $seed =~ ^[0-9]+$ ]]; then
    echo "usage: monkey.sh [MINUTES] [SEED]" >&2
    exit 2
fi

build=(cmake --build build --target rgx_gui_monkey_tests)
if [[ -n ${RGX_BUILD_LOCK:-} ]]; then
    build=(flock "$RGX_BUILD_LOCK" "${build[@]}")
fi
[[ -f build/build.ninja || -f build/Makefile ]] || cmake --preset default >/dev/null
"${build[@]}" >/dev/null

# Settings and recent files of its own (it writes none: --no-settings).
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data
export RGX_CACHE_DIR=${RGX_CACHE_DIR:-$PWD/build/kernel-cache}
export RGX_MONKEY_SEED=$seed
RGX_MONKEY_SECONDS=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
export RGX_MONKEY_SECONDS
# Qt Test stops a test function after 5 minutes unless told otherwise.
export QTEST_FUNCTION_TIMEOUT=$(( (RGX_MONKEY_SECONDS + 900) * 1000 ))
echo "monkey.sh: $minutes min, seed $seed (reproduce: bash scripts/monkey.sh $minutes $seed)"
start=$SECONDS
status=0
build/tests/gui/rgx_gui_monkey_tests aRandomUserFindsNoCrashHangWarningOrLeak || status=$?
echo "monkey.sh: $((SECONDS - start)) s, exit $status"
exit $status
