#!/usr/bin/env bash
# The rgx-cli contract of DESIGN.md: outputs, exit codes, and one clear line
# on stderr for every kind of bad input. Usage: cli_contract.sh RGX_CLI SOURCE_DIR
set -u
cli=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
coins=$source_dir/resources/samples/coins.png
failures=0
passes=0

# expect CODE "stderr substring" -- ARGS...
expect() {
    local code=$1 message=$2
    shift 3
    "$cli" "$@" >"$work/out" 2>"$work/err"
    local got=$?
    local lines
    lines=$(grep -c . "$work/err")
    if [ "$got" -ne "$code" ] || { [ -n "$message" ] && ! grep -qF -- "$message" "$work/err"; } || { [ "$code" -eq 2 ] && [ "$lines" -ne 1 ]; }; then
        echo "FAIL: rgx-cli $* -> exit $got (expected $code with '$message' on one line); stderr:"
        cat "$work/err"
        failures=$((failures + 1))
    else
        passes=$((passes + 1))
    fi
}

# Good runs.
expect 0 "" -- devices
"$cli" devices --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d and "workGroupCollectives" in d[0]' \
    && passes=$((passes + 1)) || { echo "FAIL: devices --json"; failures=$((failures + 1)); }
expect 0 "" -- variants --json
expect 0 "" -- segment --image "$coins" --seeds "10,10;100,100;200,150" --verify \
    --out-labels "$work/labels.png" --out-stamps "$work/stamps.npy" --out-overlay "$work/overlay.png" \
    --timings "$work/timings.json"
grep -q "verify: 0 pixels differ" "$work/out" && passes=$((passes + 1)) || { echo "FAIL: verify line"; cat "$work/out"; failures=$((failures + 1)); }
for f in labels.png stamps.npy overlay.png timings.json; do
    [ -s "$work/$f" ] && passes=$((passes + 1)) || { echo "FAIL: $f not written"; failures=$((failures + 1)); }
done
head -c 6 "$work/stamps.npy" | grep -q "NUMPY" && passes=$((passes + 1)) || { echo "FAIL: stamps.npy is not .npy"; failures=$((failures + 1)); }
printf '# coins\n10 10\n100,100\n\n200 150  # a coin\n' >"$work/seeds.txt"
expect 0 "" -- segment --image "$coins" --seeds-file "$work/seeds.txt" --mode range --lower 20 --upper 20 \
    --connectivity 8 --rule all --timings "$work/t.csv" --out-labels "$work/labels.npy"
head -1 "$work/t.csv" | grep -q "stage,kernel,iteration" && passes=$((passes + 1)) || { echo "FAIL: timings csv header"; failures=$((failures + 1)); }

# Differences found by --verify: exit 4.
expect 4 "" -- segment --image "$coins" --seeds "10,10;100,100;200,150" --verify \
    --variant driver=host-batched,frontier=queue,collectives=local-nobarrier
grep -q "verify: [1-9][0-9]* pixels differ" "$work/out" && passes=$((passes + 1)) || { echo "FAIL: verify count"; failures=$((failures + 1)); }

