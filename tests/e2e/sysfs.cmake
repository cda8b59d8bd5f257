# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sysfs.cmake: the virtual /sys, /proc and /dev (issue 5), read by
# tests/guest/sysfs-read.c on several machines. Expected outputs are what
# Linux 5.15 on arm64 prints for the same machine, as docs/sysfs.md
# describes file by file; they are asymu's alone (qemu-user shows the
# host's files), so every test is ASYMU_ONLY. Every run checks the
# scheduler's invariants.

# The machines: name, then its asymu options. "quiet" lacks the
# allow_mismatched_32bit_el0 boot parameter (no aarch32_el0 file); its
# symmetric variant still runs 32-bit programs.
set(sysfs_machines m8 m4 m2 quiet quiet-sym)
set(sysfs_m8 --cpus 8 --aarch32 0-3)
set(sysfs_m4 --cpus 4 --aarch32 1,3)
set(sysfs_m2 --cpus 2 --aarch32 @EMPTY@)
set(sysfs_quiet --cpus 4 --aarch32 0-1 --cmdline quiet)
set(sysfs_quiet-sym --cpus 4 --aarch32 0-3 --cmdline quiet)
# Where 32-bit programs run: M not empty, and the boot parameter or M = all.
set(sysfs_m8_isas aarch64 armhf)
set(sysfs_m4_isas aarch64 armhf)
set(sysfs_m2_isas aarch64)
set(sysfs_quiet_isas aarch64)
set(sysfs_quiet-sym_isas aarch64 armhf)

# sysfs_test(NAME name MACHINE machine PROGRAM-ARGS... [OPTIONS ...]
#            [EXPECT_STDOUT file]): e2e-sysfs-<name>-<isa> for each ISA
# the machine runs; stdout is expected/sysfs-<name>-<isa>.out or
# expected/sysfs-<name>.out (the same for both ISAs).
function(sysfs_test)
  cmake_parse_arguments(PARSE_ARGV 0 S "" "NAME;MACHINE" "ARGS;OPTIONS;ISAS")
  if(NOT S_ISAS)
    set(S_ISAS ${sysfs_${S_MACHINE}_isas})
  endif()
  foreach(isa IN LISTS S_ISAS)
    asymu_e2e_guest(NAME sysfs-${S_NAME} PROGRAM sysfs-read ISAS ${isa} ASYMU_ONLY
                    MACHINE ${sysfs_${S_MACHINE}} OPTIONS --check-invariants ${S_OPTIONS}
                    GUEST_ARGS ${S_ARGS})
  endforeach()
endfunction()

# /sys whole, and /proc/cpuinfo as a 64-bit reader and as a PER_LINUX32 one
# (arm64 Linux gives the 32-bit layout for the personality, not for every
# 32-bit task; personality(PER_LINUX32) fails where 32-bit EL0 is not
# allowed). The walk does not cross mounts (find -xdev), so the cgroup2
# mount at /sys/fs/cgroup is walked on its own.
foreach(machine IN LISTS sysfs_machines)
  sysfs_test(NAME sys-${machine} MACHINE ${machine} ARGS walk:/sys walk:/sys/fs/cgroup)
  sysfs_test(NAME cpuinfo-${machine} MACHINE ${machine}
             ARGS cat:/proc/cpuinfo linux32 cat:/proc/cpuinfo)
endforeach()

# Hotplug: an offline vCPU keeps cpu_capacity and online but loses regs/ and
# topology/, leaves its siblings' masks, /proc/cpuinfo and /proc/stat; back
# online, everything returns.
set(cpu5 /sys/devices/system/cpu/cpu5)
sysfs_test(NAME hotplug MACHINE m8
           ARGS write:${cpu5}/online:0 walk:${cpu5} ls:/sys/devices/system/cpu
                cat:/sys/devices/system/cpu/cpu4/topology/cluster_cpus_list
                cat:/sys/devices/system/cpu/cpu0/topology/package_cpus
                line:/proc/cpuinfo:processor shape:/proc/stat write:${cpu5}/online:1 ls:${cpu5}
                cat:${cpu5}/topology/cluster_cpus_list line:/proc/cpuinfo:processor)

# --capacity sets cpu_capacity per vCPU; the others keep 1024.
sysfs_test(NAME capacity MACHINE m8 ISAS aarch64 OPTIONS --capacity 0-2=446,7=1
           ARGS line:/sys/devices/system/cpu/cpu0/cpu_capacity:
                line:/sys/devices/system/cpu/cpu2/cpu_capacity:
                line:/sys/devices/system/cpu/cpu3/cpu_capacity:
                line:/sys/devices/system/cpu/cpu7/cpu_capacity:)

# /proc: the calling process, its files, threads and children, and the
# machine-wide files.
set(sysctl /proc/sys/kernel)
sysfs_test(NAME proc MACHINE m4
           ARGS ls:/proc ls:/proc/self readlink:/proc/self readlink:/proc/thread-self
                stat:/proc/self/stat cat:/proc/self/status pin:3 stat:/proc/self/stat cat:/proc/self/comm
                cat:/proc/self/personality cmdline:/proc/self/cmdline maps fds threads child
                cat:/proc/loadavg shape:/proc/stat shape:/proc/uptime line:/proc/meminfo:MemTotal
                shape:/proc/meminfo cat:/proc/version cat:/proc/cmdline cat:${sysctl}/osrelease
                cat:${sysctl}/ostype cat:${sysctl}/version cat:${sysctl}/pid_max
                cat:${sysctl}/ngroups_max cat:/proc/sys/vm/overcommit_memory walk:/proc/sys)
