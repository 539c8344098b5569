#!/usr/bin/env bash
# Oclgrind's race detector on the filter stages (docs/STAGES.md): the
# wrong-on-purpose boxmean:W:async-nobarrier shows a data race in
# box_mean_async; every correct stage variant runs clean, windows larger than
# the image included. Small image only: the simulator is slow.
# Usage: stages_oclgrind.sh RGX_CLI SOURCE_DIR
set -u
cli=$1
image=$2/tests/data/small-24x20.png
failures=0
passes=0

check() { # check clean|race PREFILTER POSTFILTER
    local want=$1 prefilter=$2 postfilter=$3
    local log status races
    log=$(oclgrind --data-races "$cli" segment --image "$image" --seeds "1,1;20,15" \
          --device oclgrind --prefilter "$prefilter" --postfilter "$postfilter" 2>&1)
    status=$?
    races=$(grep -c "data race" <<<"$log")
    # Memory errors (an integral row read past its end) fail every variant.
    if grep -q "FATAL ERROR\|Invalid read\|Invalid write" <<<"$log" || [ "$status" -ne 0 ]; then
        echo "FAIL: $prefilter $postfilter: exit $status"; grep -m 5 -A 3 "FATAL\|Invalid\|rgx-cli:\|error" <<<"$log"
        failures=$((failures + 1)); return
    fi
    if { [ "$want" = clean ] && [ "$races" -eq 0 ]; } ||
       { [ "$want" = race ] && [ "$races" -gt 0 ] && grep -q "Kernel: box_mean_async" <<<"$log"; }; then
        passes=$((passes + 1))
        echo "ok: --prefilter $prefilter --postfilter $postfilter: $races races (expected $want)"
    else
        echo "FAIL: --prefilter $prefilter --postfilter $postfilter: expected $want, oclgrind reported $races races"
        grep -m 5 -A 8 "data race" <<<"$log"
        failures=$((failures + 1))
    fi
}

check race  boxmean:5:async-nobarrier none
check race  boxmean:2:async-nobarrier none
check clean boxmean:5:async none
check clean boxmean:31:async none
check clean boxmean:6:direct none
check clean gaussian:2:async-halo none
check clean gaussian:12:async-halo none
check clean gaussian:3:direct none
check clean none density:3:4:vload8-expr
check clean none density:4:6:vload8-serial
check clean none density:50:100:scalar

echo "stage races under oclgrind: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