# Bad input: exit 2 and one line naming what is wrong.
printf 'not an image at all' >"$work/corrupt.png"
: >"$work/empty.png"
expect 2 "does not exist" -- segment --image "$work/missing.png" --seeds "1,1"
expect 2 "corrupt.png" -- segment --image "$work/corrupt.png" --seeds "1,1"
expect 2 "empty.png" -- segment --image "$work/empty.png" --seeds "1,1"
expect 2 "outside" -- segment --image "$coins" --seeds "10,10;384,5"
expect 2 "same pixel" -- segment --image "$coins" --seeds "10,10;20,20;10,10"
expect 2 "seeds.missing" -- segment --image "$coins" --seeds-file "$work/seeds.missing"
expect 2 "unknown option --frobnicate for segment (rgx-cli segment --help lists its options)" -- segment --image "$coins" --seeds "1,1" --frobnicate
expect 2 "unknown driver" -- segment --image "$coins" --seeds "1,1" --variant driver=warp
expect 2 "unknown mode" -- segment --image "$coins" --seeds "1,1" --mode fuzzy
expect 2 "--connectivity" -- segment --image "$coins" --seeds "1,1" --connectivity 5
# An image is a volume of one slice (SPEC "Volumes (3D)"): 6 is its 4 neighbours, 26 its 8.
expect 0 "" -- segment --image "$coins" --seeds "10,10;100,100" --connectivity 6 --verify
grep -q "verify: 0 pixels differ" "$work/out" && passes=$((passes + 1)) || { echo "FAIL: connectivity 6 on an image"; failures=$((failures + 1)); }
# The parameter table's one message (engine/ParameterCodec.h): the explorer's
# seeds files and sessions give the same.
expect 2 "option --lower needs a whole number from 0 to 65535, not '-1'" -- segment --image "$coins" --seeds "1,1" --lower -1
expect 2 "option --tolerance needs a number from 0 to 65535, not 'inf'" -- segment --image "$coins" --seeds "1,1" --tolerance inf
expect 2 "needs a value" -- segment --image "$coins" --seeds
expect 2 "exactly one of --seeds" -- segment --image "$coins"
expect 2 "unknown command" -- explode
expect 2 "no OpenCL device matches" -- segment --image "$coins" --seeds "1,1" --device "no-such-device"
expect 0 "" -- segment --image "$coins" --seeds "1,1" --device 0
# Each command's own help, both ways: exit 0, its options on stdout.
for asked in "segment --help" "help segment" "bench -h" "help bench" "devices --help" "help lab"; do
    # shellcheck disable=SC2086
    if "$cli" $asked >"$work/out" 2>"$work/err" && grep -q "^usage" "$work/out" && [ ! -s "$work/err" ]; then
        passes=$((passes + 1))
    else
        echo "FAIL: rgx-cli $asked"; cat "$work/out" "$work/err"; failures=$((failures + 1))
    fi
done
grep -q -- "--mode competitive|adaptive|range   default competitive" <("$cli" segment --help) \
    && passes=$((passes + 1)) || { echo "FAIL: segment --help gives the defaults"; failures=$((failures + 1)); }
expect 2 "no command 'sideways'" -- help sideways
# A run past its time limit stops with one message and exit 3.
expect 3 "s time limit" -- segment --image "$coins" --seeds "1,1" --variant driver=host-sync --timeout 0.0001
expect 2 "option --timeout needs a number" -- segment --image "$coins" --seeds "1,1" --timeout soon
expect 2 "there is no device 99" -- segment --image "$coins" --seeds "1,1" --device 99
expect 2 "needs work-group collective functions" -- segment --image "$coins" --seeds "1,1" \
    --device pocl --variant collectives=builtin
expect 2 "cannot write" -- segment --image "$coins" --seeds "1,1" --out-labels "$work/coins.png/labels.png"
[ ! -e "$work/coins.png/labels.png" ] && passes=$((passes + 1))
# An image larger than the device can hold (or than the reader accepts).
python3 - "$work/huge.png" <<'PY'
import struct, sys, zlib
width, height = 60000, 60000
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
row = b"\0" + b"\0" * ((width + 7) // 8)
raw = zlib.compress(row * height, 9)
with open(sys.argv[1], "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
PY
expect 2 "huge.png" -- segment --image "$work/huge.png" --seeds "1,1"

# The binary-search lab.
expect 0 "" -- lab binary-search --size 100000 --keys 500
grep -q "verify: 0 keys differ" "$work/out" && passes=$((passes + 1)) || { echo "FAIL: lab verify"; cat "$work/out"; failures=$((failures + 1)); }
expect 2 "needs device-side enqueue" -- lab binary-search --size 100 --keys 5 --device pocl --variant driver=device-enqueue
expect 2 "only the driver axis" -- lab binary-search --size 100 --keys 5 --variant frontier=sweep
expect 2 "needs --size N and --keys K" -- lab binary-search --size 100
expect 2 "unknown lab" -- lab linear-search --size 100 --keys 5

echo "cli contract: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
