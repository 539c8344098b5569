#!/usr/bin/env bash
# Sets up, builds and runs every test (engine, command line, GUI) with CTest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

# GUI tests draw offscreen; a test that needs a real X server gets Xvfb
# when no display is set.
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
if [[ -z ${DISPLAY:-} ]] && command -v xvfb-run >/dev/null; then
    exec xvfb-run --auto-servernum ctest --preset default
fi
exec ctest --preset default
