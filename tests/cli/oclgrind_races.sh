#!/usr/bin/env bash
# Oclgrind's race detector on rgx-cli: every wrong-on-purpose variant shows a
# data race, every correct counterpart runs clean. Small image only: the
# simulator is slow. Usage: oclgrind_races.sh RGX_CLI SOURCE_DIR
set -u
cli=$1
image=$2/tests/data/small-24x20.png
failures=0
passes=0

check() { # check clean|race VARIANT
    local want=$1 variant=$2
    local log
    log=$(oclgrind --data-races "$cli" segment --image "$image" --seeds "1,1;20,15" \
          --device oclgrind --variant "$variant" 2>&1)
    local races
    races=$(grep -c "data race" <<<"$log")
    if grep -q "FATAL ERROR" <<<"$log"; then
        echo "FAIL: $variant: the simulator stopped"; grep -m 3 -A 3 "FATAL" <<<"$log"
        failures=$((failures + 1)); return
    fi
    if { [ "$want" = clean ] && [ "$races" -eq 0 ]; } || { [ "$want" = race ] && [ "$races" -gt 0 ]; }; then
        passes=$((passes + 1))
    else
        echo "FAIL: $variant: expected $want, oclgrind reported $races races"
        grep -m 5 -A 3 "data race\|error" <<<"$log"
        failures=$((failures + 1))
    fi
}

# A run's log with no race and "verify: 0 pixels differ" passes; any other
# fails, with what the log says.
expect_clean_and_equal() { # expect_clean_and_equal LOG WHAT
    if [ "$(grep -c "data race" <<<"$1")" -eq 0 ] && grep -q "^verify: 0 pixels differ$" <<<"$1"; then
        passes=$((passes + 1))
    else
        echo "FAIL: $2:"; grep -m 5 -A 3 "data race\|verify\|error" <<<"$1"
        failures=$((failures + 1))
    fi
}

for driver in host-sync host-batched; do
    check clean "driver=$driver,frontier=queue,collectives=atomics"
    check clean "driver=$driver,frontier=queue,collectives=local"
    check race  "driver=$driver,frontier=queue,collectives=local-nobarrier"
done
# Many iterations per launch: Oclgrind (one compute unit) runs one
# work-group, whose side of grow_levels it can check.
check clean "driver=host-batched,frontier=queue,collectives=atomics,fusion=grid-barrier"
check clean "driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier"
check race  "driver=host-batched,frontier=queue,collectives=local-nobarrier,fusion=grid-barrier"
check clean "driver=host-batched,frontier=queue,collectives=atomics,fusion=tiles"
check clean "driver=host-batched,frontier=sweep,collectives=atomics,tile=async"
check clean "driver=host-batched,frontier=sweep,collectives=local,tile=direct"
check race  "driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier"
check race  "driver=host-batched,frontier=sweep,collectives=local-nobarrier,tile=direct"

coins=$2/resources/samples/coins.png
# fusion=tiles over many tiles (a 384 x 303 image, seeds on tile corners and
# edges), capped: the ring step (three regions, rule adjacent, ranges that
# share lumas; two regions whose ranges, +-6 around lumas near 107 and 88,
# fall apart), the bitmap step (one region); and the steps of devices whose
# work-groups cannot take the ring's (RGX_TEST_NO_RING=1): per pixel, and
# the bitmap step's passes per region. Clean and equal to the reference.
for case in "31,31;64,40;90,20:60:0" "31,31;64,40;90,20:60:1" "31,31:60:0" "64,40;120,90:6:0" "64,40;120,90:6:1"; do
    IFS=: read -r seeds range noring <<<"$case"
    log=$(RGX_TEST_NO_RING=$noring oclgrind --data-races "$cli" segment --image "$coins" --seeds "$seeds" \
          --mode range --lower $range --upper $range --connectivity 8 --max-iterations 30 --device oclgrind \
          --variant fusion=tiles --verify 2>&1)
    expect_clean_and_equal "$log" "fusion=tiles over many tiles, seeds $seeds (without the ring step: $noring)"
done

# Competitive: seed_distances labels the pixels with one seed alone
# nearest, and one work-group the ties between seeds, over the whole image:
# five scattered seeds by passes (settle_ties.h: lines of ties, and
# diagonals of one level that the whole group decides), nine level by level
# (label_ties.h: more regions than settle_ties takes). Clean and equal to
# the reference.
for case in "31,31;64,40;90,20;200,150;290,250:settle_ties" \
            "31,31;64,40;90,20;200,150;290,250;20,200;150,30;300,60;250,280:label_ties"; do
    IFS=: read -r seeds kernel <<<"$case"
    log=$(oclgrind --data-races "$cli" segment --image "$coins" --seeds "$seeds" \
          --device oclgrind --variant fusion=tiles --verify --timings "${TMPDIR:-/tmp}/rgx-oclgrind-ties.csv" 2>&1)
    if [ "$(grep -c "data race" <<<"$log")" -eq 0 ] && grep -q "^verify: 0 pixels differ$" <<<"$log" &&
        grep -q ",$kernel," "${TMPDIR:-/tmp}/rgx-oclgrind-ties.csv"; then
        passes=$((passes + 1))
    else
        echo "FAIL: competitive ties by $kernel:"; grep -m 5 -A 3 "data race\|verify\|error" <<<"$log"
        failures=$((failures + 1))
    fi
    rm -f "${TMPDIR:-/tmp}/rgx-oclgrind-ties.csv"
done

