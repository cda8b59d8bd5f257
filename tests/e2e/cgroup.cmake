# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/cgroup.cmake: cgroup v2 at /sys/fs/cgroup with the cpuset and
# cpu controllers (issue 29, item 2; docs/cgroups.md names the rule, CGn,
# each test covers). tests/guest/cgroup-ops.c performs the steps and prints
# each result; run as a 64-bit (aarch64) and a 32-bit (armhf) task, whose
# task_cpu_possible_mask() differs. Expected outputs are derived in
# docs/cgroups.md. asymu's kernel alone: ASYMU_ONLY.

set(CG /sys/fs/cgroup)
set(cg_m8 --cpus 8 --aarch32 0-3)

# cgroup_test(NAME name [ISAS ...] [MACHINE ...] ARGS steps...): e2e-cgroup-<name>-<isa>,
# stdout expected/cgroup-<name>-<isa>.out or expected/cgroup-<name>.out.
function(cgroup_test)
  cmake_parse_arguments(PARSE_ARGV 0 C "" "NAME" "ARGS;ISAS;MACHINE")
  if(NOT C_ISAS)
    set(C_ISAS aarch64 armhf)
  endif()
  if(NOT C_MACHINE)
    set(C_MACHINE ${cg_m8})
  endif()
  foreach(isa IN LISTS C_ISAS)
    asymu_e2e_guest(NAME cgroup-${C_NAME} PROGRAM cgroup-ops ISAS ${isa} ASYMU_ONLY
                    MACHINE ${C_MACHINE} OPTIONS --check-invariants GUEST_ARGS ${C_ARGS})
  endforeach()
endfunction()

# The files of the root and of a child before and after subtree_control
# enables the controllers; /proc/self/cgroup (CG4, CG11).
cgroup_test(NAME files
            ARGS ls:${CG} cat:${CG}/cgroup.controllers cat:${CG}/cgroup.subtree_control
                 cat:${CG}/cgroup.procs cat:/proc/self/cgroup mkdir:${CG}/app ls:${CG}/app
                 cat:${CG}/app/cgroup.controllers "write:${CG}/cgroup.subtree_control:+cpuset +cpu"
                 cat:${CG}/cgroup.subtree_control ls:${CG}/app cat:${CG}/app/cgroup.controllers
                 cat:${CG}/app/cpuset.cpus cat:${CG}/app/cpuset.cpus.effective
                 cat:${CG}/app/cpuset.mems cat:${CG}/app/cpuset.mems.effective
                 cat:${CG}/app/cpuset.cpus.partition cat:${CG}/app/cgroup.type
                 join:${CG}/app cat:/proc/self/cgroup cat:${CG}/app/cgroup.procs
                 cat:${CG}/app/cgroup.threads cat:${CG}/app/cgroup.events cat:${CG}/cgroup.stat
                 mkdir:${CG}/app ls:/sys/fs)

# A task moved into a 4-7 cpuset (CG1, CG2): a 64-bit one gets 4-7; a 32-bit
# one, whose possible CPUs are 0-3, gets the root's 0-3 from
# guarantee_online_cpus(). sched_setaffinity() is cut to the cpuset (CG3);
# moving back to the root gives task_cpu_possible_mask().
cgroup_test(NAME move
            ARGS "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/big
                 write:${CG}/big/cpuset.cpus:4-7 cat:${CG}/big/cpuset.cpus.effective aff
                 join:${CG}/big aff set:0-7 aff set:0-1 aff set:2-5 aff join:${CG} aff)

# A 64-bit task in a cpuset exec's a 32-bit program (CG6): 4-7 & M is empty,
# so the override is cpuset_cpus_allowed(): the root's 0-3; in a 2-5 cpuset
# with affinity 4-5 the override is the cpuset's 2-3, not M.
cgroup_test(NAME exec32 ISAS aarch64
            ARGS "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/big
                 write:${CG}/big/cpuset.cpus:4-7 mkdir:${CG}/mid write:${CG}/mid/cpuset.cpus:2-5
                 fork join:${CG}/big aff exec:${GUEST_DIR}/cgroup-ops-armhf isa aff
                 cat:/proc/self/cgroup join:${CG}/mid set:4-5 aff
                 exec:${GUEST_DIR}/cgroup-ops-aarch64 join:${CG}/mid set:4-5 aff
                 exec:${GUEST_DIR}/cgroup-ops-armhf isa aff)

