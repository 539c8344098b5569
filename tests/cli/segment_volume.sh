#!/usr/bin/env bash
# rgx-cli segment on volumes (DESIGN's contract for volumes, issue 27): the
# bundled NIfTI template and DICOM series segmented and verified against the
# CPU reference, the outputs as NIfTI, TIFF and .npy of shape (D, H, W), the
# overlay of the seed's slice, and one clear line for each bad input, given
# before anything runs. Usage: segment_volume.sh RGX_CLI SOURCE_DIR
set -u
cli=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mni=$source_dir/resources/samples/mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz
dicom=$source_dir/resources/samples/dicom-ct-series
failures=0
passes=0
check() { # check "what" COMMAND...: counts a pass or a failure
    local what=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; cat "$work/out" "$work/err" 2>/dev/null; failures=$((failures + 1)); fi
}
expect() { # expect CODE "stderr substring" -- ARGS...
    local code=$1 message=$2
    shift 3
    "$cli" "$@" >"$work/out" 2>"$work/err"
    local got=$? lines
    lines=$(grep -c . "$work/err")
    if [ "$got" -ne "$code" ] || { [ -n "$message" ] && ! grep -qF -- "$message" "$work/err"; } || { [ "$code" -eq 2 ] && [ "$lines" -ne 1 ]; }; then
        echo "FAIL: rgx-cli $* -> exit $got (expected $code with '$message' on one line); stderr:"
        cat "$work/err"
        failures=$((failures + 1))
    else
        passes=$((passes + 1))
    fi
}

# White matter of the MNI template from one seed, 26-connected, verified.
expect 0 "" -- segment --image "$mni" --seeds "98,116,94" --mode range --lower 15 --upper 15 --connectivity 26 \
    --verify --out-labels "$work/labels.nii.gz" --out-stamps "$work/stamps.npy" --out-overlay "$work/overlay.png"
check "verify line" grep -q "verify: 0 pixels differ" "$work/out"
check "volume line" grep -q "volume: 197x233x189, 8-bit grey (NIfTI-1), spacing 1 x 1 x 1 mm" "$work/out"
check "voxels" grep -q "voxels (" "$work/out"
check "outputs" python3 - "$work" <<'PY'
import gzip, struct, sys, ast
work = sys.argv[1]
header = gzip.open(work + "/labels.nii.gz").read(352)
assert struct.unpack("<i", header[:4])[0] == 348, "NIfTI-1 header size"
dims = struct.unpack("<8h", header[40:56])
assert dims[:4] == (3, 197, 233, 189), dims
assert struct.unpack("<h", header[70:72])[0] == 512, "uint16 labels"
npy = open(work + "/stamps.npy", "rb").read(128)
assert npy[:6] == b"\x93NUMPY"
length = struct.unpack("<H", npy[8:10])[0]
meta = ast.literal_eval(npy[10:10 + length].decode())
assert meta["shape"] == (189, 233, 197) and meta["descr"] == "<u4", meta
assert open(work + "/overlay.png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
PY
# The same region as a TIFF stack, and the default connectivity of a volume (6).
expect 0 "" -- segment --image "$mni" --seeds "98,116,94" --mode range --lower 15 --upper 15 \
    --variant driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier --verify \
    --out-labels "$work/labels.tif"
check "verify 6" grep -q "verify: 0 pixels differ" "$work/out"
check "tiff" test "$(head -c 2 "$work/labels.tif")" = "II"
# The DICOM CT series: signed values shifted, spacing from the files.
expect 0 "" -- segment --image "$dicom" --seeds "8,8,2;1,1,0" --mode competitive --verify
check "dicom line" grep -q "16-bit grey (DICOM series), spacing 0.488281 x 0.488281 x 2.5 mm, values shifted by +32768" "$work/out"
check "dicom verify" grep -q "verify: 0 pixels differ" "$work/out"

# Bad input: one line, exit 2, nothing run or written.
expect 2 "connectivity 8 is for images; a volume of 189 slices takes 6, 18 or 26" -- \
    segment --image "$mni" --seeds "98,116,94" --connectivity 8
expect 2 "seed 1 (98,116,189) is outside the 197x233x189 volume" -- segment --image "$mni" --seeds "98,116,189"
expect 2 "option --out-labels of a volume needs a .nii, .nii.gz, .tif, .tiff or .npy file" -- \
    segment --image "$mni" --seeds "98,116,94" --out-labels "$work/labels.png"
check "nothing written" test ! -e "$work/labels.png"
expect 2 "the prefilter boxmean:3 works on 2D images" -- segment --image "$mni" --seeds "98,116,94" --prefilter boxmean:3
expect 2 "--check-races cuts a 2D image down" -- segment --image "$mni" --seeds "98,116,94" --check-races
printf 'not a nifti file at all, but long enough to have a header of some sort .........................................................................................................................................................................................................................................................................................................................................................' >"$work/broken.nii"
expect 2 "broken.nii" -- segment --image "$work/broken.nii" --seeds "1,1,1"

echo "segment on volumes: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
