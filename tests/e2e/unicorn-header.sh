#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# unicorn-header.sh SOURCE: only the files that call Unicorn compile against
# <unicorn/unicorn.h> (issue 25 item 1; docs/structure.md). A header that
# only holds or passes an engine, a context or a hook handle includes
# uc_fwd.h instead; the one engine-facing header allowed to include Unicorn
# is emu/machine/engine.h, and no other header may include it (so a header
# can never bring Unicorn in by the back door). Each .c file that includes
# <unicorn/unicorn.h> or engine.h must then use Unicorn itself: call a uc_*
# function or name a UC_* constant.
cd "$1" || exit 1
allowed='emu/machine/engine.h'
if [ -e .git ]; then git ls-files; else find . -type f ! -path './build*' | sed 's|^\./||'; fi |
    grep -E '\.(c|h)$' > /tmp/uc-header-files.$$
total=$(wc -l < /tmp/uc-header-files.$$)
# The files that include Unicorn or engine.h, found in one pass.
tr '\n' '\0' < /tmp/uc-header-files.$$ |
    xargs -0 grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*(<unicorn/|"engine\.h")' \
    > /tmp/uc-header-users.$$
bad=0 users=0
while read -r f; do
    case "$f" in
    *.h)
        if [ "$f" != "$allowed" ] || grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"engine\.h"' "$f"; then
            echo "header includes Unicorn (use uc_fwd.h; only $allowed may): $f"
            bad=$((bad + 1))
        fi ;;
    *)
        users=$((users + 1))
        if ! grep -qE '\b(uc_[a-z0-9_]+[[:space:]]*\(|UC_[A-Z0-9_]+)' "$f"; then
            echo "compiles against Unicorn without calling it (include uc_fwd.h or nothing): $f"
            bad=$((bad + 1))
        fi ;;
    esac
done < /tmp/uc-header-users.$$
rm -f /tmp/uc-header-files.$$ /tmp/uc-header-users.$$
echo "$total C files, $users include Unicorn, $bad break the rule"
[ "$bad" -eq 0 ] && [ "$users" -gt 0 ]