# Offlining every CPU of a v2 cpuset (CG9): cpuset.cpus stays, the
# effective CPUs become the parent's (for a 32-bit task, within M) and the
# tasks get them; a CPU coming back is the cpuset's again.
cgroup_test(NAME hotplug-v2
            ARGS "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/big
                 write:${CG}/big/cpuset.cpus:4-7 join:${CG}/big aff online:4:0 online:5:0
                 cat:${CG}/big/cpuset.cpus.effective aff online:6:0 online:7:0
                 cat:${CG}/big/cpuset.cpus.effective cat:${CG}/big/cpuset.cpus aff
                 online:5:1 cat:${CG}/big/cpuset.cpus.effective aff
                 cat:${CG}/cpuset.cpus.effective)

# select_fallback_rq()'s cpuset resort (CG8): a task pinned to 4 in a 2-5
# cpuset loses CPU 4 and gets the cpuset's CPUs, not every CPU.
cgroup_test(NAME fallback ISAS aarch64
            ARGS "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/mid
                 write:${CG}/mid/cpuset.cpus:2-5 join:${CG}/mid set:4 aff online:4:0 aff
                 cat:${CG}/mid/cpuset.cpus.effective)

# The cgroup core's and the cpuset's refusals (CG4, CG5, CG7, CG10).
cgroup_test(NAME rules ISAS aarch64
            ARGS mkdir:${CG}/a mkdir:${CG}/a/b rmdir:${CG}/a rmdir:${CG}/nothere
                 rmdir:${CG}/a/cgroup.procs rmdir:${CG} "write:${CG}/cgroup.subtree_control:+memory"
                 "write:${CG}/a/cgroup.subtree_control:+cpuset"
                 "write:${CG}/cgroup.subtree_control:+cpuset"
                 "write:${CG}/a/cgroup.subtree_control:+cpuset"
                 "write:${CG}/cgroup.subtree_control:-cpuset" join:${CG}/a
                 join:${CG}/a/b write:${CG}/a/b/cgroup.procs:99 write:${CG}/a/b/cgroup.procs:x
                 write:${CG}/a/cgroup.threads:1 rmdir:${CG}/a/b
                 write:${CG}/a/b/cpuset.cpus:9 write:${CG}/a/b/cpuset.cpus:300
                 write:${CG}/a/b/cpuset.cpus:1-x write:${CG}/a/b/cpuset.mems:1
                 write:${CG}/a/b/cpuset.mems:0 write:${CG}/a/b/cpuset.cpus.partition:root
                 write:${CG}/a/b/cpuset.cpus.partition:bogus write:${CG}/a/cpuset.cpus:6-7
                 write:${CG}/a/cpuset.cpus.partition:root cat:${CG}/a/cpuset.cpus.partition
                 cat:${CG}/cpuset.cpus.effective cat:${CG}/a/cpuset.cpus.effective
                 cat:${CG}/a/b/cpuset.cpus.effective join:${CG} rmdir:${CG}/a/b rmdir:${CG}/a
                 cat:${CG}/cpuset.cpus.effective write:${CG}/cpuset.cpus.effective:0)

