#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install.sh BUILD SOURCE: installs BUILD with `cmake --install` into a
# fresh prefix and checks the installed asymu works without its build tree
# (issue 25 part 2): it runs from the prefix, replays the installed example
# scenarios with the installed programs (no $ASYMU_PROGRAMS, run from /),
# and its man pages and bash completion are where man and bash-completion
# look.
set -u
build=$1
prefix=$(mktemp -d /tmp/asymu-install.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install: $*"; exit 1; }
cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install failed"
asymu=$prefix/bin/asymu
[ -x "$asymu" ] || fail "no $asymu"
"$asymu" --version | head -n1 | grep -q '^asymu ' || fail "--version"
unset ASYMU_PROGRAMS
for f in "$prefix"/share/asymu/examples/scenarios/*.yaml; do
    name=${f##*/}
    (cd / && "$asymu" replay "$f" >/dev/null 2>&1) || fail "replay of the installed $name"
    echo "replay $name: passed"
done
for p in hello whereami outside pingpong pol-launch pol-show; do
    for isa in aarch64 armhf; do
        [ -x "$prefix/libexec/asymu/$p-$isa" ] || fail "no program $p-$isa"
    done
done
[ "$(readlink -f "$prefix/libexec/asymu/asymu-binfmt")" = "$(readlink -f "$asymu")" ] ||
    fail "libexec/asymu/asymu-binfmt is not a link to bin/asymu"
out=$(cd / && "$asymu" run -- "$prefix/libexec/asymu/hello-armhf") || fail "hello-armhf"
echo "hello-armhf: $out"
for page in man1/asymu.1 man5/asymu-scenario.5; do
    [ -f "$prefix/share/man/$page" ] || fail "no man page $page"
    warnings=$(MANWIDTH=80 man --warnings -l "$prefix/share/man/$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "man warns about $page: $warnings"
done
MANPATH=$prefix/share/man man -w asymu-scenario >/dev/null || fail "man does not find asymu-scenario(5)"
[ -f "$prefix/share/bash-completion/completions/asymu" ] || fail "no bash completion"
[ -f "$prefix/share/doc/asymu/scenarios.md" ] || fail "no docs"
[ -f "$prefix/share/doc/asymu/README.md" ] || fail "no README"
echo "installed: bin, libexec programs, man pages, completion, docs, examples"
