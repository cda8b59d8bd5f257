#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spdx.sh SOURCE: every source file of the tree (C, headers, assembly, Go,
# CMake, shell, Python, awk, Makefiles) names its license in an
# SPDX-License-Identifier line near its top (issue 25 part 2; LICENSE).
cd "$1" || exit 1
if [ -e .git ]; then git ls-files; else find . -type f ! -path './build*' | sed 's|^\./||'; fi |
    grep -E '\.(c|h|S|go|cmake|sh|py|awk)$|(^|/)(CMakeLists\.txt|Makefile|bootstrap)$|^debian/rules$' |
    grep -vE '^(tests/fuzz/corpus|tests/fuzz/regress|tests/e2e/expected|\.ci)/' > /tmp/spdx-files.$$
missing=0 total=0
while read -r f; do
    total=$((total + 1))
    if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later'; then
        echo "no SPDX-License-Identifier line: $f"
        missing=$((missing + 1))
    fi
done < /tmp/spdx-files.$$
rm -f /tmp/spdx-files.$$
echo "$total source files, $missing without an SPDX line"
[ "$missing" -eq 0 ] && [ "$total" -gt 0 ]
