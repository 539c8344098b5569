#!/usr/bin/env bash
# Retakes the screenshots of README.md and docs/screenshots/ under Xvfb,
# each with the command shown here, from a build in build/ (scripts/build.sh).
# Look at every one afterwards: a picture nobody can read is a bug.
# Usage: screenshots.sh [FILE.png...]  (only those, e.g. volume-mni-brain.png)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=docs/screenshots
rgx=build/app/rgx
only=" $* "
shoot() { # FILE ARGS...
    local file=$1
    shift
    [[ $only == "  " || $only == *" $file "* ]] || return 0
    QT_QPA_PLATFORM=xcb xvfb-run --auto-servernum -s "-screen 0 1600x1000x24" \
        "$rgx" --no-settings "$@" --screenshot "$out/$file" 2>&1 | grep -v XDG_RUNTIME_DIR || true
    [[ -s $out/$file ]] || { echo "screenshots: $file was not written" >&2; exit 1; }
}

# The first screen: the coins sample on its suggested parameters (adaptive, tolerance 45).
shoot main-window.png --sample coins --run
# Corruption views of the wrong-on-purpose local-nobarrier collectives.
shoot corruption-local-nobarrier-sweep.png --sample coins --show-differences --run \
    --variant driver=host-batched,frontier=sweep,collectives=local-nobarrier,tile=direct
shoot corruption-local-nobarrier-queue.png --sample coins --show-differences --run \
    --variant driver=host-batched,frontier=queue,collectives=local-nobarrier
# The corruption as it happens (issue 29): the tile copies without their
# barrier at iteration 40, the damage along tile rows; the chart counts the
# differing pixels per iteration and marks the first (--frame first-difference
# shows that one: 70 pixels, too few to see at this size).
shoot corruption-as-it-happens.png --sample coins --show-differences --run --chart per-iteration --frame 40 \
    --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier
# The work-group map (issue 29): the corruption view of the tile copies
# without their barrier shows the sweep's 16 x 16 tiles by itself; the cell
# at 250,170 and the pixels its work-group reads outlined.
shoot work-group-map.png --sample coins --show-differences --run --hover 250,170 \
    --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier
# Race markers: the same variant checked under Oclgrind, one marker per pixel
# the race touches (the tile rows at its halo), a pixel of the list selected.
shoot race-markers.png --sample coins --show-differences --run --check-races \
    --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier
# One lesson end to end (Help > Lessons > Missing Barrier between Async
# Copies): the tour's fourth step, the race check done, playback at iteration
# 40 with the tiles drawn and the card beside the image.
shoot lesson-async-copies.png --lesson async-copies --lesson-step 4
# Host-sync against host-batched: kernel totals and idle gaps, and the timeline.
shoot timing-host-sync-vs-host-batched.png --sample astronaut --run --chart per-kernel \
    --variant driver=host-sync,frontier=queue,collectives=atomics \
    --compare driver=host-batched,frontier=queue,collectives=atomics
shoot timeline-host-sync-vs-host-batched.png --sample astronaut --run --chart timeline \
    --variant driver=host-sync,frontier=queue,collectives=atomics \
    --compare driver=host-batched,frontier=queue,collectives=atomics
# Many iterations per launch on Intel's CPU runtime, against one per launch.
shoot fusion-vs-host-sync.png --sample astronaut --device intel --run --chart per-iteration \
    --variant driver=host-sync,frontier=queue,collectives=local \
    --compare driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier
# The binary-search lab.
shoot binary-search-lab.png --lab host-batched
# A volume: the bundled MNI brain template in its three slice views, the white
# matter grown in 3D from the seed of its seeds file (range 15/57, 26-connected).
shoot volume-mni-brain.png --sample mni
# The work-group map on a volume (issue 29): the sweep's 16 x 16 tiles over the
# MNI template's slices stacked, in the corruption view of the tile copies
# without their barrier; the tile of the crosshair's voxel outlined.
shoot volume-work-group-map.png --sample mni --show-differences --run --hover 98,116,94 \
    --variant driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier
echo "screenshots: written to $out"
