#!/usr/bin/env bash
# The GPU measurements of docs/PERFORMANCE.md in one go, for a machine that
# has an NVIDIA OpenCL driver but no build tools (the lent H100).
#
#   bash scripts/gpu-bench.sh package DIR [OLD_RGX_CLI]
#       here: the stripped binaries (rgx-cli, its floodFill module, the
#       engine and stress tests; optionally an older rgx-cli to compare with in the same
#       run) and every library they load but libc and libm, as DIR/pkg.tar.xz.
#   bash scripts/gpu-bench.sh run DIR OUT [PARTS]
#       there: registers NVIDIA's OpenCL driver with the ICD loader when no
#       vendor file names it, then runs PARTS (default all, in this order:
#       tests,old,bench,range,interactive; each part takes 2 to 4 minutes on
#       the H100, so split them over calls of 10 minutes): the new paths
#       against the CPU reference on every device, the older build, the bench
#       of issue 11, range 100 and 255, the click script of issue 12. Full
#       outputs go to OUT, a short summary to stdout.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

package() {
    local dir=$1 old=${2:-}
    rm -rf "$dir/pkg" && mkdir -p "$dir/pkg/bin" "$dir/pkg/lib"
    cp build/app/rgx-cli build/tests/rgx_engine_tests build/tests/stress/rgx_stress_tests "$dir/pkg/bin/"
    [[ -f build/app/rgx_floodfill.so ]] && cp build/app/rgx_floodfill.so "$dir/pkg/bin/"
    [[ -n $old ]] && cp "$old" "$dir/pkg/bin/rgx-cli-old"
    strip "$dir"/pkg/bin/*
    for binary in "$dir"/pkg/bin/*; do ldd "$binary" | awk '/=>/ {print $3}'; done | sort -u |
        grep -vE '/libc\.so|/libm\.so|ld-linux' | xargs -r -I{} cp -L {} "$dir/pkg/lib/"
    tar -C "$dir" -cJf "$dir/pkg.tar.xz" pkg && rm -rf "$dir/pkg"
    ls -l "$dir/pkg.tar.xz"
}

run() {
    local dir=$1 out=$2 parts=,${3:-tests,old,bench,range,interactive},
    mkdir -p "$out"
    tar -C "$dir" -xJf "$dir/pkg.tar.xz"
    export LD_LIBRARY_PATH=$dir/pkg/lib RGX_CACHE_DIR=${RGX_CACHE_DIR:-/tmp/rgx-kernel-cache}
    local bin=$dir/pkg/bin start=$SECONDS
    local driver
    driver=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
    if [[ -n $driver ]] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
        mkdir -p /etc/OpenCL/vendors
        echo "$driver" > /etc/OpenCL/vendors/nvidia.icd
    fi
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$bin/rgx-cli" devices | grep -E '^[0-9]'
    want() { [[ $parts == *,$1,* ]]; }
    done_with() { echo "$1: exit $2 after $((SECONDS - start)) s"; }

    if want tests; then # the new paths against the CPU reference on every device, and Cancel
        timeout 240 "$bin/rgx_engine_tests" \
            --gtest_filter='TiledGrowing*:DeviceSession*:PartialDownload*:EveryDriver/Cancel.*:*NVIDIA*fusion*:*NVIDIA*host_sync_frontier_queue*' \
            > "$out/tests.log" 2>&1
        done_with tests $?
        grep -E '^\[  (PASSED|FAILED)|FAILED  \]' "$out/tests.log" | head -20
    fi
    if want old && [[ -x $bin/rgx-cli-old ]]; then # the older build, same machine, same call
        timeout 150 "$bin/rgx-cli-old" bench --device nvidia --sizes 4096,8192 --seeds 1 --modes competitive \
            --repeat 3 --variants 'driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier' \
            > "$out/old.txt" 2>&1
        done_with "old build" $?
    fi
    if want bench; then # issue 11: fused levels and tiles against both floors, 1 and 64 seeds
        timeout 300 "$bin/rgx-cli" bench --device nvidia --sizes 4096,8192 --seeds 1,64 --modes competitive,range \
            --repeat 5 --variants 'fusion=tiles;collectives=local,fusion=grid-barrier;collectives=local' \
            --json "$out/bench.json" > "$out/bench.txt" 2>&1
        done_with bench $?
    fi
    if want range; then # one seed, regions up to the whole image, against cv::floodFill
        for range in 100 255; do
            timeout 200 "$bin/rgx-cli" bench --device nvidia --sizes 4096,8192 --seeds 1 --modes range \
                --lower $range --upper $range --repeat 5 --variants 'fusion=tiles;collectives=local,fusion=grid-barrier' \
                --json "$out/range-$range.json" > "$out/range-$range.txt" 2>&1
            done_with "range $range" $?
        done
    fi
    if want interactive; then # issue 12: clicks of a resident session
        timeout 300 "$bin/rgx-cli" bench --interactive --device nvidia --sizes 4096,8192 \
            --variants 'fusion=tiles;collectives=local,fusion=grid-barrier' --json "$out/interactive.json" \
            > "$out/interactive.txt" 2>&1
        done_with interactive $?
    fi
    cat "$out"/old.txt "$out"/bench.txt "$out"/range-*.txt 2>/dev/null | grep -E 'floor|^best variant|^noise' | cut -c1-240
    grep -sE '^(add|move|change|remove|the first|upload|footprint|noise)' "$out/interactive.txt" | cut -c1-160
}

case ${1:-} in
package) package "${@:2}" ;;
run) run "${@:2}" ;;
*) echo "usage: gpu-bench.sh package DIR [OLD_RGX_CLI] | run DIR OUT" >&2; exit 2 ;;
esac
