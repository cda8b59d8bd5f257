#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# android-cpusets.sh - Android's cgroup layout (docs/cgroups.md): init
# mounts cgroup v1's cpuset filesystem at /dev/cpuset and the cpu
# controller at /dev/cpuctl, and makes the top-app, foreground and
# background groups. Run it with busybox under a Snapdragon 8 Gen 1, whose
# little Cortex-A510s (0-3) are 64-bit only:
#
#   asymu run --soc sm8450 -- build-guests/busybox/armhf/bin/busybox sh \
#       examples/cgroups/android-cpusets.sh
#
# (build-guests/busybox once `make test` has fetched it; build/busybox in a
# tree configured by hand without ASYMU_GUEST_BUILD.)
#
# A 32-bit shell put in "background" (CPUs 0-3) gets the Cortex-A710s
# instead: guarantee_online_cpus() walks up to the top cpuset, whose CPUs
# meet the ones that run 32-bit code (4-6). A 64-bit shell gets 0-3.
set -e
mount -t cpuset none /dev/cpuset
mount -t cgroup -o cpu none /dev/cpuctl
for group in top-app foreground background; do
    mkdir /dev/cpuset/$group
    echo 0 > /dev/cpuset/$group/mems
done
echo 0-7 > /dev/cpuset/top-app/cpus
echo 0-6 > /dev/cpuset/foreground/cpus
echo 0-3 > /dev/cpuset/background/cpus
mkdir /dev/cpuctl/background
echo 52 > /dev/cpuctl/background/cpu.shares
echo 10 > /dev/cpuctl/background/cpu.uclamp.max
for group in top-app foreground background; do
    echo $$ > /dev/cpuset/$group/tasks
    echo "$group: cpus $(cat /dev/cpuset/$group/cpus)," \
         "$(taskset -p $$ | sed 's/.*: /affinity mask /')"
done
echo $$ > /dev/cpuctl/background/tasks
echo "background: cpu.shares $(cat /dev/cpuctl/background/cpu.shares)," \
     "cpu.uclamp.max $(cat /dev/cpuctl/background/cpu.uclamp.max)"
grep cpu /proc/self/cgroup
