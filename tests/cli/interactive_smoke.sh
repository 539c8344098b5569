#!/usr/bin/env bash
# rgx-cli bench --interactive at its smallest: the click script on one
# resident session per variant finishes, every click equals the CPU
# reference, and its table and JSON hold what docs/PERFORMANCE.md
# describes (the first, the last and the slowest resident click's commands
# included).
# Usage: interactive_smoke.sh RGX_CLI
set -u
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cli" bench --interactive --sizes 64 --repeat 1 --variants 'fusion=tiles;driver=host-batched' \
    --json "$work/clicks.json" >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -ne 0 ]; then
    echo "FAIL: rgx-cli bench --interactive exited with $code"
    cat "$work/out" "$work/err"
    exit 1
fi
for line in "the first click again" "where \"the first click again\" went" "where \"add a seed\" went" "grow_tiles" "upload of the first click:" \
    "footprint after the script: device"; do
    if ! grep -qF -- "$line" "$work/out"; then
        echo "FAIL: the output has no line with '$line':"
        cat "$work/out"
        exit 1
    fi
done

python3 - "$work/clicks.json" "$work/out" <<'EOF' || { cat "$work/out"; exit 1; }
import json, sys

with open(sys.argv[1]) as f:
    bench = json.load(f)
problems = []

def need(condition, what):
    if not condition:
        problems.append(what)

for key in ("device", "repeat", "range", "clicks", "sessions"):
    need(key in bench, "top-level key " + key)
clicks = bench.get("clicks", [])
# Seven steps of the script, two variants.
need(len(clicks) == 14, "14 clicks, not %d" % len(clicks))
for click in clicks:
    name = "%s, %s" % (click.get("variant"), click.get("step"))
    for key in ("step", "resident", "hostMs", "hostMilliseconds", "deviceMs", "iterations", "classifiedPixels",
                "boxPixels", "check", "size", "variant", "commands"):
        need(key in click, name + ": key " + key)
    need(click.get("check") == "ok", name + ": check " + str(click.get("check")))
    commands = click.get("commands", [])
    need(len(commands) > 0, name + ": commands")
    need(all(c.get("us", -1) >= 0 and c.get("startUs", -1) >= 0 and c.get("command") for c in commands),
         name + ": every command has a name, a start and a length")
    need(click.get("resident") == (click.get("step") != "add a seed"), name + ": resident")
# Under each table, the slowest resident click's commands too, where it is
# not the last click (whose commands are there anyway).
with open(sys.argv[2]) as f:
    text = f.read()
for variant in sorted({c.get("variant") for c in clicks}):
    mine = [c for c in clicks if c.get("variant") == variant]
    slowest = max(mine[1:], key=lambda c: c.get("hostMs", 0))
    if slowest is not mine[-1]:
        need('where "%s" went (the slowest resident click;' % slowest.get("step") in text,
             variant + ": the slowest resident click's commands (" + str(slowest.get("step")) + ")")
firsts = [c for c in clicks if not c.get("resident")]
need(all(c.get("uploadGBps", 0) > 0 for c in firsts), "uploadGBps of every first click")
sessions = bench.get("sessions", [])
need(len(sessions) == 2, "2 sessions")
need(all(0 < s.get("deviceBytes", 0) <= s.get("deviceBytesBound", 0) for s in sessions), "footprint within its bound")
if problems:
    print("FAIL:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("ok: %d clicks" % len(clicks))
EOF
