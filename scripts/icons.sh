#!/usr/bin/env bash
# Renders the PNG sizes of the RGX icon from resources/icons/rgx.svg (the
# PNGs are committed; run this after changing the SVG). Needs rsvg-convert
# (Debian: librsvg2-bin), which only this script uses.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for size in 16 22 24 32 48 64 128 256 512; do
    rsvg-convert --width "$size" --height "$size" resources/icons/rgx.svg \
        --output "resources/icons/rgx-$size.png"
done
# The window icon embedded in the program (resources/rgx.qrc).
cp resources/icons/rgx-256.png resources/icons/rgx.png
echo "icons: resources/icons/rgx-{16..512}.png rendered from rgx.svg"