# After execve: the new argv in cmdline (an empty argument included), comm
# from the file name, and the personality kept.
sysfs_test(NAME exec MACHINE m4
           ARGS linux32 exec cmdline:/proc/self/cmdline @EMPTY@ "arg:two words"
                cat:/proc/self/comm cat:/proc/self/personality)
sysfs_test(NAME pid-max MACHINE m8 OPTIONS --cpus 64 --aarch32 0-31
           ARGS cat:/proc/sys/kernel/pid_max)

# /dev: the device nodes, /dev/tty and /dev/console writing to the
# emulator's stdout, and /dev/full.
sysfs_test(NAME dev MACHINE m4
           ARGS walk:/dev write:/dev/tty:to-tty\\n write:/dev/console:to-console\\n
                write:/dev/null:x write:/dev/zero:x)
sysfs_test(NAME dev-full MACHINE m4 ARGS devfull)

# Confinement: a sysroot whose symlinks point at /proc and /sys, and with
# proc/ and sys/ directories of its own. The guest sees the virtual trees or
# the sysroot's files, never the host's (whose /proc/self/status says
# "Name: asymu"). A symlink in the sysroot is resolved inside the sysroot
# (sysfs-fs/vfs.c opens host paths with RESOLVE_IN_ROOT), so /hostproc/cpuinfo
# reads the sysroot's proc/cpuinfo. /proc/self/mounts is the guest's own
# table (its /dev line, which a host's udev line would not match).
set(SYSFS_ROOT ${CMAKE_CURRENT_BINARY_DIR}/sysfs-root)
file(MAKE_DIRECTORY ${SYSFS_ROOT}/proc ${SYSFS_ROOT}/sys/devices ${SYSFS_ROOT}/dir)
file(WRITE ${SYSFS_ROOT}/proc/cpuinfo "the sysroot's proc/cpuinfo\n")
file(WRITE ${SYSFS_ROOT}/sys/devices/marker "the sysroot's sys/devices/marker\n")
foreach(link "status=/proc/self/status" "hostproc=/proc" "hostsys=/sys" "up=../.."
        "dir/relproc=../../../../../proc" "selfroot=/proc/self/root/proc/self/status"
        "mounts=/proc/self/mounts")
  string(REPLACE "=" ";" parts "${link}")
  list(GET parts 0 name)
  list(GET parts 1 target)
  file(CREATE_LINK ${target} ${SYSFS_ROOT}/${name} SYMBOLIC)
endforeach()
sysfs_test(NAME confine MACHINE m8 OPTIONS --sysroot ${SYSFS_ROOT}
           ARGS head:/proc/cpuinfo head:/proc/../proc/cpuinfo head:/sys/../proc/cpuinfo
                head:/sys/devices/marker head:/status head:/hostproc/self/status
                head:/hostproc/cpuinfo head:/hostsys/devices/system/cpu/online
                head:/hostsys/devices/marker head:/up/up/proc/self/status
                head:/dir/relproc/self/status head:/selfroot head:/mounts
                head:/proc/self/root/proc/self/status head:/proc/self/root/../../../proc/self/status
                head:/proc/1/root/../../sys/devices/system/cpu/online
                line:/proc/self/mounts:udev readlink:/proc/self/root ls:/proc)

# The command line: bad --capacity values are refused, naming the option.
set(prog ${GUEST_DIR}/exitcode-aarch64)
foreach(case "no-value=0-3" "too-big=0-3=1025" "zero=0=0" "out-of-range=8=5" "twice=0-3=5,3=6"
        "no-cpus==5" "trailing=0=5,")
  string(REPLACE "=" ";" parts "${case}")
  list(GET parts 0 name)
  list(SUBLIST parts 1 -1 value)
  string(REPLACE ";" "=" value "${value}")
  asymu_e2e(NAME cli-capacity-${name} ASYMU_ONLY EXPECT_STATUS 2
            EXPECT_STDERR_CONTAINS "for --capacity"
            ARGS run --cpus 8 --capacity ${value} -- ${prog})
endforeach()

# busybox reads the same files: nproc and taskset -p (affinity), ls of the
# cpu directory, and /proc/cpuinfo for the 64-bit layout both ISAs get.
foreach(check "nproc=nproc" "taskset=taskset -p 1" "ls-cpu=ls /sys/devices/system/cpu"
        "cpuinfo=cat /proc/cpuinfo")
  string(REPLACE "=" ";" parts "${check}")
  list(GET parts 0 name)
  list(GET parts 1 command)
  asymu_e2e_busybox(NAME sysfs-${name} ASYMU_ONLY OPTIONS --check-invariants ${sysfs_m8}
                    ARGS sh -c "${command}")
endforeach()
