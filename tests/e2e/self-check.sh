# SPDX-License-Identifier: GPL-2.0-or-later
# self-check.sh, sourced by the house checks that grep the source
# (kernel-includes.sh, abi-word.sh): self_check PATTERN HARMLESS PLANTED...
# exits 1 unless the grep -E PATTERN matches each planted line and not the
# harmless one, so that a broken pattern cannot pass unseen.
self_check() {
    pattern=$1 harmless=$2
    shift 2
    for planted in "$@"; do
        printf '%s\n' "$planted" | grep -qE "$pattern" ||
            { echo "self-check: /$pattern/ misses the planted \`$planted'"; exit 1; }
    done
    if printf '%s\n' "$harmless" | grep -qE "$pattern"; then
        echo "self-check: /$pattern/ matches the harmless \`$harmless'"
        exit 1
    fi
}
