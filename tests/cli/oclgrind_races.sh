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
# edges), capped: the per-pixel step (three regions, rule adjacent) and the
# bitmap step (one region). Clean and equal to the reference.
for seeds in "31,31;64,40;90,20" "31,31"; do
    log=$(oclgrind --data-races "$cli" segment --image "$coins" --seeds "$seeds" --mode range --lower 60 \
          --upper 60 --connectivity 8 --max-iterations 30 --device oclgrind --variant fusion=tiles --verify 2>&1)
    if [ "$(grep -c "data race" <<<"$log")" -eq 0 ] && grep -q "^verify: 0 pixels differ$" <<<"$log"; then
        passes=$((passes + 1))
    else
        echo "FAIL: fusion=tiles over many tiles, seeds $seeds:"; grep -m 5 -A 3 "data race\|verify\|error" <<<"$log"
        failures=$((failures + 1))
    fi
done

# The same through rgx-cli's own --check-races (which cuts the image down itself).
report=$("$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --variant driver=host-batched,frontier=queue,collectives=local 2>&1)
grep -q "^races: none$" <<<"$report" && passes=$((passes + 1)) || { echo "FAIL: --check-races on a correct variant:"; echo "$report"; failures=$((failures + 1)); }
report=$("$cli" segment --image "$coins" --seeds "100,100;110,100" --check-races \
         --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier 2>&1)
grep -Eq "^race: grow_sweep region_growing.cl:[0-9]+ read-write data race \(local memory\)$" <<<"$report" \
    && passes=$((passes + 1)) || { echo "FAIL: --check-races on async-nobarrier:"; echo "$report"; failures=$((failures + 1)); }

echo "oclgrind races: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
