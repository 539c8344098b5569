#!/usr/bin/env bash
# Configures and builds RGX with the CMake preset "default" (into build/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake --preset default
cmake --build --preset default
