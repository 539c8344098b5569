#!/usr/bin/env bash
# The .deb declares what the programs need: `cpack -G DEB` in the build
# folder, then every library that rgx and rgx-cli link directly (ELF NEEDED)
# must come from a Debian package named in Depends, Recommends must name
# PoCL, and the package must hold the programs, the module, the samples and
# the desktop files. Usage: deb_control.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work" >/dev/null) || fail "cpack -G DEB failed"
deb=$(ls "$work"/rgx_*.deb)
echo "package: $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
echo "Depends: $depends"
echo "Recommends: $recommends"
[[ $recommends == *pocl-opencl-icd* ]] || fail "Recommends does not name pocl-opencl-icd"

# The Debian package that holds a file, whichever of /lib and /usr/lib the
# package database records (Debian 12 is merged-/usr).
owner() {
    local path=$1
    local candidate package
    for candidate in "$path" "$(readlink -f "$path")" "/usr${path#/usr}" "${path#/usr}"; do
        # awk reads to the end: an early exit would stop dpkg with SIGPIPE,
        # which pipefail turns into a failure.
        package=$(dpkg -S "$candidate" 2>/dev/null | awk -F: 'NR == 1 {print $1}')
        [[ -n $package ]] && { echo "$package"; return 0; }
    done
    return 1
}

# Each alternative of each Depends entry, without versions.
declared=$(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/ //g' | grep -v '^$')
checked=0
for program in "$build/app/rgx" "$build/app/rgx-cli"; do
    [[ -x $program ]] || continue
    for library in $(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [[ $library == ld-linux* ]] && continue
        path=$(ldconfig -p | awk -v l="$library" '$1 == l && !found {print $NF; found = 1}')
        [[ -n $path ]] || fail "$library (needed by $(basename "$program")) is not known to ldconfig"
        package=$(owner "$path") || fail "no Debian package holds $path"
        grep -qx "$package" <<<"$declared" ||
            fail "$(basename "$program") needs $library from $package, which Depends does not name"
        checked=$((checked + 1))
    done
done
[[ $checked -gt 0 ]] || fail "no program found in $build/app"
echo "libraries checked against Depends: $checked"

contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
for file in ./usr/bin/rgx ./usr/bin/rgx-cli ./usr/share/rgx/samples/coins.png \
    ./usr/share/rgx/samples/mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz \
    ./usr/share/rgx/samples/dicom-ct-series/2062 \
    ./usr/share/applications/io.github.rgxexplorer.rgx.desktop \
    ./usr/share/metainfo/io.github.rgxexplorer.rgx.metainfo.xml \
    ./usr/share/mime/packages/io.github.rgxexplorer.rgx.xml \
    ./usr/share/icons/hicolor/scalable/apps/io.github.rgxexplorer.rgx.svg \
    ./usr/share/man/man1/rgx-cli.1.gz ./usr/share/bash-completion/completions/rgx-cli; do
    grep -qxF "$file" <<<"$contents" || fail "the package lacks $file"
done
echo "deb control: ok"
