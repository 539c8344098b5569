#!/usr/bin/env bash
# The GPU measurements of docs/PERFORMANCE.md in one go, for a machine that
# has an NVIDIA OpenCL driver but no build tools (the lent H100).
#
#   [RGX_NPP_DIR=NPP] bash scripts/gpu-bench.sh package DIR [OLD_RGX_CLI [OLD_GUI_BENCH]]
#       here: the stripped binaries (rgx-cli, its floodFill module, the
#       engine and stress tests, the GUI bench with Qt's offscreen platform
#       plugin; optionally an older rgx-cli and GUI bench to compare with in
#       the same run) and every library they load but libc and libm; the
#       photographs of bench --photos (the bundled samples, and camera, coffee
#       and chelsea from python3-skimage, taken from its .deb when it is not
#       installed); and, where RGX_NPP_DIR names a folder that
#       scripts/npp-fetch.sh filled, NPP and the CUDA runtime (7.7 MiB
#       packed); as DIR/pkg.tar.xz.
#   bash scripts/gpu-bench.sh run DIR OUT [PARTS]
#       there: registers NVIDIA's OpenCL driver with the ICD loader when no
#       vendor file names it, then runs PARTS (default all, in this order:
#       tests,old,bench,range,interactive; each part takes 2 to 4 minutes on
#       the H100, so split them over calls of 10 minutes): the new paths
#       against the CPU reference on every device, the older build, the bench
#       of issue 11, range 100 and 255, the click script of issue 12. The
#       part gui (not in the default) runs rgx_gui_bench offscreen (and the
#       older one, where packaged) on the drags of issue 25 and the coins
#       sample. The part guivolume (not in the default) runs rgx_gui_bench
#       --volume on 16-bit phantoms of RGX_GUI_VOLUMES (default "512 256")
#       voxels a side (issue 27): seed clicks from the click to the region
#       on all three views, Page Down steps on each view, peak memory; the
#       variant RGX_GUI_VOLUME_VARIANT (default the 3D bricks, fusion=tiles).
#       The part photos (not in the default) runs the photograph
#       cases at 4096 and 8192, one and 64 seeds, mode range, for each range
#       of RGX_PHOTO_RANGES (default "40 100 255"; estimated at 3 to 5
#       minutes a range, not yet timed there, so one range a call at first),
#       against cv::floodFill and, where packaged, NPP (which the parts bench
#       and range then also run). The part many (not in the default) runs 4
#       and 64 seeds in every mode at 4096 and 8192 (issue 26), with the older
#       build too where packaged (about 3 minutes). Full outputs go to OUT, a
#       short summary to stdout.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

