#!/usr/bin/env bash
# rgx-cli bench --volume at its smallest (phantoms of 32^3 and 48^3, two
# queue variants): it finishes with exit code 0, every case of every size
# has its table, a best-variant line and only "ok" in its check column, the
# flood fill and the CPU reference ran where docs/PERFORMANCE.md says, and
# the JSON holds the same. Then its input errors.
# Usage: bench_volume.sh RGX_CLI
set -u
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*"
    cat "$work/out" "$work/err" 2>/dev/null
    exit 1
}

variants='driver=host-sync,frontier=queue,collectives=atomics;driver=host-batched,frontier=queue,collectives=atomics'
"$cli" bench --volume --sizes 32,48 --repeats 2 --variants "$variants" --json "$work/volume.json" \
    >"$work/out" 2>"$work/err"
code=$?
[ "$code" -eq 0 ] || fail "rgx-cli bench --volume exited with $code"

python3 - "$work/out" "$work/volume.json" <<'EOF' || fail "the output above is not what the bench promises"
import json, re, sys

text = open(sys.argv[1]).read()
bench = json.load(open(sys.argv[2]))
problems = []

def need(condition, what):
    if not condition:
        problems.append(what)

names = ["whole", "background", "small", "64 seeds"]
# The text: per size and case a header, a table of two variants, all "ok", a best-variant line.
blocks = re.split(r"\n(?=phantom-\d+ (?:whole|background|small|64 seeds): )", text)
seen = set()
for block in blocks[1:]:
    header = block.splitlines()[0]
    match = re.match(r"phantom-(\d+) (whole|background|small|64 seeds): ", header)
    size, name = int(match.group(1)), match.group(2)
    seen.add((size, name))
    rows = [line for line in block.splitlines() if re.match(r"  host-(sync|batched)/queue/atomics ", line)]
    need(len(rows) == 2, "%d %s: two variant rows, not %d" % (size, name, len(rows)))
    for row in rows:
        need(row.rstrip().endswith("  ok"), "%d %s: check ok in '%s'" % (size, name, row.strip()))
    need("  best variant: " in block, "%d %s: a best-variant line" % (size, name))
    if name == "64 seeds":
        need(re.search(r"CPU reference: [\d.]+ ms\n", block), "%d %s: the CPU reference ran" % (size, name))
        need("flood fill (" not in block, "%d %s: no flood fill for 64 seeds" % (size, name))
    else:
        need("flood fill (ITK-style ConnectedThreshold" in block, "%d %s: the flood fill ran" % (size, name))
        need(re.search(r"CPU reference: [\d.]+ ms; against the flood fill: ok", block),
             "%d %s: the CPU reference ran and equals the flood fill" % (size, name))
        need("faster than the flood fill" in block or "slower than the flood fill" in block,
             "%d %s: the ratio to the flood fill" % (size, name))
for size in (32, 48):
    for name in names:
        need((size, name) in seen, "a table for phantom-%d %s" % (size, name))

# The JSON: the same cases, each variant checked ok.
for key in ("device", "host", "hostThreads", "settings", "cases"):
    need(key in bench, "top-level key " + key)
cases = bench.get("cases", [])
need(len(cases) == 8, "8 cases in the JSON, not %d" % len(cases))
for case in cases:
    what = "%s %s" % (case.get("phantom"), case.get("case"))
    for key in ("size", "mode", "lower", "upper", "connectivity", "seeds", "classifiedVoxels", "iterations",
                "floodFillMs", "cpuReferenceMs", "cpuReferenceSkipped", "best", "variants"):
        need(key in case, what + ": key " + key)
    need(case.get("best") is not None, what + ": a best variant")
    variants = case.get("variants", [])
    need(len(variants) == 2, what + ": two variants")
    for variant in variants:
        need(variant.get("check") == "ok", what + ": " + str(variant.get("variant")) + " checked ok")
        need(variant.get("residentHostMs", {}).get("median", 0) > 0, what + ": a resident time")
        need(variant.get("firstClickMs", 0) > 0, what + ": a first click time")
        need(variant.get("classifiedVoxels") == case.get("classifiedVoxels"), what + ": the same voxel count")
        if case.get("case") != "64 seeds":
            need(variant.get("speedupOverFloodFill") is not None, what + ": a ratio to the flood fill")
    if case.get("case") == "whole":
        need(case.get("classifiedVoxels") == case.get("size") ** 3, what + ": every voxel")
    if case.get("case") == "small":
        need(case.get("classifiedVoxels") < 1000000, what + ": under 1 M voxels")

if problems:
    print("\n".join(problems))
    sys.exit(1)
EOF

# --cpu-reference never: the 64-seed case is then unchecked, and says so.
"$cli" bench --volume --sizes 16 --repeats 1 --cpu-reference never \
    --variants 'driver=host-batched,frontier=queue,collectives=atomics' >"$work/out" 2>"$work/err" ||
    fail "bench --volume --cpu-reference never exited with $?"
grep -qF "CPU reference: skipped (--cpu-reference never)" "$work/out" || fail "no line on the skipped CPU reference"
grep -qF "nothing checks this case" "$work/out" || fail "no line on the unchecked 64-seed case"

# Input errors: one line, exit code 2.
for arguments in "--sizes 8" "--connectivity 8" "--cpu-reference sometimes" "--repeats 0"; do
    # shellcheck disable=SC2086
    "$cli" bench --volume $arguments >"$work/out" 2>"$work/err"
    code=$?
    [ "$code" -eq 2 ] || fail "bench --volume $arguments exited with $code, not 2"
    [ "$(wc -l <"$work/err")" -eq 1 ] || fail "bench --volume $arguments: not one line on stderr"
done
echo "bench --volume: every case ok, tables and JSON complete, input errors refused"
