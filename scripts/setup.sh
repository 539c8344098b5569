#!/usr/bin/env bash
# Installs what RGX needs on Debian 12: compilers, Qt 6, QCustomPlot, the
# OpenCL loader and headers, PoCL, Oclgrind, Xvfb, GoogleTest, OpenCV's
# imgproc (for the bench only), the volume libraries (nifti_clib, GDCM,
# libtiff), and Intel's CPU OpenCL runtime (from PyPI, registered with the
# ICD loader).
# Safe to run again: whatever is already installed is skipped quickly.
# Runs as root, or through sudo for the steps that need it.
set -euo pipefail

readonly APT_PACKAGES=(
    cmake ninja-build g++
    qt6-base-dev qt6-image-formats-plugins
    libqcustomplot-dev libqcustomplot2.1-qt6
    ocl-icd-opencl-dev opencl-clhpp-headers opencl-c-headers
    pocl-opencl-icd oclgrind clinfo
    xvfb xauth
    libgtest-dev
    python3 python3-venv
    libopencv-imgproc-dev # rgx-cli bench only (cv::floodFill baseline): core + imgproc, about 17 MB to fetch
    # volumes (docs/VOLUMES.md): NIfTI-1/2 through nifti_clib, DICOM through
    # GDCM, multi-page TIFF through libtiff, gzip through zlib
    libnifti2-dev libgdcm-dev libtiff-dev zlib1g-dev
    # the install and package tests (tests/install): validators of the desktop
    # entry, AppStream metadata, MIME type and manual pages; the completion machinery;
    # Debian's checker of the .deb
    desktop-file-utils appstream shared-mime-info man-db bash-completion lintian
)
readonly INTEL_VENV=/opt/rgx-intel-ocl
readonly INTEL_PIP_PACKAGES=(intel-opencl-rt intel-cmplr-lib-rt)
readonly INTEL_ICD=/etc/OpenCL/vendors/intel-cpu.icd
readonly INTEL_PLATFORM_NAME="Intel(R) OpenCL"

say() { printf 'setup: %s\n' "$*"; }
warn() { printf 'setup: WARNING: %s\n' "$*" >&2; }

if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    echo "setup: not root and no sudo: run this script as root" >&2
    exit 1
fi

is_installed() {
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

install_debian_packages() {
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        is_installed "$package" || missing+=("$package")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        say "Debian packages: all installed"
        return
    fi
    say "Debian packages: installing ${missing[*]}"
    "${as_root[@]}" apt-get update
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

intel_platform_listed() {
    clinfo -l 2>/dev/null | grep -qF "$INTEL_PLATFORM_NAME"
}

# Intel's runtime ships as Python wheels: libintelocl.so comes with
# intel-opencl-rt and finds the compiler runtime libraries of
# intel-cmplr-lib-rt (libimf, libsvml, libirng, libintlc) through its RPATH
# in the same lib folder, so both go into one venv. Every failure returns 1
# explicitly: `set -e` does not apply inside a function called from `if`.
install_intel_runtime() {
    local library="$INTEL_VENV/lib/libintelocl.so"
    if [[ -f $library && -f $INTEL_ICD ]] && grep -qxF "$library" "$INTEL_ICD" && intel_platform_listed; then
        say "Intel CPU OpenCL runtime: installed ($library)"
        return 0
    fi
    if [[ ! -x $INTEL_VENV/bin/pip ]]; then
        # Whatever python3 comes first on PATH: Debian's (with python3-venv)
        # or one of pyenv's.
        local python
        python=$(command -v python3) || { warn "no python3 found"; return 1; }
        say "Intel CPU OpenCL runtime: creating the venv $INTEL_VENV with $python"
        "${as_root[@]}" "$python" -m venv "$INTEL_VENV" || return 1
    fi
    say "Intel CPU OpenCL runtime: pip install ${INTEL_PIP_PACKAGES[*]}"
    "${as_root[@]}" "$INTEL_VENV/bin/pip" install --disable-pip-version-check --quiet --retries 2 --timeout 30 "${INTEL_PIP_PACKAGES[@]}" \
        || return 1
    library=$(find "$INTEL_VENV" -name libintelocl.so -print -quit)
    if [[ -z $library ]]; then
        warn "libintelocl.so is not in $INTEL_VENV after pip install"
        return 1
    fi
    "${as_root[@]}" mkdir -p "$(dirname "$INTEL_ICD")" || return 1
    printf '%s\n' "$library" | "${as_root[@]}" tee "$INTEL_ICD" >/dev/null || return 1
    if ! intel_platform_listed; then
        warn "clinfo -l does not list \"$INTEL_PLATFORM_NAME\" after registering $library"
        return 1
    fi
    say "Intel CPU OpenCL runtime: registered $library in $INTEL_ICD"
}

install_debian_packages
if ! install_intel_runtime; then
    warn "Intel's CPU OpenCL runtime is not available; RGX carries on with PoCL and Oclgrind only"
fi
say "OpenCL platforms:"
clinfo -l || warn "clinfo -l failed"
