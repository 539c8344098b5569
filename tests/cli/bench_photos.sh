#!/usr/bin/env bash
# rgx-cli bench's photograph cases and its NPP baseline, small and fast:
# the photographs (the bundled samples, scaled) run with one and several
# seeds and print the best-variant line with the cv::floodFill ratio; NPP's
# absence is one line and no error; with a stand-in for NVIDIA's libraries
# (FakeNpp.cpp) NPP's row and its line appear, a wrong NPP region reads
# WRONG and changes no exit code, and a machine without NVIDIA's driver is
# one line too.
# Usage: bench_photos.sh RGX_CLI FAKE_NPP_DIR
set -u
cli=$1
fake_npp=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/no-photos"
variant='driver=host-batched,frontier=queue,collectives=atomics'
fail() {
    echo "FAIL: $*"
    cat "$work/out" "$work/err" 2>/dev/null
    exit 1
}
# bench ARGS...: runs it with the package photographs' folder empty, so that
# the cases do not depend on whether python3-skimage is installed.
bench() {
    env -u RGX_NPP_DIR RGX_PHOTOS_DIR="$work/no-photos" "$cli" bench --repeat 1 --warmup 0 --variants "$variant" \
        "$@" >"$work/out" 2>"$work/err"
}
count() { grep -c -- "$1" "$work/out"; }

# 1. Photographs, no NPP.
bench --sizes none --photos --photo-sizes 96 --seeds 1,4 --modes range --json "$work/photos.json"
code=$?
[ "$code" -eq 0 ] || fail "bench --photos without NPP exited with $code"
[ "$(count '^NPP: ')" -eq 1 ] || fail "not one line 'NPP: ...'"
grep -q '^NPP: not available (.*npp-fetch.sh' "$work/out" || fail "no line 'NPP: not available (... npp-fetch.sh ...)'"
grep -q '^photos: astronaut, coins; scaled to 96x96.*not found in' "$work/out" || fail "no 'photos:' line"
for image in astronaut coins; do
    for seeds in "1 seed" "4 seeds"; do
        header="photo-$image 96x96, $seeds, range:"
        # The case's table ends with its best-variant line.
        best=$(awk -v header="$header" 'index($0, header) == 1 { inside = 1 } inside && /^best variant: / { print; exit }' "$work/out")
        [ -n "$best" ] || fail "no case '$header' with a best-variant line"
        if [ "$seeds" = "1 seed" ] && grep -q '^variants: .*cv::floodFill: yes' "$work/out"; then
            [[ $best == *" than cv::floodFill"* ]] || fail "'$header': the best-variant line has no cv::floodFill ratio: $best"
        fi
    done
done
python3 - "$work/photos.json" <<'EOF' || fail "JSON"
import json, sys
bench = json.load(open(sys.argv[1]))
problems = []
if bench.get("npp", {}).get("available") is not False:
    problems.append("npp.available is not false")
if bench["settings"].get("photoSizes") != [96] or len(bench["settings"].get("photos", [])) != 2:
    problems.append("settings.photos / photoSizes")
cases = bench["cases"]
if [(c["image"], c["seeds"]) for c in cases] != [("photo-astronaut", 1), ("photo-astronaut", 4), ("photo-coins", 1), ("photo-coins", 4)]:
    problems.append("cases: %s" % [(c["image"], c["seeds"]) for c in cases])
for case in cases:
    kinds = [r["kind"] for r in case["results"]]
    if "npp-floodfill" in kinds:
        problems.append(case["image"] + ": an NPP row without NPP")
    if bench["openCv"] and case["seeds"] == 1 and "opencv-floodfill" not in kinds:
        problems.append(case["image"] + ": no cv::floodFill row")
    for r in case["results"]:
        if not r.get("verified"):
            problems.append("%s %d seeds %s: %s" % (case["image"], case["seeds"], r["implementation"], r.get("check")))
if problems:
    print("\n".join(problems))
    sys.exit(1)
EOF

# 2. NPP through the stand-in: its row, its line, the ratio in the best-variant line.
bench --sizes 64 --seeds 1,4 --modes range --npp-dir "$fake_npp" --json "$work/npp.json"
code=$?
[ "$code" -eq 0 ] || fail "bench with the stand-in NPP exited with $code"
grep -q '^NPP: NPP 12.4.1, CUDA runtime 12.9, driver 13.0, Fake GPU (sm_90' "$work/out" || fail "no NPP description line"
grep -q '^NPP flood fill .* ok$' "$work/out" || fail "no NPP row that checked ok"
grep -q '^NPP: \([0-9]*\) px, CPU \1 px: the same region; .* by CUDA events$' "$work/out" || fail "no 'NPP: N px, CPU N px: the same region' line"
grep -q '^best variant: .* than NPP$' "$work/out" || fail "the best-variant line has no NPP ratio"
[ "$(count '^NPP flood fill')" -eq 1 ] || fail "an NPP row in a case of 4 seeds"
python3 - "$work/npp.json" <<'EOF' || fail "JSON with NPP"
import json, sys
bench = json.load(open(sys.argv[1]))
rows = [r for c in bench["cases"] for r in c["results"] if r["kind"] == "npp-floodfill"]
assert bench["npp"]["available"] is True, bench["npp"]
assert len(rows) == 1 and rows[0]["verified"] and rows[0]["reportedPixels"] == bench["cases"][0]["classifiedPixels"], rows
variant = [r for r in bench["cases"][0]["results"] if r["kind"] == "variant"][0]
assert isinstance(variant["speedupOverNpp"], float), variant
EOF

# 3. A wrong NPP region is shown as wrong, with no ratio, and is no failure of the bench.
RGX_FAKE_NPP_WRONG=1 bench --sizes 64 --seeds 1 --modes range --lower 255 --upper 255 --npp-dir "$fake_npp"
code=$?
[ "$code" -eq 0 ] || fail "a wrong NPP region made the exit code $code"
grep -q '^NPP: [0-9]* px, CPU 4096 px: WRONG ([0-9]* pixels differ' "$work/out" || fail "no 'NPP: ... WRONG' line"
grep -q '^best variant: .*NPP' "$work/out" && fail "a ratio to a wrong NPP region"

# 4. NPP's libraries without NVIDIA's driver: one line, and the bench goes on.
RGX_FAKE_CUDA_NO_DRIVER=1 bench --sizes 64 --seeds 1 --modes range --npp-dir "$fake_npp"
code=$?
[ "$code" -eq 0 ] || fail "NPP without a driver made the exit code $code"
[ "$(count '^NPP')" -eq 1 ] || fail "more than one NPP line without a driver"
grep -q '^NPP: not available (the CUDA runtime found no usable GPU: cudaGetDeviceCount: CUDA driver version is insufficient' \
    "$work/out" || fail "no 'NPP: not available (... no usable GPU ...)' line"
grep -q '^best variant: ' "$work/out" || fail "no case after NPP's line"

echo "bench photos: photograph cases, NPP absent, right, wrong and without a driver as documented"
