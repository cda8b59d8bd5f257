#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# android-cpusets.sh - Android's cpuset layout on cgroup v2 (docs/cgroups.md).
# Android's init mounts cgroup v1 at /dev/cpuset (not modelled yet); the
# groups and their CPUs are the same here, on the v2 hierarchy at
# /sys/fs/cgroup. Run it with busybox under a Snapdragon 8 Gen 1, whose
# little Cortex-A510s (0-3) are 64-bit only:
#
#   asymu run --soc sm8450 -- build-guests/busybox/armhf/bin/busybox sh \
#       examples/cgroups/android-cpusets.sh
#
# (build-guests/busybox once `make test` has fetched it; build/busybox in a
# tree configured by hand without ASYMU_GUEST_BUILD.)
#
# A 32-bit shell put in "background" (CPUs 0-3) gets the Cortex-A710s
# instead: guarantee_online_cpus() walks up to the root cpuset, whose CPUs
# meet the ones that run 32-bit code (4-6). A 64-bit shell gets 0-3.
set -e
cg=/sys/fs/cgroup
echo "+cpuset +cpu" > $cg/cgroup.subtree_control
for group in top-app foreground background; do
    mkdir $cg/$group
done
echo 0-7 > $cg/top-app/cpuset.cpus
echo 0-6 > $cg/foreground/cpuset.cpus
echo 0-3 > $cg/background/cpuset.cpus
echo 50 > $cg/background/cpu.weight
echo 10 > $cg/background/cpu.uclamp.max
for group in top-app foreground background; do
    echo $$ > $cg/$group/cgroup.procs
    echo "$group: cpuset.cpus $(cat $cg/$group/cpuset.cpus)," \
         "$(taskset -p $$ | sed 's/.*: /affinity mask /')"
done
echo "background: cpu.weight $(cat $cg/background/cpu.weight)," \
     "cpu.uclamp.max $(cat $cg/background/cpu.uclamp.max)"
