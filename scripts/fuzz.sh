#!/usr/bin/env bash
# Fuzzes the parsers of everything a user hands RGX with libFuzzer (clang,
# AddressSanitizer, UndefinedBehaviorSanitizer): image files, seeds texts,
# session JSON, variant and stage texts, rgx-cli's argument list.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds the targets of tests/fuzz into build-fuzz/ and runs each for
# SECONDS (default 60), or until RGX_FUZZ_RUNS executions when that is set, starting from its seed corpus in tests/fuzz/corpus/
# (new inputs go to build-fuzz/corpus/, the tree's corpus stays as it is).
# Prints the executions per target; exit 0 when nothing was found, 1 with
# the crashing input's path otherwise. Needs clang and libFuzzer (Debian:
# clang, libclang-rt-14-dev), installed here when missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_image fuzz_seeds fuzz_session fuzz_texts fuzz_cli)

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    as_root=(); [[ $(id -u) -eq 0 ]] || as_root=(sudo)
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang libclang-rt-14-dev
fi

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
cmake -S . -B build-fuzz -G Ninja -DRGX_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"

export TMPDIR=${TMPDIR:-/dev/shm} # fuzz_image writes each input to a file
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
found=0
printf '%-14s %12s %10s %8s  %s\n' target executions exec/s corpus result
for target in "${targets[@]}"; do
    corpus=build-fuzz/corpus/$target
    artifacts=build-fuzz/findings/$target/
    mkdir -p "$corpus" "$artifacts"
    limits=(-max_total_time="$seconds")
    [[ -n ${RGX_FUZZ_RUNS:-} ]] && limits+=(-runs="$RGX_FUZZ_RUNS")
    dictionary=()
    [[ -f tests/fuzz/$target.dict ]] && dictionary=(-dict="tests/fuzz/$target.dict")
    log=build-fuzz/$target.log
    status=0
    "build-fuzz/tests/fuzz/$target" "$corpus" "tests/fuzz/corpus/$target" "${dictionary[@]}" \
        "${limits[@]}" -max_len=65536 -rss_limit_mb=4096 -timeout=20 \
        -artifact_prefix="$artifacts" -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    size=$(ls "$corpus" | wc -l)
    if [[ $status -eq 0 ]]; then
        result="nothing found"
    else
        found=1
        result="FOUND: $(ls -t "$artifacts" | head -1 | sed "s|^|$artifacts|") (log: $log)"
    fi
    printf '%-14s %12s %10s %8s  %s\n' "$target" "${runs:-?}" "${speed:-?}" "$size" "$result"
done
exit $found
