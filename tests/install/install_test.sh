#!/usr/bin/env bash
# cmake --install into a temporary DESTDIR (prefix /usr, as the .deb has it),
# then: the installed rgx-cli segments a bundled sample found from its own
# folder and loads the floodFill module from the library folder, the
# installed rgx opens a sample and draws it (offscreen), and the installed
# desktop entry, AppStream metadata, MIME type and manual pages validate.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
DESTDIR=$root cmake --install "$build" --prefix /usr >/dev/null || fail "cmake --install failed"
usr=$root/usr
id=io.github.rgxexplorer.rgx

# No path into the source or build tree: the samples come from share/.
unset RGX_SAMPLES_DIR
"$usr/bin/rgx-cli" --version | grep -qx "rgx-cli [0-9.]*" || fail "rgx-cli --version"
segment=$("$usr/bin/rgx-cli" segment --image "$usr/share/rgx/samples/coins.png" \
    --seeds-file "$usr/share/rgx/samples/coins.seeds" --verify --out-labels "$root/labels.png")
grep -qx "verify: 0 pixels differ" <<<"$segment" || fail "the installed rgx-cli did not segment coins exactly: $segment"
[[ -s $root/labels.png ]] || fail "no labels written"
echo "installed rgx-cli: coins segmented, verify: 0 pixels differ"
# The sample volumes: the MNI template beside the images, the CT series as a folder.
[[ -s $usr/share/rgx/samples/mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz ]] || fail "the MNI template is not installed"
[[ -s $usr/share/rgx/samples/mni_icbm152_t1_tal_nlin_sym_09a_converted.seeds ]] || fail "the MNI template's seeds are not installed"
[[ $(ls "$usr/share/rgx/samples/dicom-ct-series" | wc -l) -eq 5 ]] || fail "the CT series is not installed with its 5 files"
segment=$("$usr/bin/rgx-cli" segment --image "$usr/share/rgx/samples/dicom-ct-series" --seeds 8,8,2 \
    --mode range --lower 100 --upper 100 --verify --out-labels "$root/ct-labels.nii.gz")
grep -qx "verify: 0 pixels differ" <<<"$segment" || fail "the installed rgx-cli did not segment the CT series exactly: $segment"
grep -q "^volume: 16x16x5" <<<"$segment" || fail "the installed CT series is not read as a volume: $segment"
[[ -s $root/ct-labels.nii.gz ]] || fail "no volume labels written"
echo "installed rgx-cli: the CT series segmented as a volume, verify: 0 pixels differ"

bench=$("$usr/bin/rgx-cli" bench --samples --sizes none --seeds 1 --modes range --repeat 1 --warmup 0 \
    --variants 'driver=host-batched')
grep -q "^coins " <<<"$bench" || fail "rgx-cli bench --samples did not find the installed samples"
if ls "$build"/app/rgx_floodfill.* >/dev/null 2>&1; then
    grep -q "cv::floodFill: yes" <<<"$bench" || fail "the installed rgx-cli did not load the floodFill module"
    echo "installed rgx-cli bench: samples found, floodFill module loaded from $(cd "$usr" && ls -d lib*/rgx lib/*/rgx 2>/dev/null | head -1)"
fi

if [[ -x $usr/bin/rgx ]]; then
    QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$root/config XDG_RUNTIME_DIR=$root timeout 120 "$usr/bin/rgx" --no-settings \
        --sample coins --screenshot "$root/window.png" >/dev/null 2>&1 || fail "the installed rgx did not open the coins sample"
    [[ -s $root/window.png ]] || fail "the installed rgx saved no screenshot"
    echo "installed rgx: coins sample opened and drawn"
    desktop-file-validate "$usr/share/applications/$id.desktop" || fail "desktop-file-validate"
    grep -q '^Icon='"$id"'$' "$usr/share/applications/$id.desktop" || fail "the desktop entry names another icon"
fi
appstreamcli validate --no-net "$usr/share/metainfo/$id.metainfo.xml" || fail "appstreamcli validate"
for size in 16x16 32x32 48x48 256x256 scalable; do
    ls "$usr/share/icons/hicolor/$size/apps/$id".* >/dev/null 2>&1 || fail "no $size icon"
done

# The MIME type: the shared-mime-info database built from our package alone
# knows the session type by its glob.
mkdir -p "$root/mime/packages"
cp "$usr/share/mime/packages/$id.xml" "$root/mime/packages/"
update-mime-database "$root/mime" >/dev/null 2>&1 || fail "update-mime-database rejected $id.xml"
grep -q "application/x-rgx-session:\*\.rgx" "$root/mime/globs" || fail "the session type has no *.rgx glob"

for page in rgx rgx-cli; do
    warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -l "$usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
    [[ -z $warnings ]] || fail "man $page: $warnings"
done
echo "installed files validate: desktop entry, AppStream, MIME, icons, manual pages"