# The cpu controller's files (CG12): stored, validated and read back as
# kernel/sched/core.c does; the fair class does not use them yet.
cgroup_test(NAME cpu
            ARGS "write:${CG}/cgroup.subtree_control:+cpu" mkdir:${CG}/g cat:${CG}/g/cpu.weight
                 cat:${CG}/g/cpu.weight.nice cat:${CG}/g/cpu.max cat:${CG}/g/cpu.uclamp.min
                 cat:${CG}/g/cpu.uclamp.max cat:${CG}/g/cpu.idle
                 write:${CG}/g/cpu.weight:150 cat:${CG}/g/cpu.weight cat:${CG}/g/cpu.weight.nice
                 write:${CG}/g/cpu.weight:0 write:${CG}/g/cpu.weight:10001 write:${CG}/g/cpu.weight:abc
                 write:${CG}/g/cpu.weight.nice:5 cat:${CG}/g/cpu.weight cat:${CG}/g/cpu.weight.nice
                 write:${CG}/g/cpu.weight.nice:-21 write:${CG}/g/cpu.weight.nice:-20
                 cat:${CG}/g/cpu.weight
                 "write:${CG}/g/cpu.max:50000 200000" cat:${CG}/g/cpu.max write:${CG}/g/cpu.max:max
                 cat:${CG}/g/cpu.max write:${CG}/g/cpu.max:500 "write:${CG}/g/cpu.max:max 999"
                 write:${CG}/g/cpu.uclamp.min:20.5 cat:${CG}/g/cpu.uclamp.min
                 write:${CG}/g/cpu.uclamp.min:101 write:${CG}/g/cpu.uclamp.min:x
                 write:${CG}/g/cpu.uclamp.max:100 cat:${CG}/g/cpu.uclamp.max
                 write:${CG}/g/cpu.uclamp.max:75.125 cat:${CG}/g/cpu.uclamp.max
                 write:${CG}/g/cpu.uclamp.max:99.99 cat:${CG}/g/cpu.uclamp.max
                 write:${CG}/g/cpu.idle:1 cat:${CG}/g/cpu.idle write:${CG}/g/cpu.idle:2
                 write:${CG}/g/cpu.stat:0)

# Android's background cpuset on a Snapdragon 8 Gen 1 (--soc sm8450): the
# little Cortex-A510s (0-3) do not run 32-bit code, so a 32-bit app put in
# the background gets what guarantee_online_cpus() finds up the tree, the
# A710s (4-6); a 64-bit app gets the little cores.
cgroup_test(NAME android-background MACHINE --soc sm8450
            ARGS "write:${CG}/cgroup.subtree_control:+cpuset +cpu" mkdir:${CG}/background
                 write:${CG}/background/cpuset.cpus:0-3 mkdir:${CG}/top-app
                 write:${CG}/top-app/cpuset.cpus:0-7 join:${CG}/background aff
                 cat:${CG}/background/cgroup.procs join:${CG}/top-app aff)

# The policies with a 32-bit task moved into a cpuset of 64-bit-only CPUs
# (docs/policies.md, C1 and C2): override keeps it on M (0-3), kill and
# fixup SIGKILL it on its way back to user space after the write (137).
set(cg_move32 "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/big
              write:${CG}/big/cpuset.cpus:4-7 join:${CG}/big aff)
asymu_e2e_guest(NAME cgroup-cpuset-override PROGRAM cgroup-ops ISAS armhf ASYMU_ONLY
                MACHINE ${cg_m8} OPTIONS --policy override --check-invariants
                EXPECT_STDOUT_TEXT "write cgroup.subtree_control +cpuset: 0\nmkdir /sys/fs/cgroup/big: 0\nwrite cpuset.cpus 4-7: 0\njoin /sys/fs/cgroup/big: 0\naff 0-3\n"
                GUEST_ARGS ${cg_move32})
foreach(policy kill fixup)
  asymu_e2e_guest(NAME cgroup-cpuset-${policy} PROGRAM cgroup-ops ISAS armhf ASYMU_ONLY
                  MACHINE ${cg_m8} OPTIONS --policy ${policy} EXPECT_STATUS 137
                  EXPECT_STDOUT_TEXT "write cgroup.subtree_control +cpuset: 0\nmkdir /sys/fs/cgroup/big: 0\nwrite cpuset.cpus 4-7: 0\n"
                  GUEST_ARGS ${cg_move32})
endforeach()

# Busybox's tools in a 4-7 cpuset made by its shell (CG1, CG2):
# /proc/self/cgroup, nproc and taskset -p see the cpuset's CPUs for a 64-bit
# shell and the root's 0-3 (M) for a 32-bit one.
set(bb_cgroup "mkdir /sys/fs/cgroup/bg && echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control && echo 4-7 > /sys/fs/cgroup/bg/cpuset.cpus && echo $$ > /sys/fs/cgroup/bg/cgroup.procs && cat /proc/self/cgroup && nproc && taskset -p $$ && cat /sys/fs/cgroup/bg/cgroup.procs")
asymu_e2e_busybox(NAME cgroup-cpuset ARCHES arm64 ASYMU_ONLY OPTIONS --cpus 8 --aarch32 0-3
                  ARGS sh -c "${bb_cgroup}"
                  EXPECT_STDOUT_TEXT "0::/bg\n4\npid 1's current affinity mask: f0\n1\n")
