#!/usr/bin/env bash
# Sets up, builds and starts the RGX explorer on the coins sample with its
# seeds. Extra arguments go to rgx.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
    echo "run: rgx is a desktop program and no display is set (DISPLAY or WAYLAND_DISPLAY)." >&2
    echo "run: start it from a desktop session, or use the headless twin build/app/rgx-cli." >&2
    exit 1
fi
exec build/app/rgx resources/samples/coins.png --seeds-file resources/samples/coins.seeds "$@"
