#!/usr/bin/env bash
# The .deb passes Debian's own checker: `cpack -G DEB` in the build folder,
# then lintian, which must report no error and no warning (informational and
# pedantic tags are allowed). Prints lintian's report on failure.
# Usage: deb_lintian.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

command -v lintian >/dev/null || fail "lintian is not installed (scripts/setup.sh installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work" >/dev/null) || fail "cpack -G DEB failed"
deb=$(ls "$work"/rgx_*.deb)
echo "package: $(basename "$deb")"

# lintian exits 2 when it emits a tag of a level named in --fail-on, 1 when
# it fails itself.
status=0
report=$(lintian --fail-on error,warning "$deb" 2>&1) || status=$?
[[ -z $report ]] || printf '%s\n' "$report"
[[ $status -eq 0 ]] ||
    fail "lintian reported errors or warnings (exit status $status); lintian-explain-tags TAG explains one"
echo "lintian: no error, no warning"