asymu_e2e_busybox(NAME cgroup-cpuset ARCHES armhf ASYMU_ONLY OPTIONS --cpus 8 --aarch32 0-3
                  ARGS sh -c "${bb_cgroup}"
                  EXPECT_STDOUT_TEXT "0::/bg\n4\npid 1's current affinity mask: f\n1\n")

# examples/cgroups/android-cpusets.sh under --soc sm8450, cgroup v1 at
# /dev/cpuset and /dev/cpuctl as Android's init mounts it: the 64-bit shell
# gets each group's CPUs, the 32-bit one the A710s (4-6) everywhere.
foreach(arch arm64 armhf)
  if(arch STREQUAL arm64)
    set(masks "ff" "7f" "f")
  else()
    set(masks "70" "70" "70")
  endif()
  list(GET masks 0 m_top)
  list(GET masks 1 m_fg)
  list(GET masks 2 m_bg)
  asymu_e2e_busybox(NAME cgroup-android ARCHES ${arch} ASYMU_ONLY OPTIONS --soc sm8450
                    ARGS sh ${PROJECT_SOURCE_DIR}/examples/cgroups/android-cpusets.sh
                    EXPECT_STDOUT_TEXT "top-app: cpus 0-7, affinity mask ${m_top}\nforeground: cpus 0-6, affinity mask ${m_fg}\nbackground: cpus 0-3, affinity mask ${m_bg}\nbackground: cpu.shares 52, cpu.uclamp.max 10.00\n2:cpu:/background\n1:cpuset:/background\n")
endforeach()

# mount -t cgroup2 (CG13): the same hierarchy at a second directory; other
# file systems are not modelled (ENODEV); a mount point twice is EBUSY,
# umount of a directory that is none EINVAL.
cgroup_test(NAME mount
            ARGS mkdir:/tmp/cg mount:cgroup2:/tmp/cg mkdir:/tmp/cg/app ls:/sys/fs/cgroup/app
                 join:/tmp/cg/app cat:/proc/self/cgroup cat:/sys/fs/cgroup/app/cgroup.procs
                 mount:cgroup2:/tmp/cg mount:ext4:/tmp mount:cgroup2:/tmp/nothere
                 mount:cgroup2:/proc/self/cgroup join:/sys/fs/cgroup umount:/tmp/cg
                 ls:/tmp/cg umount:/tmp/cg rmdir:/sys/fs/cgroup/app)

# cgroup v1 (CG14-CG17), as Android's init mounts it: `mount -t cpuset` at
# /dev/cpuset (noprefix names, the release agent), the cpuset controller
# leaving v2, a child that takes tasks only with CPUs and memory (ENOSPC),
# CPUs within the parent's (EACCES), children's kept (EBUSY), not emptied
# while it has tasks (ENOSPC), online CPUs only (EINVAL), the top's fixed
# (EACCES); /proc/self/cgroup and /proc/self/mounts; a second mount of the
# same controllers shows the same hierarchy. The 32-bit task moved into a
# cpuset of 64-bit-only CPUs gets the top's M (CG2).
set(DC /dev/cpuset)
cgroup_test(NAME v1-android
            ARGS ls:/dev mount:cpuset:${DC} ls:${DC} cat:${DC}/cpus cat:${DC}/mems
                 cat:${DC}/effective_cpus cat:${DC}/release_agent cat:${CG}/cgroup.controllers
                 ls:${CG} mkdir:${DC}/background cat:${DC}/background/cpus
                 write:${DC}/background/cpus:4-5 join:${DC}/background
                 write:${DC}/background/mems:0 join:${DC}/background aff cat:/proc/self/cgroup
                 cat:${DC}/background/tasks cat:${DC}/background/cgroup.procs cat:${DC}/tasks
                 mkdir:${DC}/background/sub write:${DC}/background/sub/cpus:4
                 write:${DC}/background/sub/cpus:6 write:${DC}/background/cpus:5-7
                 "write:${DC}/background/cpus: " rmdir:${DC}/background/sub
                 "write:${DC}/background/cpus: " "write:${DC}/background/mems: "
                 write:${DC}/background/cpus:9 write:${DC}/cpus:0-3 write:${DC}/mems:0
                 grep:/proc/self/mounts:cgroup mkdir:/tmp/v1 mount:cgroup:/tmp/v1:cpuset
                 ls:/tmp/v1/background umount:/tmp/v1 join:${DC} aff
                 rmdir:${DC}/background umount:${DC}
                 cat:${CG}/cgroup.controllers cat:/proc/self/cgroup)

