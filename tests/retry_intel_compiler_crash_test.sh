#!/usr/bin/env bash
# The launcher of retry_intel_compiler_crash.sh retries a command once where
# Intel's compiler crashed in it, and never where the command failed by itself.
set -u
launcher=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
# Crashes in Intel's compiler the first time, passes the second.
cat > "$dir/crash-once.sh" <<'SCRIPT'
#!/usr/bin/env bash
if [ ! -f "$1/crashed" ]; then
    touch "$1/crashed"
    echo "PLEASE submit a bug report to https://software.intel.com/en-us/support/priority-support and include the crash backtrace" >&2
    exit 139
fi
echo "passed"
SCRIPT
# Fails by itself.
cat > "$dir/fail.sh" <<'SCRIPT'
#!/usr/bin/env bash
echo "[  FAILED  ] a test of its own" >&2
exit 1
SCRIPT
chmod +x "$dir/crash-once.sh" "$dir/fail.sh"
output=$(bash "$launcher" "$dir/crash-once.sh" "$dir" 2>&1)
status=$?
if [ "$status" -ne 0 ] || ! grep -q "^passed$" <<<"$output" || ! grep -q "runs once more" <<<"$output"; then
    echo "FAIL: a crash of Intel's compiler was not retried (exit $status): $output"; failures=$((failures + 1))
fi
output=$(bash "$launcher" "$dir/fail.sh" 2>&1)
status=$?
if [ "$status" -ne 1 ] || grep -q "runs once more" <<<"$output"; then
    echo "FAIL: a failure of the test's own was retried or hidden (exit $status): $output"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "retry_intel_compiler_crash: both cases as expected"
[ "$failures" -eq 0 ]
