#!/usr/bin/env bash
# rgx-cli bench at its smallest: it finishes, its JSON and CSV hold what
# docs/PERFORMANCE.md describes, and every result equals the CPU reference.
# Usage: bench_smoke.sh RGX_CLI
set -u
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

variants='driver=host-sync,frontier=queue,collectives=atomics;driver=host-batched,frontier=queue,collectives=atomics'
"$cli" bench --sizes 64 --repeat 1 --warmup 0 --variants "$variants" \
    --json "$work/bench.json" --csv "$work/bench.csv" >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -ne 0 ]; then
    echo "FAIL: rgx-cli bench exited with $code"
    cat "$work/out" "$work/err"
    exit 1
fi

for line in "launch floor (empty kernel" "noise-64 64x64, 1 seed, competitive" "best variant:"; do
    if ! grep -qF -- "$line" "$work/out"; then
        echo "FAIL: the table has no line with '$line':"
        cat "$work/out"
        exit 1
    fi
done

python3 - "$work/bench.json" "$work/bench.csv" <<'EOF' || { cat "$work/out"; exit 1; }
import csv, json, sys

with open(sys.argv[1]) as f:
    bench = json.load(f)
problems = []

def need(condition, what):
    if not condition:
        problems.append(what)

for key in ("device", "hostThreads", "openCv", "settings", "launchFloor", "skipped", "cases"):
    need(key in bench, "top-level key " + key)
floor = bench.get("launchFloor", {})
for key in ("pipelinedMicroseconds", "blockingReadMicroseconds"):
    need(floor.get(key, {}).get("median", 0) > 0, "launchFloor." + key + ".median > 0")
need(bench.get("device", {}).get("driverVersion") is not None, "device.driverVersion")

cases = bench.get("cases", [])
# One size x seeds 1,4,64 x modes competitive,range.
need(len(cases) == 6, "6 cases, not %d" % len(cases))
rows = 0
for case in cases:
    name = "%s %s seeds %s" % (case.get("image"), case.get("seeds"), case.get("mode"))
    for key in ("image", "width", "height", "seeds", "mode", "iterations", "classifiedPixels", "results"):
        need(key in case, name + ": key " + key)
    results = case.get("results", [])
    rows += len(results)
    kinds = [r.get("kind") for r in results]
    need(kinds.count("cpu-reference") == 1, name + ": one cpu-reference")
    need(kinds.count("fast-cpu") == 1, name + ": one fast-cpu")
    need(kinds.count("variant") == 2, name + ": two variants")
    if bench.get("openCv") and case.get("mode") == "range" and case.get("seeds") == 1:
        need(kinds.count("opencv-floodfill") == 1, name + ": cv::floodFill")
    for r in results:
        what = name + " " + r.get("implementation", "?")
        need("skipped" not in r, what + " skipped: " + str(r.get("skipped")))
        need(r.get("verified") is True, what + " check " + str(r.get("check")))
        need(r.get("hostMilliseconds", {}).get("median", 0) > 0, what + ": hostMilliseconds")
        for key in ("iterations", "pixelsPerSecond", "speedupOverReference"):
            need(key in r, what + ": key " + key)
        if r.get("kind") == "variant":
            need(r.get("deviceMilliseconds", {}).get("median", 0) > 0, what + ": deviceMilliseconds")
            need("median" in (r.get("idleMilliseconds") or {}), what + ": idleMilliseconds")
            for key in ("speedupOverHostSync", "perIterationOverLaunchFloor", "speedupOverFastCpu",
                        "microsecondsPerIteration", "deviceBytes"):
                need(isinstance(r.get(key), (int, float)), what + ": number " + key)

with open(sys.argv[2]) as f:
    table = list(csv.DictReader(f))
need(len(table) == rows, "CSV rows %d, JSON results %d" % (len(table), rows))
need(all(row["check"] in ("ok", "reference") for row in table), "every CSV check ok")

if problems:
    print("FAIL: bench JSON/CSV:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("bench smoke: %d cases, %d results, all equal to the reference" % (len(cases), rows))
EOF
