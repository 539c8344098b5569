#!/usr/bin/env bash
# The manual pages and the bash completion are kept in step with --help:
# every option that `rgx-cli COMMAND --help` (or `rgx --help`) prints is
# named in the manual page, and the completion offers exactly the options of
# each command's help. When the completion machinery of bash-completion is
# installed, the completion is also run as bash would run it.
# Usage: man_in_step.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

options_of() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
# The options a manual page names (roff writes a dash as \-).
man_options() { sed 's/\\-/-/g' "$source_dir/resources/man/$1.1" | options_of; }

source "$source_dir/resources/completion/rgx-cli" 2>/dev/null || true
declare -F _rgx_cli_options >/dev/null || fail "resources/completion/rgx-cli defines no _rgx_cli_options"

cli=$build/app/rgx-cli
in_man=$(man_options rgx-cli)
for command in devices variants segment lab bench; do
    in_help=$("$cli" "$command" --help | options_of)
    missing=$(comm -23 <(echo "$in_help") <(echo "$in_man"))
    [[ -z $missing ]] || fail "man rgx-cli does not name these options of '$command --help': $missing"
    offered=$(_rgx_cli_options "$command" | tr ' ' '\n' | options_of)
    # `devices --help` names --device in its prose (how the list is numbered).
    [[ $command == devices ]] && in_help=$(grep -vx -- --device <<<"$in_help")
    expected=$(printf '%s\n--help\n' "$in_help" | sort -u)
    [[ $offered == "$expected" ]] ||
        fail "the completion of '$command' offers: $(echo $offered); its --help has: $(echo $expected)"
done
echo "rgx-cli: every command's options are in its manual page and its completion"

if [[ -x $build/app/rgx ]]; then
    in_help=$("$build/app/rgx" --help | options_of)
    missing=$(comm -23 <(echo "$in_help") <(man_options rgx))
    [[ -z $missing ]] || fail "man rgx does not name these options of 'rgx --help': $missing"
    echo "rgx: every option of --help is in its manual page"
fi

completions=/usr/share/bash-completion/bash_completion
if [[ -f $completions ]]; then
    source "$completions"
    source "$source_dir/resources/completion/rgx-cli"
    complete_line() { # words... : what bash offers after them
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="${COMP_WORDS[*]}"
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        _rgx_cli
        echo "${COMPREPLY[*]}"
    }
    [[ $(complete_line rgx-cli seg) == segment ]] || fail "rgx-cli seg<TAB> does not give segment"
    [[ $(complete_line rgx-cli segment --mo) == --mode ]] || fail "segment --mo<TAB> does not give --mode"
    [[ $(complete_line rgx-cli segment --mode r) == range ]] || fail "--mode r<TAB> does not give range"
    [[ $(complete_line rgx-cli bench --inter) == --interactive ]] || fail "bench --inter<TAB>"
    # Volumes: their connectivities, and bench --volume's options and values.
    [[ $(complete_line rgx-cli segment --connectivity 2) == 26 ]] || fail "segment --connectivity 2<TAB> does not give 26"
    [[ $(complete_line rgx-cli bench --volume --connectivity "") == "6 18 26" ]] ||
        fail "bench --volume --connectivity <TAB> does not give 6 18 26"
    [[ $(complete_line rgx-cli bench --vol) == --volume ]] || fail "bench --vol<TAB> does not give --volume"
    [[ $(complete_line rgx-cli bench --volume --cpu-reference n) == never ]] || fail "--cpu-reference n<TAB>"
    [[ $(complete_line rgx-cli lab "") == "binary-search residency" ]] ||
        fail "lab <TAB> does not give binary-search residency"
    [[ $(complete_line rgx-cli lab residency --t) == --time-limit ]] || fail "lab residency --t<TAB>"
    echo "bash completion: commands, options and values complete as typed, volumes' too"
else
    echo "bash completion: $completions not installed, completion not run"
fi
