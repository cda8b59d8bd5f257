#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main demo (`make demo`): the example programs of both ISAs on an
# emulated 8-vCPU machine whose vCPUs 0-3 also run 32-bit code, under the
# policies of the kernel patch series. `demo.sh BUILD` runs a build tree's
# asymu; an installed demo.sh (PREFIX/share/asymu/examples) without an
# argument runs the installed asymu and its programs (PREFIX/libexec/asymu).
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(cd "$here/../../.." && pwd)
if [ $# -eq 0 ] && [ -x "$prefix/bin/asymu" ] && [ -d "$prefix/libexec/asymu" ]; then
    asymu=$prefix/bin/asymu
    programs=$prefix/libexec/asymu
    out=$(mktemp -d "${TMPDIR:-/tmp}/asymu-demo.XXXXXX")
else
    build=${1:-build}
    asymu=$build/asymu
    programs=$build/examples
    out=$build/demo
fi
run() {
    echo "\$ asymu run $*"
    "$asymu" run "$@" 2>&1
    echo "(exit status $?)"
    echo
}
run -- "$programs/hello-aarch64"
run -- "$programs/hello-armhf"
echo "# A 64-bit task may run anywhere; a 32-bit one is kept on vCPUs 0-3 (upstream Linux 5.15):"
run --dmesg -- "$programs/whereami-aarch64"
run --dmesg -- "$programs/whereami-armhf"
echo "# The same 32-bit program when only vCPUs 4-7 run 32-bit code:"
run --aarch32 4-7 --dmesg -- "$programs/whereami-armhf"
echo "# Under the early 'kill' design it is SIGKILLed when placed on a 64-bit-only vCPU (137):"
run --aarch32 4-7 --policy kill --dmesg -- "$programs/whereami-armhf"
echo "# Without allow_mismatched_32bit_el0 the machine runs 64-bit user space only:"
run --cmdline quiet -- "$programs/whereami-armhf"
echo "# A Snapdragon 8 Gen 1 (--soc sm8450): its Cortex-A510s (0-3) run no 32-bit code. A 64-bit"
echo "# launcher puts itself in Android's \"background\" cpuset (cgroup v1, /dev/cpuset) of"
echo "# those cores and execs a 32-bit app, which gets the 32-bit Cortex-A710s (4-6) instead:"
run --soc sm8450 -- "$programs/incpuset-aarch64" background 0-3 "$programs/whereami-armhf"
echo "# A scenario (examples/scenarios/article-execve.yaml, docs/scenarios.md) under every policy:"
echo "\$ asymu compare examples/scenarios/article-execve.yaml"
"$asymu" compare "$here/scenarios/article-execve.yaml"
echo
mkdir -p "$out"
echo "# The same scenario replayed with a trace and a timeline:"
echo "\$ asymu replay --trace $out/article-execve.json --timeline $out/article-execve.svg examples/scenarios/article-execve.yaml"
"$asymu" replay --trace "$out/article-execve.json" --timeline "$out/article-execve.svg" \
    "$here/scenarios/article-execve.yaml"
echo
echo "The trace is in $out/article-execve.json: open https://ui.perfetto.dev, click"
echo "\"Open trace file\" and pick it (one track per vCPU; exec, affinity and kill events)."
echo "The timeline is in $out/article-execve.svg: open it in any browser."
echo
echo "# Workloads without C (docs/scenarios.md \"Workloads\"): a 32-bit audio task and a"
echo "# 64-bit UI task, with quantitative expectations measured under every policy:"
echo "\$ asymu compare examples/scenarios/audio-ui.yaml"
"$asymu" compare "$here/scenarios/audio-ui.yaml"
