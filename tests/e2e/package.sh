#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# package.sh SOURCE EXPECTED_DEMO: the Debian package (issue 25 part 2).
# Builds it from a copy of the source with `dpkg-buildpackage -b -us -uc`
# (debian/: no test suite, Unicorn as the shared library), checks it with
# lintian (no error or warning), unpacks it and runs its demo, which must
# print what the build tree's demo prints (EXPECTED_DEMO). scripts/bootstrap
# installs debhelper and lintian.
set -u
src=$1 expected=$2
work=$(mktemp -d /tmp/asymu-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "package: $*"; exit 1; }
mkdir "$work/asymu"
if [ -e "$src/.git" ]; then
    git -C "$src" ls-files -co --exclude-standard -z
else
    (cd "$src" && find . -path './build*' -prune -o -type f -print0)
fi | (cd "$src" && tar --null -cf - -T -) | tar -xf - -C "$work/asymu" || fail "copying the source"
rm -rf "$work/asymu"/build*
version=$(cat "$src/VERSION")
# Only what the check needs: debian/rules builds no test suite
# (ASYMU_TESTS=OFF: not the ~200 guest programs of tests/guest, only the
# examples' the package installs) and runs none (nocheck); no -dbgsym
# package, which nothing here looks at (noautodbgsym). Its ~90 s of CPU are
# the Release build of asymu: the options changed nothing measurable.
(cd "$work/asymu" && DEB_BUILD_OPTIONS="nocheck noautodbgsym" \
    dpkg-buildpackage -b -us -uc > "$work/build.log" 2>&1) ||
    { tail -n 40 "$work/build.log"; fail "dpkg-buildpackage failed"; }
deb=$work/asymu_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb"
echo "built ${deb##*/}"
# A Release build (debian/rules) without one compiler warning.
if grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$work/build.log"; then
    fail "the Release build warns"
fi
# lintian keeps its ELF cache in $TMPDIR (mldbm-elf-*) and leaves it there.
TMPDIR=$work lintian --fail-on error,warning "$deb" || fail "lintian"
echo "lintian: no error, no warning"
dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
sh "$(dirname "$0")/demo-check.sh" "$expected" "$work/root/usr/share/asymu/examples/demo.sh" ||
    fail "the packaged demo differs"
echo "the packaged demo prints what the build's demo prints"
