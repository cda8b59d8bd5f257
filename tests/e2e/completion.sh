#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion.sh ASYMU: the bash completion asymu generates (issue 25 part
# 2) completes subcommands, each one's options, --policy's values, and
# files once `asymu run` has its program. Prints what each command line
# completes to; the test compares it with expected/cli-completion.out.
set -u
source <("$1" options-doc --bash-completion) || exit 1
complete_line() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _asymu
    echo "[$*]" $(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort)
}
cd "$(mktemp -d /tmp/asymu-completion.XXXXXX)" || exit 1
touch prog-aarch64 prog-armhf
complete_line asymu ""
complete_line asymu re
complete_line asymu run --po
complete_line asymu run --policy ""
complete_line asymu run --trace-format ""
complete_line asymu run --soc sm8
complete_line asymu run --cpus 4 --aarch32 0-3 --d
complete_line asymu run --cpus 4 prog
complete_line asymu run --cpus 4 prog-aarch64 --cp
complete_line asymu run -- --cp
complete_line asymu compare x.yaml --policies ""
complete_line asymu replay --j
complete_line asymu top --
complete_line asymu help c
cd / && rm -rf "$OLDPWD"