# mount -t cgroup -o cpu at /dev/cpuctl, as Android's cpuctl (CG14, CG15, CG18):
# the cpu controller's legacy files; the options cgroup1_parse_param()
# refuses (EINVAL) and a hierarchy sharing a controller (EBUSY); v2 without
# cpu; a controller v2 groups use stays there (EBUSY).
set(CC /dev/cpuctl)
cgroup_test(NAME v1-cpuctl ISAS aarch64
            ARGS mount:cgroup:${CC}:cpu ls:${CC} cat:${CC}/cpu.shares cat:${CC}/cpu.cfs_quota_us
                 cat:${CC}/cpu.cfs_period_us write:${CC}/cpu.shares:512 mkdir:${CC}/bg ls:${CC}/bg
                 write:${CC}/bg/cpu.shares:52 cat:${CC}/bg/cpu.shares write:${CC}/bg/cpu.shares:1
                 cat:${CC}/bg/cpu.shares write:${CC}/bg/cpu.shares:-1
                 write:${CC}/bg/cpu.cfs_quota_us:500 write:${CC}/bg/cpu.cfs_quota_us:20000
                 cat:${CC}/bg/cpu.cfs_quota_us write:${CC}/bg/cpu.cfs_quota_us:-5
                 cat:${CC}/bg/cpu.cfs_quota_us write:${CC}/bg/cpu.cfs_period_us:999
                 write:${CC}/bg/cpu.uclamp.max:10 cat:${CC}/bg/cpu.uclamp.max cat:${CC}/bg/cpu.stat
                 write:${CC}/bg/tasks:0 cat:/proc/self/cgroup cat:${CG}/cgroup.controllers
                 "write:${CG}/cgroup.subtree_control:+cpu" mount:cgroup:/tmp:cpu,noprefix
                 mount:cgroup:/tmp:memory mount:cgroup:/tmp:none mount:cgroup:/tmp:cpuset,cpu
                 "write:${CG}/cgroup.subtree_control:+cpuset" mount:cpuset:${DC}
                 "write:${CG}/cgroup.subtree_control:-cpuset" mount:cgroup:${DC}:cpuset
                 ls:${DC} cat:/proc/self/cgroup grep:/proc/self/mounts:cgroup)

# Hotplug in v1 (CG19, hotplug_update_tasks_legacy()): a cpuset keeps only
# online CPUs and they do not come back; the tasks of an emptied cpuset
# move to its nearest ancestor with CPUs (remove_tasks_in_empty_cpuset()).
cgroup_test(NAME v1-hotplug
            ARGS mount:cpuset:${DC} mkdir:${DC}/a write:${DC}/a/cpus:2-5 write:${DC}/a/mems:0
                 mkdir:${DC}/a/b write:${DC}/a/b/cpus:4-5 write:${DC}/a/b/mems:0
                 join:${DC}/a/b aff online:4:0 cat:${DC}/a/b/cpus aff online:5:0
                 cat:${DC}/a/b/cpus cat:${DC}/a/cpus cat:/proc/self/cgroup aff online:4:1
                 online:5:1 cat:${DC}/a/b/cpus cat:${DC}/a/cpus cat:${DC}/cpus aff)

# linux-6.6 with cpusets (CG20): the request of sched_setaffinity() stays the
# user mask, and every cpuset change of the task's mask keeps to it where
# they meet (6.2's __set_cpus_allowed_ptr()); 6.6's update_tasks_cpumask()
# gives a 32-bit task M's part of the cpuset's CPUs, where 5.15's fails and
# leaves the mask. The same steps under upstream (5.15) for contrast.
foreach(policy upstream linux-6.6)
  cgroup_test(NAME user-mask-${policy} MACHINE ${cg_m8} --policy ${policy}
              ARGS "write:${CG}/cgroup.subtree_control:+cpuset" mkdir:${CG}/a
                   write:${CG}/a/cpuset.cpus:0-5 set:1-2 aff join:${CG}/a aff set:1-4 aff
                   write:${CG}/a/cpuset.cpus:2-7 aff join:${CG} aff)
endforeach()
