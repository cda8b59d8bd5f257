# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/policies-amended.cmake: the rules of the spec's 2026-12-03
# amendment, where Linux 5.15's code decides (1.2, 2.4, K1/K2f, U3/U4, U8, H1,
# 6). Included after policies.cmake, whose asymu_e2e_policy, LAUNCH, SHOW32 and
# SHOW64 it uses; docs/policies.md maps each rule to these tests.
set(AFFINITY_CALLS ${GUEST_DIR}/pol-affinity-calls)

# 1.2: with the parameter and every CPU 32-bit, Linux still saves the mask on
# a 32-bit exec and restores it on a 64-bit one: {5} survives cpu5's offline
# (which resets A to every CPU) and comes back.
asymu_e2e_policy(NAME pol-1.2-symmetric-saved-mask MACHINE --cpus 8 --aarch32 0-7
                 RUN ${LAUNCH} 5 ${SHOW32} aff online:5:0 aff online:5:1 exec:${SHOW64} aff)

# 2.4: the length is checked (a multiple of the caller's long, enough bits)
# before the pid is looked up, and the byte count is NR_CPUS = 256 bits.
# 2.4: a compat sched_setaffinity reads whole 4-byte words: len = 9 faults on
# a mask whose tenth byte is unmapped and sees a CPU in byte 11.
# 2.4: an unreaped child, and a leader that ended while its other thread
# runs, are still found by pid.
foreach(isa aarch64 armhf)
  asymu_e2e_policy(NAME pol-2.4-length-before-pid-${isa} RUN ${AFFINITY_CALLS}-${isa} lengths)
  asymu_e2e_policy(NAME pol-2.4-compat-word-rounding-${isa} MACHINE --cpus 100 --aarch32 0-95
                   RUN ${AFFINITY_CALLS}-${isa} word-round)
  asymu_e2e_policy(NAME pol-2.4-zombie-${isa} RUN ${AFFINITY_CALLS}-${isa} zombie)
endforeach()

# K1 (fixup): a switch onto a vCPU of M does not flag the check, so A = {3,4}
# given by sched_setaffinity stays while the task sleeps and wakes on cpu3.
asymu_e2e_policy(NAME pol-K1-K2f-fixup-switch-onto-m-keeps-affinity POLICY fixup
                 RUN ${LAUNCH} 3 ${SHOW32} aff set:3-4 sleep:1 yield:5 aff sleep:1 aff)

# U3/U4: a sched_setaffinity (or restore) that leaves A as it is changes
# nothing and keeps the saved mask (__set_cpus_allowed_ptr_locked's early exit).
asymu_e2e_policy(NAME pol-U3-equal-mask
                 RUN ${LAUNCH} 2-5 ${SHOW32} aff set:2-3 exec:${SHOW64} aff)
asymu_e2e_policy(NAME pol-U4-equal-after-trim
                 RUN ${LAUNCH} 2-5 ${SHOW32} aff set:2-3,6 exec:${SHOW64} aff)
asymu_e2e_policy(NAME pol-U3-equal-restore-keeps-saved-mask
                 RUN ${LAUNCH} 2-3 ${SHOW32} aff exec:${SHOW64} aff online:2:0 online:3:0 aff
                     online:2:1 online:3:1 aff exec:${SHOW32} aff exec:${SHOW64} aff
                     dmesg:affine)

# U8: sched_setaffinity and the 64-bit restore store only active CPUs
# (CONFIG_CPUSETS), and the CPU does not come back into A when it comes back.
asymu_e2e_policy(NAME pol-U8-setaffinity-drops-offline-aarch64
                 RUN ${SHOW64} online:5:0 set:4-6 online:5:1 aff status:self)
asymu_e2e_policy(NAME pol-U8-setaffinity-drops-offline-armhf
                 RUN ${SHOW32} online:2:0 set:1-3 online:2:1 aff status:self)
asymu_e2e_policy(NAME pol-U8-restore-drops-offline
                 RUN ${SHOW64} exec:${SHOW32} aff online:6:0 exec:${SHOW64} aff online:6:1 aff
                     status:self)

# H1: cpuN/online takes what 5.15's strtobool takes: the first character
# decides (1 y Y, 0 n N), o/O needs n/N or f/F after it; the rest is EINVAL.
asymu_e2e_policy(NAME pol-H1-kstrtobool
                 RUN ${SHOW64} online:5:n cpus online:5:Y cpus online:5:0x cpus online:5:10 cpus
                     online:5:oFF cpus online:5:On cpus online:5:N online:5:y online:5:of cpus
                     online:5:o online:5:ox online:5:x online:5:2 online:5:true online:5:-1
                     online:5:Off cpus)

# 6: hotplug messages logged by a task whose vCPU clock is behind (here
# after the child's "Overriding" line) do not get a timestamp earlier than
# the message before them; the texts are 5.15's (no "CPU5: shutdown", which
# is pr_debug; the MIDR after the MPIDR). Which of the two processes logs
# first depends on virtual time, so the lines are asked for by text.
asymu_e2e_policy(NAME pol-6-monotonic
                 RUN ${SHOW64} spawn:${LAUNCH} 4-7 ${SHOW32} aff -- online:5:0 online:5:1 wait
                     dmesg-order dmesg:CPU5 dmesg:Overriding)
