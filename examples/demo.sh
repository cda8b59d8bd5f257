#!/bin/sh
# The main demo (`make demo`): runs the example program built for both ISAs
# on the emulated asymmetric machine.
set -eu
build=${1:-build}
for isa in aarch64 armhf; do
    echo "\$ asymu run --cpus 8 --aarch32 0-3 -- $build/examples/hello-$isa"
    "$build/asymu" run --cpus 8 --aarch32 0-3 -- "$build/examples/hello-$isa"
done