# A volume (20 x 18 x 12, 8-bit NIfTI made here: two boxes of luma 200 on
# noise, apart in x, y and z), two seeds, level drivers: the summary's box
# in x, y and z over the touched slices and the full maps' 3-D read run
# clean and equal to the reference.
volume=$(mktemp --suffix=.nii)
python3 - "$volume" <<'EOF'
import random, struct, sys
width, height, depth = 20, 18, 12
random.seed(3)
voxels = bytearray()
for z in range(depth):
    for y in range(height):
        for x in range(width):
            inside = (3 <= x <= 9 and 4 <= y <= 10 and 2 <= z <= 8) or (12 <= x <= 18 and 11 <= y <= 16 and 9 <= z <= 10)
            voxels.append(200 if inside else random.randint(0, 40))
header = bytearray(348)
struct.pack_into('<i', header, 0, 348)
struct.pack_into('<8h', header, 40, 3, width, height, depth, 1, 1, 1, 1)
struct.pack_into('<hh', header, 70, 2, 8)  # unsigned 8-bit
struct.pack_into('<8f', header, 76, 1, 1, 1, 1, 1, 1, 1, 1)
struct.pack_into('<ff', header, 108, 352.0, 1.0)
header[344:348] = b'n+1\0'
open(sys.argv[1], 'wb').write(bytes(header) + bytes(4) + bytes(voxels))
EOF
for variant in driver=host-batched,frontier=queue,collectives=atomics driver=host-sync,frontier=queue,collectives=local; do
    log=$(oclgrind --data-races "$cli" segment --image "$volume" --seeds "5,6,4;15,13,9" --mode range --lower 10 \
          --upper 10 --device oclgrind --variant "$variant" --verify 2>&1)
    expect_clean_and_equal "$log" "a volume, $variant"
done
rm -f "$volume"

# The same through rgx-cli's own --check-races (which cuts the image down itself).
report=$("$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --variant driver=host-batched,frontier=queue,collectives=local 2>&1)
grep -q "^races: none$" <<<"$report" && passes=$((passes + 1)) || { echo "FAIL: --check-races on a correct variant:"; echo "$report"; failures=$((failures + 1)); }
# Races on the image (DESIGN.md): each line ends with ` at X,Y` where the
# memory is a pixel. The part checked is 32 x 32 at (84,84); Oclgrind's
# work-groups are 16 x 16 tiles (grow_sweep) and 256-pixel row segments
# (box_mean_async).
part_ok() { grep -q "^race check: Oclgrind on the 32x32 part at (84,84) with 2 seeds$" <<<"$1"; }
# tile=async-nobarrier: the labels' copy (18 x 18 ushorts) overwrites the
# first 162 of the tile's 324 stamps, tile rows 0..8 with the halo: the
# stamps of rows 16 g - 1 .. 16 g + 7 of the part, i.e. rows 84..91 and
# 99..107 of the image.
log=$(mktemp)
report=$(RGX_RACE_LOG=$log "$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier 2>&1)
grep -q "^race-check build: grow_sweep .*-DRGX_TILE_W=16 -DRGX_TILE_H=16 " "$log" ||
    { echo "FAIL: grow_sweep's tiles under Oclgrind are not 16 x 16:"; grep "race-check build" "$log"; failures=$((failures + 1)); }
rm -f "$log"
races=$(grep "^race: " <<<"$report")
bad=$(grep -Ev "^race: grow_sweep region_growing.cl:[0-9]+ read-write data race \(local memory\) at [0-9]+,[0-9]+$" <<<"$races" |
      grep -c .)
outside=$(sed 's/.* at //' <<<"$races" | awk -F, '$1 < 84 || $1 > 115 || !(($2 >= 84 && $2 <= 91) || ($2 >= 99 && $2 <= 107))' |
          grep -c .)
if part_ok "$report" && [ -n "$races" ] && [ "$bad" -eq 0 ] && [ "$outside" -eq 0 ]; then
    passes=$((passes + 1))
else
    echo "FAIL: --check-races on async-nobarrier: $bad lines not as expected, $outside outside the overwritten rows:"
    grep -v "^race: " <<<"$report"; head -5 <<<"$races"; failures=$((failures + 1))
fi
# boxmean:5:async-nobarrier: the bottom corner row overwrites corner_row
# elements 0..36 of each row while work-item i reads elements i and i + 5:
# element i is pixel i of the segment's row, so every pixel of the part.
report=$("$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --prefilter boxmean:5:async-nobarrier --variant driver=host-batched,frontier=queue,collectives=atomics 2>&1)
places=$(grep "^race: box_mean_async box_mean.cl:[0-9]* read-write data race (local memory) at " <<<"$report" |
         sed 's/.* at //' | sort -u)
expected=$(for y in $(seq 84 115); do for x in $(seq 84 115); do echo "$x,$y"; done; done | sort -u)
if part_ok "$report" && [ "$places" = "$expected" ] && [ "$(grep -c "^race: " <<<"$report")" -eq 1024 ]; then
    passes=$((passes + 1))
else
    echo "FAIL: --check-races on boxmean:5:async-nobarrier: $(grep -c . <<<"$places") of the 1024 pixels:"
    grep -v "^race: " <<<"$report"; grep -m 5 "^race: " <<<"$report"; failures=$((failures + 1))
fi
# collectives=local-nobarrier races on the scratch of the scan: no pixel, no ` at`.
report=$("$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --variant driver=host-batched,frontier=queue,collectives=local-nobarrier 2>&1)
if grep -Eq "^race: grow_queue collectives.h:[0-9]+ read-write data race \(local memory\)$" <<<"$report" &&
   ! grep -q "^race: .* at " <<<"$report"; then
    passes=$((passes + 1))
else
    echo "FAIL: --check-races on local-nobarrier:"; echo "$report"; failures=$((failures + 1))
fi

echo "oclgrind races: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