package() {
    local dir=$1 old=${2:-} oldGui=${3:-}
    local platforms
    platforms=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)/platforms
    rm -rf "$dir/pkg" && mkdir -p "$dir/pkg/bin" "$dir/pkg/lib" "$dir/pkg/plugins/platforms"
    cp build/app/rgx-cli build/tests/rgx_engine_tests build/tests/stress/rgx_stress_tests build/tests/gui/rgx_gui_bench \
        "$dir/pkg/bin/"
    cp "$platforms/libqoffscreen.so" "$dir/pkg/plugins/platforms/"
    [[ -f build/app/rgx_floodfill.so ]] && cp build/app/rgx_floodfill.so "$dir/pkg/bin/"
    [[ -n $old ]] && cp "$old" "$dir/pkg/bin/rgx-cli-old"
    [[ -n $oldGui ]] && cp "$oldGui" "$dir/pkg/bin/rgx_gui_bench-old"
    package_photos "$dir/pkg/photos"
    if [[ -n ${RGX_NPP_DIR:-} ]]; then # not stripped: NVIDIA's own, its GPU code in sections strip keeps
        mkdir -p "$dir/pkg/npp" && cp "$RGX_NPP_DIR"/lib* "$RGX_NPP_DIR"/VERSIONS.txt "$dir/pkg/npp/"
        echo "NPP: $(tr '\n' ' ' < "$RGX_NPP_DIR/VERSIONS.txt")"
    fi
    strip "$dir"/pkg/bin/* "$dir"/pkg/plugins/platforms/*
    for binary in "$dir"/pkg/bin/* "$dir"/pkg/plugins/platforms/*; do ldd "$binary" | awk '/=>/ {print $3}'; done | sort -u |
        grep -vE '/libc\.so|/libm\.so|ld-linux' | xargs -r -I{} cp -L {} "$dir/pkg/lib/"
    tar -C "$dir" -cJf "$dir/pkg.tar.xz" pkg && rm -rf "$dir/pkg"
    ls -l "$dir/pkg.tar.xz"
}

# The photographs of bench --photos in one folder.
package_photos() {
    local to=$1 from=${RGX_PHOTOS_DIR:-/usr/lib/python3/dist-packages/skimage/data} name missing=()
    mkdir -p "$to"
    cp resources/samples/*.png "$to/"
    for name in camera.png coffee.png chelsea.png; do
        if [[ -f $from/$name ]]; then cp "$from/$name" "$to/"; else missing+=("$name"); fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then # from python3-skimage's .deb, without installing it
        local deb
        deb=$(mktemp -d)
        if (cd "$deb" && apt-get download python3-skimage >/dev/null 2>&1); then
            dpkg-deb --fsys-tarfile "$deb"/python3-skimage_*.deb |
                tar -x -C "$deb" "${missing[@]/#/./usr/lib/python3/dist-packages/skimage/data/}"
            cp "$deb"/usr/lib/python3/dist-packages/skimage/data/*.png "$to/"
        else
            echo "photos: ${missing[*]} missing (apt-get download python3-skimage failed); the bundled samples only" >&2
        fi
        rm -rf "$deb"
    fi
    echo "photos: $(cd "$to" && echo *.png)"
}

run() {
    local dir=$1 out=$2 parts=,${3:-tests,old,bench,range,interactive},
    mkdir -p "$out"
    tar -C "$dir" -xJf "$dir/pkg.tar.xz"
    export LD_LIBRARY_PATH=$dir/pkg/lib RGX_CACHE_DIR=${RGX_CACHE_DIR:-/tmp/rgx-kernel-cache}
    local bin=$dir/pkg/bin start=$SECONDS npp=()
    [[ -d $dir/pkg/npp ]] && npp=(--npp-dir "$dir/pkg/npp")
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
            "${npp[@]}" --json "$out/bench.json" > "$out/bench.txt" 2>&1
        done_with bench $?
    fi
    if want range; then # one seed, regions up to the whole image, against cv::floodFill
        for range in 100 255; do
            timeout 200 "$bin/rgx-cli" bench --device nvidia --sizes 4096,8192 --seeds 1 --modes range \
                --lower $range --upper $range --repeat 5 --variants 'fusion=tiles;collectives=local,fusion=grid-barrier' \
                "${npp[@]}" --json "$out/range-$range.json" > "$out/range-$range.txt" 2>&1
            done_with "range $range" $?
        done
    fi
    if want photos; then # issue 26: photographs, one and 64 seeds, against cv::floodFill and NPP
        for range in ${RGX_PHOTO_RANGES:-40 100 255}; do
            timeout 540 "$bin/rgx-cli" bench --device nvidia --sizes none --photos-dir "$dir/pkg/photos" \
                --photo-sizes 4096,8192 --seeds 1,64 --modes range --lower $range --upper $range --repeat 3 \
                --variants 'fusion=tiles;collectives=local,fusion=grid-barrier' "${npp[@]}" \
                --json "$out/photos-$range.json" > "$out/photos-$range.txt" 2>&1
            done_with "photos +-$range" $?
            grep -E '^(NPP: |photo-|best variant)' "$out/photos-$range.txt" | cut -c1-240
        done
    fi
    if want interactive; then # issue 12: clicks of a resident session
        timeout 300 "$bin/rgx-cli" bench --interactive --device nvidia --sizes 4096,8192 \
            --variants 'fusion=tiles;collectives=local,fusion=grid-barrier' --json "$out/interactive.json" \
            > "$out/interactive.txt" 2>&1
        done_with interactive $?
    fi
    if want gui; then # issue 25: edits in the explorer, request to overlay drawn, and where the time went
        export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH=$dir/pkg/plugins XDG_RUNTIME_DIR=/tmp/rgx-runtime
        mkdir -p -m 700 "$XDG_RUNTIME_DIR"
        local bench name size range seeds
        for bench in rgx_gui_bench-old rgx_gui_bench; do
            [[ -x $bin/$bench ]] || continue
            # SIZE:RANGE[:SEEDS]
            for drag in ${RGX_GUI_DRAGS:-4096:10 4096:30 8192:10 8192:30}; do
                IFS=: read -r size range seeds <<< "$drag"
                seeds=${seeds:-1} name=$out/$bench-$size-$range-$seeds.txt
                timeout 120 "$bin/$bench" --device nvidia --size 0 --drag-size "$size" --drag-range "$range" \
                    --drag-seeds "$seeds" --drag-variant "${RGX_GUI_VARIANT:-fusion=tiles}" > "$name" 2>&1
                done_with "$bench drag $size +-$range, $seeds seed(s)" $?
                grep -E '^(drag|edit breakdown|  also)' "$name" | cut -c1-230
            done
            timeout 120 "$bin/$bench" --device nvidia --size "${RGX_GUI_PLAYBACK:-8192}" --drag-size 512 \
                --coins resources/samples/coins.png > "$out/$bench-playback-coins.txt" 2>&1
            done_with "$bench playback and coins" $?
            grep -E '^(playback|peak|coins|edit breakdown|  also)' "$out/$bench-playback-coins.txt" | cut -c1-230
        done
    fi
    if want guivolume; then # issue 27: a seed click on a volume, on the three views; slice steps; memory
        export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH=$dir/pkg/plugins XDG_RUNTIME_DIR=/tmp/rgx-runtime
        mkdir -p -m 700 "$XDG_RUNTIME_DIR"
        local side report
        for side in ${RGX_GUI_VOLUMES:-512 256}; do
            report=$out/rgx_gui_bench-volume-$side.txt
            timeout 280 "$bin/rgx_gui_bench" --volume "$side" --device nvidia \
                --volume-variant "${RGX_GUI_VOLUME_VARIANT:-driver=host-batched,frontier=queue,collectives=local,fusion=tiles}" \
                > "$report" 2>&1
            done_with "rgx_gui_bench volume $side^3" $?
            grep -E '^(device|volume|edit breakdown|  also)' "$report" | cut -c1-230
        done
    fi
    if want many; then # issue 26: 4 and 64 seeds in every mode, this build and the older one where packaged
        local cli
        for cli in rgx-cli rgx-cli-old; do
            [[ -x $bin/$cli ]] || continue
            timeout 280 "$bin/$cli" bench --device nvidia --sizes 4096,8192 --seeds 4,64 \
                --modes competitive,adaptive,range --repeat 3 \
                --variants 'fusion=tiles;collectives=local,fusion=grid-barrier;collectives=local' \
                --json "$out/many-$cli.json" > "$out/many-$cli.txt" 2>&1
            done_with "many seeds ($cli)" $?
            grep -E '^noise|^best variant' "$out/many-$cli.txt" | sed 's/ of [0-9]* pixels classified//' | cut -c1-110
        done
    fi
    if want defaults; then # issue 25: the explorer's default variant on a GPU, against the CPU runtimes' one
        timeout 300 "$bin/rgx-cli" bench --interactive --device nvidia --sizes 4096 \
            --variants 'fusion=tiles;driver=host-batched' > "$out/defaults.txt" 2>&1
        done_with defaults $?
        grep -E '^(noise|add|move|change|remove|the first)' "$out/defaults.txt" | cut -c1-120
    fi
    cat "$out"/old.txt "$out"/bench.txt "$out"/range-*.txt 2>/dev/null | grep -E 'floor|^best variant|^noise|^NPP: [0-9]' |
        cut -c1-240
    grep -sE '^(add|move|change|remove|the first|upload|footprint|noise)' "$out/interactive.txt" | cut -c1-160
}

case ${1:-} in
package) package "${@:2}" ;;
run) run "${@:2}" ;;
*) echo "usage: [RGX_NPP_DIR=NPP] gpu-bench.sh package DIR [OLD_RGX_CLI [OLD_GUI_BENCH]] | run DIR OUT [PARTS]" >&2; exit 2 ;;
esac
