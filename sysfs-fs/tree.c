/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tree.c - the virtual trees the guest sees: /dev, /proc and /sys. Which
 * files exist, what they hold (as Linux 5.15 on arm64 prints them) and what
 * writes do; kernel state comes from the provider emu/ fills in. The file
 * list with each file's source in the kernel is docs/sysfs.md. */
#include "cpu_model.h"
#include "vfs.h"
#include "mqueue_fs.h"
#include "page.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#define CPU_DIR "/sys/devices/system/cpu"
#define DT_DIR_ 4
#define DT_CHR_ 2
#define DT_REG_ 8
#define DT_LNK_ 10
#define PER_LINUX32 0x0008
#define PER_MASK 0xff
#define USER_HZ 100
#define NS_PER_TICK (1000000000u / USER_HZ)
#define CGROUP_NODE (-2) /* node->arg of a cgroup2 mount's nodes */

enum file_id {
    F_DIR,
    F_DEV_NULL,
    F_DEV_ZERO,
    F_DEV_FULL,
    F_DEV_RANDOM,
    F_DEV_KMSG,
    F_DEV_TTY,
    F_DEV_CONSOLE,
    F_DEV_PTMX,
    F_DEV_KVM,
    F_DEV_PTS, /* /dev/pts/N: arg N */
    F_DEV_FD,
    F_DEV_STDIN,
    F_DEV_STDOUT,
    F_DEV_STDERR,
    F_PROC_SELF,
    F_PROC_MOUNTS, /* the symlink to self/mounts */
    F_PROC_THREAD_SELF,
    F_PROC_CPUINFO,
    F_PROC_CMDLINE,
    F_PROC_STAT,
    F_PROC_UPTIME,
    F_PROC_MEMINFO,
    F_PROC_LOADAVG,
    F_PROC_VERSION,
    F_PROC_FILESYSTEMS,
    F_PROC_KALLSYMS,
    F_PROC_NET, /* /proc/net/NAME: the sockets of one kind */
    F_PROC_SYSVIPC, /* /proc/sysvipc/NAME, /proc/keys, /proc/key-users */
    /* the IPC, keys, AIO and inotify numbers of /proc/sys and
     * sched_rt_{period,runtime}_us (the provider's table): read and
     * written as proc_dointvec and its kin do */
    F_SYSCTL_LIMIT,
    F_SYSCTL_OSRELEASE,
    F_SYSCTL_OSTYPE,
    F_SYSCTL_VERSION,
    F_SYSCTL_PID_MAX,
    F_SYSCTL_NGROUPS_MAX,
    F_SYSCTL_OVERCOMMIT,
    F_SYSCTL_MAX_MAP_COUNT,
    /* settings of Debian 12's kernel the guest cannot change (sys_admin.c) */
    F_SYSCTL_MODULES_DISABLED,
    F_SYSCTL_KEXEC_DISABLED,
    F_SYSCTL_PERF_PARANOID,
    F_SYSCTL_BPF_DISABLED,
    F_SYSCTL_UFFD,
    F_PID_EXE,
    F_PID_ROOT,
    F_PID_CWD,
    F_PID_STATUS,
    F_PID_STAT,
    F_PID_COMM,
    F_PID_CMDLINE,
    F_PID_AUXV,
    F_PID_ENVIRON,
    F_PID_MAPS,
    F_PID_MEM,
    F_PID_PERSONALITY,
    F_PID_FD,
    F_PID_MOUNTS,
    F_PID_MOUNTINFO,
    F_PID_CGROUP,
    F_CGROUP, /* a file of /sys/fs/cgroup (the provider's) */
    F_CPU_POSSIBLE,
    F_CPU_PRESENT,
    F_CPU_ONLINE,
    F_CPU_OFFLINE,
    F_CPU_KERNEL_MAX,
    F_CPU_ISOLATED,
    F_CPU_AARCH32_EL0,
    F_CPUN_ONLINE,
    F_CPUN_CAPACITY,
    F_CPUN_MIDR,
    F_CPUN_REVIDR,
    F_TOPO_CORE_ID,
    F_TOPO_CLUSTER_ID,
    F_TOPO_PACKAGE_ID,
    F_TOPO_THREAD, /* thread_siblings, core_cpus: the vCPU itself */
    F_TOPO_THREAD_LIST,
    F_TOPO_CLUSTER, /* cluster_cpus: online vCPUs of its cluster */
    F_TOPO_CLUSTER_LIST,
    F_TOPO_PACKAGE, /* package_cpus, core_siblings: every online vCPU */
    F_TOPO_PACKAGE_LIST,
    F_CPUN_CPUFREQ, /* cpuN/cpufreq: the link to its policy */
    F_POLICY_AFFECTED,
    F_POLICY_RELATED,
    F_POLICY_MAX,   /* cpuinfo_max_freq, scaling_max_freq */
    F_POLICY_MIN,   /* cpuinfo_min_freq, scaling_min_freq */
    F_POLICY_FREQS,
    F_POLICY_CUR,
    F_POLICY_DRIVER,
    F_POLICY_GOVERNOR,
    F_POLICY_GOVERNORS,
    F_NODE_LIST,    /* node/online, possible, has_cpu, has_memory, has_normal_memory */
    F_NODE_CPUMAP,
    F_NODE_CPULIST,
    F_NODE_DISTANCE,
    F_NODE_MEMINFO,
    F_THP_ENABLED,
    F_THP_DEFRAG,
    F_THP_PMD_SIZE,
    F_THP_ZERO_PAGE,
    F_THP_SHMEM,
    F_TRACEFS,        /* below a tracing directory: the provider's tracefs */
    F_SCHED_FEATURES, /* /sys/kernel/debug/sched/features */
};

/* When an entry exists. */
enum {
    FL_PARAM = 1,  /* only with allow_mismatched_32bit_el0 (spec 2.1) */
    FL_ONLINE = 2, /* only while its vCPU is online (hotplug removes it) */
    FL_KVM = 4,    /* only without --no-kvm */
    FL_CPUFREQ = 8, /* only with cpufreq (a --soc preset), for a CPU of a policy */
};

/* A fixed entry: path (absolute, or relative to its table's directory),
 * kind, mode, id, FL_* flags. */
struct fixed {
    const char *path;
    enum vfs_node_kind kind;
    unsigned mode;
    enum file_id file;
    unsigned flags;
};

#define THP "/sys/kernel/mm/transparent_hugepage"
#define NODE_DIR "/sys/devices/system/node"

static const struct fixed fixed[] = {
    {"/dev", VNODE_DIR, 0755, F_DIR, 0},
    {"/dev/console", VNODE_CONSOLE, 0600, F_DEV_CONSOLE, 0},
    /* Where Android's init mounts its cgroup v1 hierarchies. */
    {"/dev/cpuctl", VNODE_DIR, 0755, F_DIR, 0},
    {"/dev/cpuset", VNODE_DIR, 0755, F_DIR, 0},
    {"/dev/fd", VNODE_SYMLINK, 0777, F_DEV_FD, 0},
    {"/dev/full", VNODE_FULL, 0666, F_DEV_FULL, 0},
    {"/dev/kmsg", VNODE_GENERATED, 0644, F_DEV_KMSG, 0},
    {"/dev/kvm", VNODE_KVM, 0660, F_DEV_KVM, FL_KVM},
    /* where systemd mounts mqueue (mqueue_fs.c), left empty by a umount */
    {"/dev/mqueue", VNODE_DIR, 0755, F_DIR, 0},
    {"/dev/null", VNODE_NULL, 0666, F_DEV_NULL, 0},
    {"/dev/ptmx", VNODE_PTMX, 0666, F_DEV_PTMX, 0},
    {"/dev/pts", VNODE_DIR, 0755, F_DIR, 0},
    {"/dev/pts/ptmx", VNODE_PTMX, 0000, F_DEV_PTMX, 0},
    {"/dev/random", VNODE_RANDOM, 0666, F_DEV_RANDOM, 0},
    {"/dev/stderr", VNODE_SYMLINK, 0777, F_DEV_STDERR, 0},
    {"/dev/stdin", VNODE_SYMLINK, 0777, F_DEV_STDIN, 0},
    {"/dev/stdout", VNODE_SYMLINK, 0777, F_DEV_STDOUT, 0},
    {"/dev/tty", VNODE_CONSOLE, 0666, F_DEV_TTY, 0},
    {"/dev/urandom", VNODE_RANDOM, 0666, F_DEV_RANDOM, 0},
    {"/dev/zero", VNODE_ZERO, 0666, F_DEV_ZERO, 0},
    {"/proc", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/cmdline", VNODE_GENERATED, 0444, F_PROC_CMDLINE, 0},
    {"/proc/cpuinfo", VNODE_GENERATED, 0444, F_PROC_CPUINFO, 0},
    {"/proc/filesystems", VNODE_GENERATED, 0444, F_PROC_FILESYSTEMS, 0},
    {"/proc/kallsyms", VNODE_GENERATED, 0444, F_PROC_KALLSYMS, 0},
    {"/proc/key-users", VNODE_GENERATED, 0444, F_PROC_SYSVIPC, 0},
    {"/proc/keys", VNODE_GENERATED, 0444, F_PROC_SYSVIPC, 0},
    {"/proc/loadavg", VNODE_GENERATED, 0444, F_PROC_LOADAVG, 0},
    {"/proc/meminfo", VNODE_GENERATED, 0444, F_PROC_MEMINFO, 0},
    {"/proc/mounts", VNODE_SYMLINK, 0777, F_PROC_MOUNTS, 0},
    {"/proc/self", VNODE_SYMLINK, 0777, F_PROC_SELF, 0},
    {"/proc/net", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/net/tcp", VNODE_GENERATED, 0444, F_PROC_NET, 0},
    {"/proc/net/tcp6", VNODE_GENERATED, 0444, F_PROC_NET, 0},
    {"/proc/net/udp", VNODE_GENERATED, 0444, F_PROC_NET, 0},
    {"/proc/net/udp6", VNODE_GENERATED, 0444, F_PROC_NET, 0},
    {"/proc/net/unix", VNODE_GENERATED, 0444, F_PROC_NET, 0},
    {"/proc/stat", VNODE_GENERATED, 0444, F_PROC_STAT, 0},
    {"/proc/sys", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/fs", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/fs/aio-max-nr", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/aio-nr", VNODE_GENERATED, 0444, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/inotify", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/fs/inotify/max_queued_events", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/inotify/max_user_instances", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/inotify/max_user_watches", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/mqueue", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/fs/mqueue/msg_default", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/mqueue/msg_max", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/mqueue/msgsize_default", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/mqueue/msgsize_max", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/fs/mqueue/queues_max", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/kernel/keys", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/kernel/keys/gc_delay", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/keys/maxbytes", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/keys/maxkeys", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/keys/root_maxbytes", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/keys/root_maxkeys", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/kexec_load_disabled", VNODE_GENERATED, 0444, F_SYSCTL_KEXEC_DISABLED, 0},
    {"/proc/sys/kernel/modules_disabled", VNODE_GENERATED, 0444, F_SYSCTL_MODULES_DISABLED, 0},
    {"/proc/sys/kernel/msgmax", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/msgmnb", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/msgmni", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/ngroups_max", VNODE_GENERATED, 0444, F_SYSCTL_NGROUPS_MAX, 0},
    {"/proc/sys/kernel/sched_rt_period_us", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/sched_rt_runtime_us", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/osrelease", VNODE_GENERATED, 0444, F_SYSCTL_OSRELEASE, 0},
    {"/proc/sys/kernel/ostype", VNODE_GENERATED, 0444, F_SYSCTL_OSTYPE, 0},
    {"/proc/sys/kernel/perf_event_paranoid", VNODE_GENERATED, 0444, F_SYSCTL_PERF_PARANOID, 0},
    {"/proc/sys/kernel/pid_max", VNODE_GENERATED, 0444, F_SYSCTL_PID_MAX, 0},
    {"/proc/sys/kernel/sem", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/shmall", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/shmmax", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/shmmni", VNODE_GENERATED, 0644, F_SYSCTL_LIMIT, 0},
    {"/proc/sys/kernel/unprivileged_bpf_disabled", VNODE_GENERATED, 0444, F_SYSCTL_BPF_DISABLED, 0},
    {"/proc/sys/kernel/version", VNODE_GENERATED, 0444, F_SYSCTL_VERSION, 0},
    {"/proc/sys/vm", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sys/vm/max_map_count", VNODE_GENERATED, 0444, F_SYSCTL_MAX_MAP_COUNT, 0},
    {"/proc/sys/vm/overcommit_memory", VNODE_GENERATED, 0444, F_SYSCTL_OVERCOMMIT, 0},
    {"/proc/sys/vm/unprivileged_userfaultfd", VNODE_GENERATED, 0444, F_SYSCTL_UFFD, 0},
    {"/proc/sysvipc", VNODE_DIR, 0555, F_DIR, 0},
    {"/proc/sysvipc/msg", VNODE_GENERATED, 0444, F_PROC_SYSVIPC, 0},
    {"/proc/sysvipc/sem", VNODE_GENERATED, 0444, F_PROC_SYSVIPC, 0},
    {"/proc/sysvipc/shm", VNODE_GENERATED, 0444, F_PROC_SYSVIPC, 0},
    {"/proc/thread-self", VNODE_SYMLINK, 0777, F_PROC_THREAD_SELF, 0},
    {"/proc/uptime", VNODE_GENERATED, 0444, F_PROC_UPTIME, 0},
    {"/proc/version", VNODE_GENERATED, 0444, F_PROC_VERSION, 0},
    {"/sys", VNODE_DIR, 0555, F_DIR, 0},
    {"/sys/devices", VNODE_DIR, 0755, F_DIR, 0},
    {"/sys/devices/system", VNODE_DIR, 0755, F_DIR, 0},
    {CPU_DIR, VNODE_DIR, 0755, F_DIR, 0},
    {CPU_DIR "/aarch32_el0", VNODE_GENERATED, 0444, F_CPU_AARCH32_EL0, FL_PARAM},
    {CPU_DIR "/cpufreq", VNODE_DIR, 0755, F_DIR, FL_CPUFREQ},
    {CPU_DIR "/isolated", VNODE_GENERATED, 0444, F_CPU_ISOLATED, 0},
    {CPU_DIR "/kernel_max", VNODE_GENERATED, 0444, F_CPU_KERNEL_MAX, 0},
    {CPU_DIR "/offline", VNODE_GENERATED, 0444, F_CPU_OFFLINE, 0},
    {CPU_DIR "/online", VNODE_GENERATED, 0444, F_CPU_ONLINE, 0},
    {CPU_DIR "/possible", VNODE_GENERATED, 0444, F_CPU_POSSIBLE, 0},
    {CPU_DIR "/present", VNODE_GENERATED, 0444, F_CPU_PRESENT, 0},
    /* One NUMA node (drivers/base/node.c): what libnuma and numactl read. */
    {NODE_DIR, VNODE_DIR, 0755, F_DIR, 0},
    {NODE_DIR "/has_cpu", VNODE_GENERATED, 0444, F_NODE_LIST, 0},
    {NODE_DIR "/has_memory", VNODE_GENERATED, 0444, F_NODE_LIST, 0},
    {NODE_DIR "/has_normal_memory", VNODE_GENERATED, 0444, F_NODE_LIST, 0},
    {NODE_DIR "/node0", VNODE_DIR, 0755, F_DIR, 0},
    {NODE_DIR "/node0/cpulist", VNODE_GENERATED, 0444, F_NODE_CPULIST, 0},
    {NODE_DIR "/node0/cpumap", VNODE_GENERATED, 0444, F_NODE_CPUMAP, 0},
    {NODE_DIR "/node0/distance", VNODE_GENERATED, 0444, F_NODE_DISTANCE, 0},
    {NODE_DIR "/node0/meminfo", VNODE_GENERATED, 0444, F_NODE_MEMINFO, 0},
    {NODE_DIR "/online", VNODE_GENERATED, 0444, F_NODE_LIST, 0},
    {NODE_DIR "/possible", VNODE_GENERATED, 0444, F_NODE_LIST, 0},
    {"/sys/fs", VNODE_DIR, 0755, F_DIR, 0},
    {"/sys/kernel", VNODE_DIR, 0755, F_DIR, 0},
    {"/sys/kernel/debug", VNODE_DIR, 0700, F_DIR, 0},
    {"/sys/kernel/debug/sched", VNODE_DIR, 0755, F_DIR, 0},
    {"/sys/kernel/debug/sched/features", VNODE_GENERATED, 0644, F_SCHED_FEATURES, 0},
    {"/sys/kernel/mm", VNODE_DIR, 0755, F_DIR, 0},
    {THP, VNODE_DIR, 0755, F_DIR, 0},
    {THP "/defrag", VNODE_GENERATED, 0444, F_THP_DEFRAG, 0},
    {THP "/enabled", VNODE_GENERATED, 0444, F_THP_ENABLED, 0},
    {THP "/hpage_pmd_size", VNODE_GENERATED, 0444, F_THP_PMD_SIZE, 0},
    {THP "/shmem_enabled", VNODE_GENERATED, 0444, F_THP_SHMEM, 0},
    {THP "/use_zero_page", VNODE_GENERATED, 0444, F_THP_ZERO_PAGE, 0},
};

/* /proc/PID, in the order of the kernel's tgid_base_stuff. */
static const struct fixed pid_files[] = {
    {"task", VNODE_DIR, 0555, F_DIR, 0},
    {"fd", VNODE_DIR, 0500, F_DIR, 0},
    {"environ", VNODE_GENERATED, 0400, F_PID_ENVIRON, 0},
    {"auxv", VNODE_GENERATED, 0400, F_PID_AUXV, 0},
    {"status", VNODE_GENERATED, 0444, F_PID_STATUS, 0},
    {"personality", VNODE_GENERATED, 0400, F_PID_PERSONALITY, 0},
    {"comm", VNODE_GENERATED, 0644, F_PID_COMM, 0},
    {"cmdline", VNODE_GENERATED, 0444, F_PID_CMDLINE, 0},
    {"stat", VNODE_GENERATED, 0444, F_PID_STAT, 0},
    {"maps", VNODE_GENERATED, 0444, F_PID_MAPS, 0},
    {"mem", VNODE_MEM, 0600, F_PID_MEM, 0},
    {"cwd", VNODE_SYMLINK, 0777, F_PID_CWD, 0},
    {"root", VNODE_SYMLINK, 0777, F_PID_ROOT, 0},
    {"exe", VNODE_SYMLINK, 0777, F_PID_EXE, 0},
    {"mounts", VNODE_GENERATED, 0444, F_PID_MOUNTS, 0},
    {"mountinfo", VNODE_GENERATED, 0444, F_PID_MOUNTINFO, 0},
    {"cgroup", VNODE_GENERATED, 0444, F_PID_CGROUP, 0},
};

/* /proc/PID/task/TID, in the order of tid_base_stuff. */
static const struct fixed tid_files[] = {
    {"status", VNODE_GENERATED, 0444, F_PID_STATUS, 0},
    {"personality", VNODE_GENERATED, 0400, F_PID_PERSONALITY, 0},
    {"comm", VNODE_GENERATED, 0644, F_PID_COMM, 0},
    {"cmdline", VNODE_GENERATED, 0444, F_PID_CMDLINE, 0},
    {"stat", VNODE_GENERATED, 0444, F_PID_STAT, 0},
    {"mem", VNODE_MEM, 0600, F_PID_MEM, 0},
    {"cgroup", VNODE_GENERATED, 0444, F_PID_CGROUP, 0},
};

#define TOPO(name, id)                                                                             \
    {                                                                                              \
        "topology/" name, VNODE_GENERATED, 0444, id, FL_ONLINE                                     \
    }

static const struct fixed cpu_files[] = {
    {"cpu_capacity", VNODE_GENERATED, 0444, F_CPUN_CAPACITY, 0},
    {"cpufreq", VNODE_SYMLINK, 0777, F_CPUN_CPUFREQ, FL_CPUFREQ},
    {"online", VNODE_GENERATED, 0644, F_CPUN_ONLINE, 0},
    {"regs", VNODE_DIR, 0755, F_DIR, FL_ONLINE},
    {"regs/identification", VNODE_DIR, 0755, F_DIR, FL_ONLINE},
    {"regs/identification/midr_el1", VNODE_GENERATED, 0444, F_CPUN_MIDR, FL_ONLINE},
    {"regs/identification/revidr_el1", VNODE_GENERATED, 0444, F_CPUN_REVIDR, FL_ONLINE},
    {"topology", VNODE_DIR, 0755, F_DIR, FL_ONLINE},
    TOPO("cluster_cpus", F_TOPO_CLUSTER),
    TOPO("cluster_cpus_list", F_TOPO_CLUSTER_LIST),
    TOPO("cluster_id", F_TOPO_CLUSTER_ID),
    TOPO("core_cpus", F_TOPO_THREAD),
    TOPO("core_cpus_list", F_TOPO_THREAD_LIST),
    TOPO("core_id", F_TOPO_CORE_ID),
    TOPO("core_siblings", F_TOPO_PACKAGE),
    TOPO("core_siblings_list", F_TOPO_PACKAGE_LIST),
    TOPO("package_cpus", F_TOPO_PACKAGE),
    TOPO("package_cpus_list", F_TOPO_PACKAGE_LIST),
    TOPO("physical_package_id", F_TOPO_PACKAGE_ID),
    TOPO("thread_siblings", F_TOPO_THREAD),
    TOPO("thread_siblings_list", F_TOPO_THREAD_LIST),
};

/* cpufreq/policyN: the attributes of cpufreq.c's default_attrs and
 * cpufreq_generic_attr, read-only here (no governor is modelled yet). */
static const struct fixed policy_files[] = {
    {"affected_cpus", VNODE_GENERATED, 0444, F_POLICY_AFFECTED, 0},
    {"cpuinfo_max_freq", VNODE_GENERATED, 0444, F_POLICY_MAX, 0},
    {"cpuinfo_min_freq", VNODE_GENERATED, 0444, F_POLICY_MIN, 0},
    {"related_cpus", VNODE_GENERATED, 0444, F_POLICY_RELATED, 0},
    {"scaling_available_frequencies", VNODE_GENERATED, 0444, F_POLICY_FREQS, 0},
    {"scaling_available_governors", VNODE_GENERATED, 0444, F_POLICY_GOVERNORS, 0},
    {"scaling_cur_freq", VNODE_GENERATED, 0444, F_POLICY_CUR, 0},
    {"scaling_driver", VNODE_GENERATED, 0444, F_POLICY_DRIVER, 0},
    {"scaling_governor", VNODE_GENERATED, 0444, F_POLICY_GOVERNOR, 0},
    {"scaling_max_freq", VNODE_GENERATED, 0444, F_POLICY_MAX, 0},
    {"scaling_min_freq", VNODE_GENERATED, 0444, F_POLICY_MIN, 0},
};

static const char *const virtual_roots[] = {"/dev", "/proc", "/sys"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The FL_* flags that hide entries now. */
static unsigned hidden_flags(const struct vfs_cpus *c, int cpu)
{
    unsigned hide = c->aarch32_file ? 0 : FL_PARAM;
    if (!c->kvm)
        hide |= FL_KVM;
    if (cpu >= 0 && !cpumask_test_cpu((unsigned)cpu, &c->online))
        hide |= FL_ONLINE;
    if (!c->layout || !c->layout->soc || (cpu >= 0 && c->layout->domain[cpu] < 0))
        hide |= FL_CPUFREQ;
    return hide;
}

/* dir "/" rel into out: 0, or -ENOENT when it does not fit (no node has
 * such a path). */
static int join_path(char *out, size_t len, const char *dir, const char *rel)
{
    size_t a = strlen(dir), b = strlen(rel);
    if (a + 1 + b >= len)
        return -ENOENT;
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, rel, b + 1);
    return 0;
}

static void fill(struct vfs_node *node, const char *path, const struct fixed *f, int arg, int arg2)
{
    size_t n = strlen(path);
    n = n < sizeof node->path ? n : sizeof node->path - 1;
    memcpy(node->path, path, n);
    node->path[n] = '\0';
    node->kind = f->kind;
    node->mode = f->mode;
    node->file = f->file;
    node->arg = arg;
    node->arg2 = arg2;
    node->records = f->file == F_DEV_KMSG;
    node->pages = false;
    node->pipe = false;
    node->sysctl = f->file == F_SYSCTL_LIMIT;
}

/* "123" and the rest after it, or -1. */
static int leading_number(const char *s, const char **rest)
{
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, (char **)rest, 10);
    return v > 0x7fffffff ? -1 : (int)v;
}

/* A number that is a whole path component, written as the kernel writes
 * it (no leading zeros): its value, *rest after it; else -1. */
static int component_number(const char *s, const char **rest)
{
    int n = leading_number(s, rest);
    bool whole = n >= 0 && (**rest == '\0' || **rest == '/');
    return whole && (s[0] != '0' || *rest == s + 1) ? n : -1;
}

/* rel in the table of dirpath, a directory with mode dirmode ("" is it). */
static int lookup_in(const struct fixed *files, size_t n, const char *dirpath, unsigned dirmode,
                     const char *rel, int arg, int arg2, unsigned hide, struct vfs_node *node)
{
    if (*rel == '\0') {
        const struct fixed dir = {"", VNODE_DIR, dirmode, F_DIR, 0};
        fill(node, dirpath, &dir, arg, arg2);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(files[i].path, rel) == 0 && !(files[i].flags & hide)) {
            char path[sizeof node->path];
            if (join_path(path, sizeof path, dirpath, rel) < 0)
                return -ENOENT;
            fill(node, path, &files[i], arg, arg2);
            return 1;
        }
    }
    return -ENOENT;
}

/* /proc/PID/..., rel being what follows "/proc/PID/". */
static int lookup_pid(struct vfs *v, void *ctx, int pid, const char *rel, struct vfs_node *node)
{
    const struct vfs_provider *p = v->provider;
    struct vfs_task_info info;
    char dir[128];
    const char *rest;
    if (p->task(ctx, pid, &info) < 0)
        return -ENOENT;
    snprintf(dir, sizeof dir, "/proc/%d", pid);
    if (strncmp(rel, "fd/", 3) == 0) {
        int fd = component_number(rel + 3, &rest);
        char target[8];
        int accmode;
        if (fd < 0 || *rest || p->fd(ctx, pid, fd, target, sizeof target, &accmode) < 0)
            return -ENOENT;
        /* The link's mode tells how the file is open (tid_fd_update_inode). */
        unsigned mode = accmode == 0 ? 0500 : accmode == 1 ? 0300 : 0700;
        struct fixed link = {"", VNODE_SYMLINK, mode, F_PID_FD, 0};
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
        fill(node, path, &link, pid, fd);
        return 1;
    }
    if (strncmp(rel, "task/", 5) == 0) {
        int tid = component_number(rel + 5, &rest);
        if (tid <= 0 || p->thread(ctx, pid, tid, &info) < 0)
            return -ENOENT;
        snprintf(dir, sizeof dir, "/proc/%d/task/%d", pid, tid);
        return lookup_in(tid_files, COUNT(tid_files), dir, 0555, *rest ? rest + 1 : rest, pid, tid,
                         0, node);
    }
    return lookup_in(pid_files, COUNT(pid_files), dir, 0555, rel, pid, pid, 0, node);
}

/* cpu is the first CPU of a cpufreq policy: policyN is named after it. */
static bool is_policy(const struct vfs_cpus *c, int cpu)
{
    const struct cpu_layout *l = c->layout;
    if (!l || !l->soc || cpu < 0 || (unsigned)cpu >= c->nr || l->domain[cpu] < 0)
        return false;
    for (int o = 0; o < cpu; o++)
        if (l->domain[o] == l->domain[cpu])
            return false;
    return true;
}

/* tracefs is mounted at /sys/kernel/tracing and, as debugfs's automount,
 * at /sys/kernel/debug/tracing: the path below either, or NULL. */
static const char *tracing_rel(const char *path)
{
    static const char *const dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    for (size_t i = 0; i < COUNT(dirs); i++)
        if (under(path, dirs[i]))
            return path[strlen(dirs[i])] ? path + strlen(dirs[i]) + 1 : "";
    return NULL;
}

const char *vfs_tracefs_rel(const char *abspath)
{
    return tracing_rel(abspath);
}

static int lookup_tracefs(struct vfs *v, void *ctx, const char *abspath, const char *rel,
                          struct vfs_node *node)
{
    unsigned mode;
    bool dir;
    if (!v->provider->tracefs_lookup || strlen(abspath) >= sizeof node->path ||
        v->provider->tracefs_lookup(ctx, rel, &mode, &dir) < 0)
        return -ENOENT;
    const struct fixed f = {"", dir ? VNODE_DIR : VNODE_GENERATED, mode, dir ? F_DIR : F_TRACEFS, 0};
    fill(node, abspath, &f, 0, 0);
    size_t n = strlen(abspath);
    node->pages = n > 15 && strcmp(abspath + n - 15, "/trace_pipe_raw") == 0;
    node->pipe = n > 11 && strcmp(abspath + n - 11, "/trace_pipe") == 0;
    return 1;
}

const char *vfs_cgroup_rel(const struct vfs *v, const char *abspath, unsigned *hier)
{
    const char *dir = NULL;
    unsigned h = 0;
    if (under(abspath, VFS_CGROUP_MOUNT))
        dir = VFS_CGROUP_MOUNT;
    for (unsigned i = 0; i < v->ncgroup_mounts && !dir; i++)
        if (under(abspath, v->cgroup_mounts[i].dir)) {
            dir = v->cgroup_mounts[i].dir;
            h = v->cgroup_mounts[i].hier;
        }
    if (!dir)
        return NULL;
    if (hier)
        *hier = h;
    const char *rel = abspath + strlen(dir);
    return *rel ? rel + 1 : rel;
}

int vfs_cgroup_mount(struct vfs *v, const char *source, const char *dir, unsigned hier,
                     const char *type, const char *options)
{
    const char *mq = vfs_mqueue_rel(v, dir);
    if (strcmp(dir, VFS_CGROUP_MOUNT) == 0 || (mq && !*mq)) /* an mqueue mount's too */
        return -EBUSY;
    for (unsigned i = 0; i < v->ncgroup_mounts; i++)
        if (strcmp(v->cgroup_mounts[i].dir, dir) == 0)
            return -EBUSY;
    if (v->ncgroup_mounts == VFS_CGROUP_MOUNTS)
        return -ENOSPC;
    if (strlen(dir) >= sizeof v->cgroup_mounts[0].dir)
        return -ENAMETOOLONG;
    struct vfs_cgroup_mount *m = &v->cgroup_mounts[v->ncgroup_mounts++];
    snprintf(m->dir, sizeof m->dir, "%s", dir);
    snprintf(m->source, sizeof m->source, "%s", source);
    snprintf(m->type, sizeof m->type, "%s", type);
    snprintf(m->options, sizeof m->options, "%s", options);
    m->hier = hier;
    return 0;
}

int vfs_cgroup_umount(struct vfs *v, const char *dir)
{
    for (unsigned i = 0; i < v->ncgroup_mounts; i++) {
        if (strcmp(v->cgroup_mounts[i].dir, dir) == 0) {
            int hier = (int)v->cgroup_mounts[i].hier;
            v->cgroup_mounts[i] = v->cgroup_mounts[--v->ncgroup_mounts];
            return hier;
        }
    }
    return -EINVAL;
}

/* A node of /sys/fs/cgroup, from the provider. */
static int lookup_cgroup(struct vfs *v, void *ctx, const char *abspath, struct vfs_node *node)
{
    const struct vfs_provider *p = v->provider;
    bool dir;
    unsigned mode, hier;
    const char *rel = vfs_cgroup_rel(v, abspath, &hier);
    if (!p->cgroup_node || strlen(abspath) >= sizeof node->path ||
        p->cgroup_node(ctx, hier, rel, &dir, &mode) < 0)
        return -ENOENT;
    const struct fixed f = {"", dir ? VNODE_DIR : VNODE_GENERATED, mode, dir ? F_DIR : F_CGROUP, 0};
    fill(node, abspath, &f, CGROUP_NODE, 0);
    return 1;
}

int vfs_lookup_virtual(struct vfs *v, void *ctx, const char *abspath, struct vfs_node *node)
{
    if (vfs_cgroup_rel(v, abspath, NULL))
        return lookup_cgroup(v, ctx, abspath, node);
    const char *mq_rel = vfs_mqueue_rel(v, abspath);
    if (mq_rel)
        return mqueue_fs_lookup(v, ctx, abspath, mq_rel, node);
    bool inside = false;
    for (size_t i = 0; i < COUNT(virtual_roots); i++)
        inside |= under(abspath, virtual_roots[i]);
    if (!inside || under(abspath, "/dev/shm")) /* a host directory (vfs.c) */
        return 0;
    const struct vfs_provider *p = v->provider;
    struct vfs_cpus cpus;
    p->cpus(ctx, &cpus);
    for (size_t i = 0; i < COUNT(fixed); i++) {
        if (strcmp(fixed[i].path, abspath) != 0)
            continue;
        if (fixed[i].flags & hidden_flags(&cpus, -1))
            return -ENOENT;
        fill(node, abspath, &fixed[i], 0, 0);
        return 1;
    }
    const char *rest;
    char real[VFS_PATH_MAX];
    const char *tracing = tracing_rel(abspath);
    if (tracing)
        return lookup_tracefs(v, ctx, abspath, tracing, node);
    /* /proc/self/... is /proc/PID/... of the caller, thread-self its thread's. */
    if (strncmp(abspath, "/proc/self/", 11) == 0) {
        snprintf(real, sizeof real, "/proc/%d/%s", p->self_pid(ctx), abspath + 11);
        return vfs_lookup_virtual(v, ctx, real, node);
    }
    if (strncmp(abspath, "/proc/thread-self/", 18) == 0) {
        snprintf(real, sizeof real, "/proc/%d/task/%d/%s", p->self_pid(ctx), p->self_tid(ctx),
                 abspath + 18);
        return vfs_lookup_virtual(v, ctx, real, node);
    }
    if (strncmp(abspath, "/proc/", 6) == 0) {
        int pid = component_number(abspath + 6, &rest);
        if (pid <= 0)
            return -ENOENT;
        return lookup_pid(v, ctx, pid, *rest ? rest + 1 : rest, node);
    }
    if (strncmp(abspath, "/dev/pts/", 9) == 0) {
        int n = component_number(abspath + 9, &rest);
        if (n < 0 || *rest || p->next_pty(ctx, n - 1) != n)
            return -ENOENT;
        const struct fixed pts = {"", VNODE_PTS, 0620, F_DEV_PTS, 0};
        fill(node, abspath, &pts, n, 0);
        return 1;
    }
    if (strncmp(abspath, CPU_DIR "/cpufreq/policy", sizeof CPU_DIR + 14) == 0) {
        int cpu = component_number(abspath + sizeof CPU_DIR + 14, &rest);
        char dir[64];
        if (cpu < 0 || !is_policy(&cpus, cpu))
            return -ENOENT;
        snprintf(dir, sizeof dir, CPU_DIR "/cpufreq/policy%d", cpu);
        return lookup_in(policy_files, COUNT(policy_files), dir, 0755, *rest ? rest + 1 : rest,
                         cpu, 0, 0, node);
    }
    if (strncmp(abspath, CPU_DIR "/cpu", sizeof CPU_DIR + 3) == 0) {
        int cpu = component_number(abspath + sizeof CPU_DIR + 3, &rest);
        char dir[64];
        if (cpu < 0 || (unsigned)cpu >= cpus.nr)
            return -ENOENT;
        snprintf(dir, sizeof dir, CPU_DIR "/cpu%d", cpu);
        return lookup_in(cpu_files, COUNT(cpu_files), dir, 0755, *rest ? rest + 1 : rest, cpu, 0,
                         hidden_flags(&cpus, cpu), node);
    }
    return -ENOENT;
}

static unsigned char dtype(enum vfs_node_kind k)
{
    return k == VNODE_DIR         ? DT_DIR_
           : k == VNODE_SYMLINK   ? DT_LNK_
           : k == VNODE_GENERATED || k == VNODE_MEM || k == VNODE_MQUEUE ? DT_REG_
                                                    : DT_CHR_;
}

/* Emits the direct children of the directory `prefix` (a path relative to
 * the table's directory, "" for the directory itself). */
static void list_table(const struct fixed *files, size_t n, const char *prefix, unsigned hide,
                       void (*emit)(const char *, unsigned char, void *), void *arg)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; i < n; i++) {
        const char *f = files[i].path;
        if ((files[i].flags & hide) || strncmp(f, prefix, pl) != 0 || (pl && f[pl] != '/'))
            continue;
        const char *name = f + pl + (pl ? 1 : 0);
        if (*name && !strchr(name, '/'))
            emit(name, dtype(files[i].kind), arg);
    }
}

/* /proc/PID/rel: the process's own files, its fds or its threads. */
static void list_pid(struct vfs *v, void *ctx, int pid, const char *rel,
                     void (*emit)(const char *, unsigned char, void *), void *arg)
{
    const struct vfs_provider *p = v->provider;
    char name[32];
    if (strcmp(rel, "fd") == 0) {
        for (int fd = p->next_fd(ctx, pid, -1); fd >= 0; fd = p->next_fd(ctx, pid, fd)) {
            snprintf(name, sizeof name, "%d", fd);
            emit(name, DT_LNK_, arg);
        }
    } else if (strcmp(rel, "task") == 0) {
        for (int tid = p->next_tid(ctx, pid, 0); tid > 0; tid = p->next_tid(ctx, pid, tid)) {
            snprintf(name, sizeof name, "%d", tid);
            emit(name, DT_DIR_, arg);
        }
    } else if (strncmp(rel, "task/", 5) == 0) {
        list_table(tid_files, COUNT(tid_files), "", 0, emit, arg);
    } else {
        list_table(pid_files, COUNT(pid_files), rel, 0, emit, arg);
    }
}

int vfs_list_virtual(struct vfs *v, void *ctx, const struct vfs_node *dir,
                     void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    if (dir->kind != VNODE_DIR)
        return -ENOTDIR;
    const struct vfs_provider *p = v->provider;
    struct vfs_cpus cpus;
    p->cpus(ctx, &cpus);
    const char *path = dir->path, *rest;
    char name[32];
    unsigned hier;
    const char *cg_rel = vfs_cgroup_rel(v, path, &hier);
    if (dir->arg == CGROUP_NODE && cg_rel)
        return p->cgroup_list ? p->cgroup_list(ctx, hier, cg_rel, emit, arg) : -ENOENT;
    if (dir->arg == MQUEUE_NODE && vfs_mqueue_rel(v, path))
        return p->mqueue_list ? p->mqueue_list(ctx, emit, arg) : -ENOENT;
    if (strncmp(path, "/proc/", 6) == 0 && component_number(path + 6, &rest) > 0) {
        list_pid(v, ctx, dir->arg, *rest ? rest + 1 : rest, emit, arg);
        return 0;
    }
    const char *tracing = tracing_rel(path);
    if (tracing)
        return p->tracefs_list ? p->tracefs_list(ctx, tracing, emit, arg) : -ENOENT;
    if (strncmp(path, CPU_DIR "/cpufreq/policy", sizeof CPU_DIR + 14) == 0) {
        list_table(policy_files, COUNT(policy_files), "", 0, emit, arg);
        return 0;
    }
    if (strncmp(path, CPU_DIR "/cpu", sizeof CPU_DIR + 3) == 0 &&
        path[sizeof CPU_DIR + 3] >= '0' && path[sizeof CPU_DIR + 3] <= '9') {
        const char *slash = strchr(path + sizeof CPU_DIR + 3, '/');
        list_table(cpu_files, COUNT(cpu_files), slash ? slash + 1 : "",
                   hidden_flags(&cpus, dir->arg), emit, arg);
        return 0;
    }
    /* A directory of the fixed table: its fixed children... */
    size_t pl = strlen(path);
    unsigned hide = hidden_flags(&cpus, -1);
    for (size_t i = 0; i < COUNT(fixed); i++) {
        const char *f = fixed[i].path;
        if ((fixed[i].flags & hide) || strncmp(f, path, pl) != 0 || f[pl] != '/' ||
            strchr(f + pl + 1, '/'))
            continue;
        emit(f + pl + 1, dtype(fixed[i].kind), arg);
    }
    /* ...and the generated ones. */
    if (strcmp(path, "/proc") == 0) {
        for (int pid = p->next_pid(ctx, 0); pid > 0; pid = p->next_pid(ctx, pid)) {
            snprintf(name, sizeof name, "%d", pid);
            emit(name, DT_DIR_, arg);
        }
    } else if (strcmp(path, "/sys/fs") == 0) {
        if (p->cgroup_node)
            emit("cgroup", DT_DIR_, arg);
    } else if (strcmp(path, "/dev") == 0) {
        emit("shm", DT_DIR_, arg); /* the private mount (vfs.c) */
    } else if (strcmp(path, "/sys/kernel") == 0 || strcmp(path, "/sys/kernel/debug") == 0) {
        emit("tracing", DT_DIR_, arg); /* tracefs (lookup_tracefs) */
    } else if (strcmp(path, "/dev/pts") == 0) {
        for (int n = p->next_pty(ctx, -1); n >= 0; n = p->next_pty(ctx, n)) {
            snprintf(name, sizeof name, "%d", n);
            emit(name, DT_CHR_, arg);
        }
    } else if (strcmp(path, CPU_DIR "/cpufreq") == 0) {
        for (unsigned cpu = 0; cpu < cpus.nr; cpu++) {
            if (is_policy(&cpus, (int)cpu)) {
                snprintf(name, sizeof name, "policy%u", cpu);
                emit(name, DT_DIR_, arg);
            }
        }
    } else if (strcmp(path, CPU_DIR) == 0) {
        for (unsigned cpu = 0; cpu < cpus.nr; cpu++) {
            snprintf(name, sizeof name, "cpu%u", cpu);
            emit(name, DT_DIR_, arg);
        }
    }
    return 0;
}

/* Character devices: major and minor (devices.txt). */
static dev_t device_number(const struct vfs_node *node)
{
    switch (node->file) {
    case F_DEV_NULL:
        return makedev(1, 3);
    case F_DEV_ZERO:
        return makedev(1, 5);
    case F_DEV_FULL:
        return makedev(1, 7);
    case F_DEV_RANDOM:
        return makedev(1, strcmp(node->path, "/dev/random") == 0 ? 8 : 9);
    case F_DEV_KMSG:
        return makedev(1, 11);
    case F_DEV_TTY:
        return makedev(5, 0);
    case F_DEV_CONSOLE:
        return makedev(5, 1);
    case F_DEV_PTMX:
        return makedev(5, 2);
    case F_DEV_KVM:
        return makedev(10, 232);
    case F_DEV_PTS:
        return makedev(136, (unsigned)node->arg);
    default:
        return 0;
    }
}

void vfs_stat_virtual(const struct vfs_node *node, struct stat *st)
{
    memset(st, 0, sizeof *st);
    uint64_t h = 1469598103934665603ull; /* stable inode numbers from the path */
    for (const char *c = node->path; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    st->st_ino = (ino_t)(h & 0xffffffff);
    st->st_mode = node->mode;
    st->st_blksize = 4096;
    st->st_nlink = 1;
    st->st_dev = under(node->path, "/proc")               ? 0x16
                 : node->arg == CGROUP_NODE               ? 0x1a
                 : tracing_rel(node->path)                ? 0xc /* tracefs (mounts.c) */
                 : under(node->path, "/sys/kernel/debug") ? 0x7 /* debugfs */
                 : under(node->path, "/sys")              ? 0x15
                                                          : 0x5;
    st->st_rdev = device_number(node);
    switch (node->kind) {
    case VNODE_DIR:
        st->st_mode |= S_IFDIR;
        st->st_nlink = 2;
        break;
    case VNODE_SYMLINK:
        st->st_mode |= S_IFLNK;
        break;
    case VNODE_GENERATED:
        st->st_mode |= node->file == F_DEV_KMSG ? S_IFCHR : S_IFREG;
        break;
    case VNODE_MEM:
    case VNODE_MQUEUE:
        st->st_mode |= S_IFREG;
        break;
    case VNODE_NULL:
    case VNODE_ZERO:
    case VNODE_RANDOM:
    case VNODE_FULL:
    case VNODE_CONSOLE:
    case VNODE_PTMX:
    case VNODE_KVM:
        st->st_mode |= S_IFCHR;
        break;
    case VNODE_PTS:
        /* devpts's gid=5,mode=620: group tty, as glibc's grantpt expects */
        st->st_mode |= S_IFCHR;
        st->st_gid = 5;
        break;
    }
    if (node->arg == MQUEUE_NODE)
        mqueue_fs_stat_node(node, st);
}

int vfs_proc_dir_pid(const struct vfs_node *node)
{
    char path[sizeof node->path];
    snprintf(path, sizeof path, "/proc/%d", node->arg);
    return node->kind == VNODE_DIR && node->file == F_DIR && strcmp(node->path, path) == 0
               ? node->arg
               : 0;
}

bool vfs_is_fd_link(const struct vfs_node *node)
{
    return node->kind == VNODE_SYMLINK && node->file == F_PID_FD;
}

bool vfs_is_magic_link(const struct vfs_node *node)
{
    return node->kind == VNODE_SYMLINK && (node->file == F_PID_FD || node->file == F_PID_EXE ||
                                           node->file == F_PID_ROOT || node->file == F_PID_CWD);
}

int vfs_readlink_virtual(struct vfs *v, void *ctx, const struct vfs_node *node, char *buf,
                         size_t len)
{
    const struct vfs_provider *p = v->provider;
    static const char *const dev_links[] = {
        [F_DEV_FD] = "/proc/self/fd",
        [F_DEV_STDIN] = "/proc/self/fd/0",
        [F_DEV_STDOUT] = "/proc/self/fd/1",
        [F_DEV_STDERR] = "/proc/self/fd/2",
    };
    char target[VFS_PATH_MAX];
    int n, accmode;
    switch (node->file) {
    case F_DEV_FD:
    case F_DEV_STDIN:
    case F_DEV_STDOUT:
    case F_DEV_STDERR:
        n = snprintf(target, sizeof target, "%s", dev_links[node->file]);
        break;
    case F_PROC_SELF:
        n = snprintf(target, sizeof target, "%d", p->self_pid(ctx));
        break;
    case F_PROC_MOUNTS:
        n = snprintf(target, sizeof target, "self/mounts");
        break;
    case F_PROC_THREAD_SELF:
        n = snprintf(target, sizeof target, "%d/task/%d", p->self_pid(ctx), p->self_tid(ctx));
        break;
    case F_PID_EXE:
    case F_PID_CWD:
        n = (node->file == F_PID_EXE ? p->exe : p->cwd)(ctx, node->arg, target, sizeof target);
        break;
    case F_PID_FD:
        n = p->fd(ctx, node->arg, node->arg2, target, sizeof target, &accmode);
        break;
    case F_PID_ROOT:
        n = p->root ? p->root(ctx, node->arg, target, sizeof target)
                    : snprintf(target, sizeof target, "/");
        break;
    case F_CPUN_CPUFREQ: {
        struct vfs_cpus c;
        p->cpus(ctx, &c);
        unsigned first = (unsigned)node->arg;
        for (unsigned o = 0; o < (unsigned)node->arg; o++)
            if (c.layout->domain[o] == c.layout->domain[node->arg]) {
                first = o;
                break;
            }
        n = snprintf(target, sizeof target, "../cpufreq/policy%u", first);
        break;
    }
    default:
        return -EINVAL;
    }
    if (n < 0)
        return n;
    n = (size_t)n < len ? n : (int)len;
    memcpy(buf, target, (size_t)n);
    return n;
}

/* ---- generated content ---- */

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

static void add_cpulist(struct text *t, const struct cpumask *m)
{
    char list[4096];
    cpulist_format(m, list, sizeof list);
    add(t, "%s\n", list);
}

/* cpumap_print_to_pagebuf(false, ...): 32-bit hex words for nr_cpu_ids bits. */
static void add_cpumask(struct text *t, const struct cpumask *m, unsigned nr_cpus)
{
    char hex[512];
    cpumask_format_hex(m, nr_cpus, hex, sizeof hex);
    add(t, "%s\n", hex);
}

static uint32_t midr_of(const struct vfs_cpus *c, unsigned cpu)
{
    return cpu_layout_midr(c->layout, cpu, cpumask_test_cpu(cpu, &c->aarch32));
}

/* arch/arm64/kernel/cpuinfo.c: hwcap_str, by KERNEL_HWCAP_* number (an
 * AT_HWCAP bit, or 32 + an AT_HWCAP2 bit), as of 5.15. */
static const char *const hwcap_str[] = {
    "fp",      "asimd",   "evtstrm",  "aes",      "pmull",      "sha1",    "sha2",   "crc32",
    "atomics", "fphp",    "asimdhp",  "cpuid",    "asimdrdm",   "jscvt",   "fcma",   "lrcpc",
    "dcpop",   "sha3",    "sm3",      "sm4",      "asimddp",    "sha512",  "sve",    "asimdfhm",
    "dit",     "uscat",   "ilrcpc",   "flagm",    "ssbs",       "sb",      "paca",   "pacg",
    "dcpodp",  "sve2",    "sveaes",   "svepmull", "svebitperm", "svesha3", "svesm4", "flagm2",
    "frint",   "svei8mm", "svef32mm", "svef64mm", "svebf16",    "i8mm",    "bf16",   "dgh",
    "rng",     "bti",     "mte",
};

/* compat_hwcap_str and compat_hwcap2_str: NULL for what arm64 never
 * reports (26bit, fpa, java, iwmmxt, crunch, thumbee, vfpv3d16, vfpd32). */
static const char *const compat_hwcap_str[] = {
    "swp", "half", "thumb", NULL, "fastmult", NULL,    "vfp",   "edsp",  NULL, NULL,   NULL,
    NULL,  "neon", "vfpv3", NULL, "tls",      "vfpv4", "idiva", "idivt", NULL, "lpae", "evtstrm",
};
static const char *const compat_hwcap2_str[] = {"aes", "pmull", "sha1", "sha2", "crc32"};

static void add_features(struct text *t, const struct vfs_cpus *c, bool linux32)
{
    add(t, "Features\t:");
    if (linux32) {
        for (unsigned j = 0; j < COUNT(compat_hwcap_str); j++)
            if ((c->compat_hwcap >> j & 1) && compat_hwcap_str[j])
                add(t, " %s", compat_hwcap_str[j]);
        for (unsigned j = 0; j < COUNT(compat_hwcap2_str); j++)
            if (c->compat_hwcap2 >> j & 1)
                add(t, " %s", compat_hwcap2_str[j]);
    } else {
        for (unsigned j = 0; j < COUNT(hwcap_str); j++)
            if (j < 32 ? c->hwcap >> j & 1 : c->hwcap2 >> (j - 32) & 1)
                add(t, " %s", hwcap_str[j]);
    }
    add(t, "\n");
}

/* c_show(): the 32-bit layout goes to readers with the PER_LINUX32
 * personality, as the kernel decides (not to every 32-bit task). */
static void cpuinfo(struct text *t, const struct vfs_cpus *c, bool linux32)
{
    unsigned cpu;
    for_each_cpu(cpu, &c->online)
    {
        uint32_t midr = midr_of(c, cpu);
        add(t, "processor\t: %u\n", cpu);
        if (linux32)
            add(t, "model name\t: ARMv8 Processor rev %u (v8l)\n", midr & 0xf);
        add(t, "BogoMIPS\t: 50.00\n");
        add_features(t, c, linux32);
        add(t,
            "CPU implementer\t: 0x%02x\nCPU architecture: 8\nCPU variant\t: 0x%x\n"
            "CPU part\t: 0x%03x\nCPU revision\t: %u\n\n",
            midr >> 24, (midr >> 20) & 0xf, (midr >> 4) & 0xfff, midr & 0xf);
    }
}

static const char *state_name(char state)
{
    switch (state) {
    case 'S':
        return "S (sleeping)";
    case 'T':
        return "T (stopped)";
    case 't':
        return "t (tracing stop)";
    case 'Z':
        return "Z (zombie)";
    default:
        return "R (running)";
    }
}

/* proc_pid_status(): the lines asymu has values for, in the kernel's order. */
/* Mems_allowed: node 0 of MAX_NUMNODES 16 (arm64's NODES_SHIFT 4) as
 * cpuset_task_status_allowed() prints it (%*pb): libnuma sizes its node
 * masks from it (emu/mm/mempolicy.c). */
static void pid_status(struct text *t, const struct vfs_task_info *i, unsigned nr_cpus)
{
    char hex[512], list[4096];
    cpumask_format_hex(&i->allowed, nr_cpus, hex, sizeof hex);
    cpulist_format(&i->allowed, list, sizeof list);
    add(t,
        "Name:\t%s\nUmask:\t%04o\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
        "TracerPid:\t%d\nUid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nGroups:\t",
        i->comm, i->umask, state_name(i->state), i->pid, i->tid, i->ppid, i->tracer_pid, i->uid[0], i->uid[1],
        i->uid[2], i->uid[3], i->gid[0], i->gid[1], i->gid[2], i->gid[3]);
    for (unsigned g = 0; g < i->ngroups; g++)
        add(t, g ? " %u" : "%u", i->groups[g]);
    add(t, " \nNStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n", i->pid, i->tid, i->pgid,
        i->sid);
    /* task_mem(): sizes in kB, eight wide; asymu keeps VmSize and VmLck. */
    if (i->has_mm)
        add(t, "VmSize:\t%8llu kB\nVmLck:\t%8llu kB\n", (unsigned long long)(i->vm_bytes >> 10),
            (unsigned long long)(i->vm_locked >> 10));
    add(t,
        "Threads:\t%d\n"
        "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\nSigIgn:\t%016llx\n"
        "SigCgt:\t%016llx\n",
        i->threads, (unsigned long long)i->sig_pending, 0ull,
        (unsigned long long)i->sig_blocked, (unsigned long long)i->sig_ignored,
        (unsigned long long)i->sig_caught);
    /* task_cap() and task_seccomp()'s NoNewPrivs (no guest seccomp). */
    add(t, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\nCapBnd:\t%016llx\n"
           "CapAmb:\t%016llx\nNoNewPrivs:\t%d\n",
        (unsigned long long)i->cap_inh, (unsigned long long)i->cap_prm,
        (unsigned long long)i->cap_eff, (unsigned long long)i->cap_bnd,
        (unsigned long long)i->cap_amb, i->no_new_privs);
    add(t, "Cpus_allowed:\t%s\nCpus_allowed_list:\t%s\nMems_allowed:\t0001\nMems_allowed_list:\t0\n",
        hex, list);
}

/* do_task_stat(): 52 fields. Values emu does not record (fault counts,
 * start time, code and data bounds, the stack start, the environment) are 0. */
static void pid_stat(struct text *t, const struct vfs_task_info *i)
{
    int priority = i->prio - 100; /* task_prio(): -1 - rt_priority, 20 + nice, -101 */
    unsigned long long utime = i->runtime_ns / NS_PER_TICK;
    add(t, "%d (%s) %c %d %d %d 0 -1 0 0 0 0 0 %llu 0 0 0 %d %d %d 0 0 %llu %llu %llu", i->tid,
        i->comm, i->state, i->ppid, i->pgid, i->sid, utime, priority, i->nice, i->threads,
        (unsigned long long)i->vm_bytes, (unsigned long long)(i->vm_bytes / PAGE),
        (unsigned long long)UINT64_MAX);
    add(t, " 0 0 0 0 0 %llu %llu %llu %llu %d 0 0 %d %u %d %d 0 0 0",
        (unsigned long long)(i->sig_pending & 0x7fffffff),
        (unsigned long long)(i->sig_blocked & 0x7fffffff),
        (unsigned long long)(i->sig_ignored & 0x7fffffff),
        (unsigned long long)(i->sig_caught & 0x7fffffff), i->state == 'S', i->exit_signal, i->cpu,
        i->rt_priority, i->policy);
    if (i->has_mm)
        add(t, " 0 0 %llu %llu %llu 0 0", (unsigned long long)i->start_brk,
            (unsigned long long)i->arg_start, (unsigned long long)i->arg_end);
    else
        add(t, " 0 0 0 0 0 0 0");
    add(t, " %d\n", i->exit_code);
}

/* show_map_vma(): offset, device and inode of the file behind a mapping
 * (zeros for anonymous memory); a name starts after the line is padded to
 * 73 columns. */
static int pid_maps(struct text *t, struct vfs *v, void *ctx, int pid)
{
    struct vfs_vma m;
    int r;
    for (unsigned i = 0; (r = v->provider->vma(ctx, pid, i, &m)) > 0; i++) {
        size_t start = t->len;
        add(t, "%08llx-%08llx %c%c%c%c %08llx %02x:%02x %llu ", (unsigned long long)m.start,
            (unsigned long long)m.end, m.prot & 1 ? 'r' : '-', m.prot & 2 ? 'w' : '-',
            m.prot & 4 ? 'x' : '-', m.shared ? 's' : 'p', (unsigned long long)m.pgoff,
            m.dev_major, m.dev_minor,
            (unsigned long long)m.ino);
        if (m.name[0])
            add(t, "%*s %s", (int)(t->len - start < 72 ? 72 - (t->len - start) : 0), "", m.name);
        add(t, "\n");
    }
    return r;
}

/* Each vCPU's time: user while it ran guest slices, idle the rest. */
static void proc_stat(struct text *t, const struct vfs_cpus *c, const struct vfs_stats *s,
                      const struct vfs_provider *p, void *ctx)
{
    unsigned long long total = s->now_ns / NS_PER_TICK, user_all = 0, idle_all = 0;
    unsigned cpu;
    for_each_cpu(cpu, &c->online) {
        unsigned long long user = p->cpu_busy_ns(ctx, cpu) / NS_PER_TICK;
        user_all += user;
        idle_all += user < total ? total - user : 0;
    }
    add(t, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", user_all, idle_all);
    for_each_cpu(cpu, &c->online) {
        unsigned long long user = p->cpu_busy_ns(ctx, cpu) / NS_PER_TICK;
        add(t, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", cpu, user, user < total ? total - user : 0);
    }
    add(t,
        "intr 0\nctxt %llu\nbtime %llu\nprocesses %llu\nprocs_running %u\nprocs_blocked 0\n"
        "softirq 0 0 0 0 0 0 0 0 0 0 0\n",
        (unsigned long long)s->ctxt, (unsigned long long)s->boot_time, (unsigned long long)s->forks,
        s->nr_running);
}

static void meminfo(struct text *t, const struct vfs_task_info *self)
{
    unsigned long long total = self->vm_limit / 1024, used = self->vm_usable / 1024;
    unsigned long long free = total > used ? total - used : 0;
    const struct {
        const char *name;
        unsigned long long kb;
    } lines[] = {
        {"MemTotal:", total},
        {"MemFree:", free},
        {"MemAvailable:", free},
        {"Buffers:", 0},
        {"Cached:", 0},
        {"SwapCached:", 0},
        {"Active:", used},
        {"Inactive:", 0},
        {"Active(anon):", used},
        {"Inactive(anon):", 0},
        {"Active(file):", 0},
        {"Inactive(file):", 0},
        {"Unevictable:", 0},
        {"Mlocked:", 0},
        {"SwapTotal:", 0},
        {"SwapFree:", 0},
        {"Dirty:", 0},
        {"Writeback:", 0},
        {"AnonPages:", used},
        {"Mapped:", 0},
        {"Shmem:", 0},
        {"KReclaimable:", 0},
        {"Slab:", 0},
        {"SReclaimable:", 0},
        {"SUnreclaim:", 0},
        {"KernelStack:", 0},
        {"PageTables:", 0},
        {"NFS_Unstable:", 0},
        {"Bounce:", 0},
        {"WritebackTmp:", 0},
        {"CommitLimit:", total / 2},
        {"Committed_AS:", used},
        {"VmallocTotal:", 135290159040ull},
        {"VmallocUsed:", 0},
        {"VmallocChunk:", 0},
        {"Percpu:", 0},
        {"AnonHugePages:", 0},
        {"ShmemHugePages:", 0},
        {"ShmemPmdMapped:", 0},
        {"FileHugePages:", 0},
        {"FilePmdMapped:", 0},
    };
    for (size_t i = 0; i < COUNT(lines); i++)
        add(t, "%-16s%8llu kB\n", lines[i].name, lines[i].kb);
    add(t,
        "HugePages_Total:   %5u\nHugePages_Free:    %5u\nHugePages_Rsvd:    %5u\n"
        "HugePages_Surp:    %5u\nHugepagesize:   %8u kB\nHugetlb:        %8u kB\n",
        0u, 0u, 0u, 0u, 2048u, 0u);
}

/* node_read_meminfo() and hugetlb_report_node_meminfo() of node 0, the
 * whole machine: /proc/meminfo's values. */
static void node_meminfo(struct text *t, const struct vfs_task_info *self)
{
    unsigned long long total = self->vm_limit / 1024, used = self->vm_usable / 1024;
    unsigned long long free = total > used ? total - used : 0;
    const struct {
        const char *name;
        unsigned long long kb;
    } lines[] = {
        {"MemTotal:", total},      {"MemFree:", free},        {"MemUsed:", used},
        {"SwapCached:", 0},        {"Active:", used},         {"Inactive:", 0},
        {"Active(anon):", used},   {"Inactive(anon):", 0},    {"Active(file):", 0},
        {"Inactive(file):", 0},    {"Unevictable:", 0},       {"Mlocked:", 0},
        {"Dirty:", 0},             {"Writeback:", 0},         {"FilePages:", 0},
        {"Mapped:", 0},            {"AnonPages:", used},      {"Shmem:", 0},
        {"KernelStack:", 0},       {"PageTables:", 0},        {"NFS_Unstable:", 0},
        {"Bounce:", 0},            {"WritebackTmp:", 0},      {"KReclaimable:", 0},
        {"Slab:", 0},              {"SReclaimable:", 0},      {"SUnreclaim:", 0},
        {"AnonHugePages:", 0},     {"ShmemHugePages:", 0},    {"ShmemPmdMapped:", 0},
    };
    for (size_t i = 0; i < COUNT(lines); i++)
        add(t, "Node 0 %-16s%8llu kB\n", lines[i].name, lines[i].kb);
    /* the kernel's format gives these two one space less */
    add(t, "Node 0 FileHugePages: %8u kB\nNode 0 FilePmdMapped: %8u kB\n", 0u, 0u);
    add(t, "Node 0 HugePages_Total: %5u\nNode 0 HugePages_Free:  %5u\nNode 0 HugePages_Surp:  %5u\n",
        0u, 0u, 0u);
}

/* The cluster of a vCPU: a --soc or --cpu-model machine's from its cpu-map;
 * on a generic machine the 32-bit-capable ones are cluster 0, the others
 * cluster 1, and a machine of one kind is one cluster. */
static unsigned cluster_of(const struct vfs_cpus *c, unsigned cpu)
{
    if (c->layout && c->layout->custom)
        return c->layout->cluster[cpu];
    return cpumask_empty(&c->aarch32) || cpumask_test_cpu(cpu, &c->aarch32) ? 0 : 1;
}

static void topology(struct text *t, const struct vfs_cpus *c, unsigned cpu, enum file_id f)
{
    struct cpumask m;
    cpumask_clear(&m);
    switch (f) {
    case F_TOPO_CORE_ID: /* parse_core(): its index in its cluster */
        add(t, "%u\n", c->layout && c->layout->custom ? c->layout->core[cpu] : cpu);
        return;
    case F_TOPO_CLUSTER_ID:
        add(t, "%u\n", cluster_of(c, cpu));
        return;
    case F_TOPO_PACKAGE_ID:
        add(t, "0\n");
        return;
    case F_TOPO_THREAD:
    case F_TOPO_THREAD_LIST:
        cpumask_set_cpu(cpu, &m);
        break;
    case F_TOPO_CLUSTER:
    case F_TOPO_CLUSTER_LIST: {
        unsigned o;
        for_each_cpu(o, &c->online) if (cluster_of(c, o) == cluster_of(c, cpu))
            cpumask_set_cpu(o, &m);
        break;
    }
    default:
        m = c->online;
        break;
    }
    if (f == F_TOPO_THREAD || f == F_TOPO_CLUSTER || f == F_TOPO_PACKAGE)
        add_cpumask(t, &m, c->nr);
    else
        add_cpulist(t, &m);
}

/* A cpufreq policy file of the policy of cpu (drivers/cpufreq/cpufreq.c:
 * show_cpus() ends each CPU with a space, show_available_freqs() each
 * frequency). The CPUs run at their maximum until a governor is modelled. */
static void policy_file(struct text *t, const struct vfs_cpus *c, const struct vfs_provider *p,
                        void *ctx, unsigned cpu, enum file_id f)
{
    const struct cpu_layout *l = c->layout;
    const struct soc_domain *d = &l->soc->domains[l->domain[cpu]];
    switch (f) {
    case F_POLICY_AFFECTED:
    case F_POLICY_RELATED:
        for (unsigned o = 0; o < c->nr; o++)
            if (l->domain[o] == l->domain[cpu] &&
                (f == F_POLICY_RELATED || cpumask_test_cpu(o, &c->online)))
                add(t, "%u ", o);
        add(t, "\n");
        return;
    case F_POLICY_MAX:
        add(t, "%u\n", d->khz[d->nkhz - 1]);
        return;
    case F_POLICY_MIN:
        add(t, "%u\n", d->khz[0]);
        return;
    case F_POLICY_FREQS:
        for (unsigned i = 0; i < d->nkhz; i++)
            add(t, "%u ", d->khz[i]);
        add(t, "\n");
        return;
    case F_POLICY_CUR:
        add(t, "%u\n", p->cpu_cur_khz ? p->cpu_cur_khz(ctx, cpu) : d->khz[d->nkhz - 1]);
        return;
    case F_POLICY_DRIVER:
        add(t, "%s\n", l->soc->driver);
        return;
    case F_POLICY_GOVERNOR:
        add(t, "schedutil\n");
        return;
    default:
        add(t, "schedutil\n");
        return;
    }
}

/* pid_max at boot (pid_idr_init): 32768, or 1024 per possible CPU. */
static unsigned pid_max(unsigned nr_cpus)
{
    unsigned n = 1024 * nr_cpus;
    return n < 32768 ? 32768 : n > 4194304 ? 4194304 : n;
}

/* Files about one process or thread. */
static int generate_pid(struct vfs *v, void *ctx, const struct vfs_node *node, struct text *t,
                        const struct vfs_cpus *c, char **data, size_t *size)
{
    const struct vfs_provider *p = v->provider;
    struct vfs_task_info info;
    if (p->thread(ctx, node->arg, node->arg2, &info) < 0)
        return -ESRCH;
    switch (node->file) {
    case F_PID_COMM:
        add(t, "%s\n", info.comm);
        return 0;
    case F_PID_STATUS:
        pid_status(t, &info, c->nr);
        return 0;
    case F_PID_STAT:
        pid_stat(t, &info);
        return 0;
    case F_PID_PERSONALITY:
        add(t, "%08x\n", info.personality);
        return 0;
    case F_PID_CMDLINE:
        return p->argv(ctx, node->arg, data, size);
    case F_PID_AUXV:
        return p->auxv(ctx, node->arg, data, size);
    case F_PID_ENVIRON:
        return p->environ(ctx, node->arg, data, size);
    case F_PID_MOUNTS:
    case F_PID_MOUNTINFO:
        return vfs_mounts_text(v, node->file == F_PID_MOUNTINFO, data, size);
    case F_PID_CGROUP:
        return p->proc_cgroup ? p->proc_cgroup(ctx, node->arg, data, size) : -ENOENT;
    default:
        return pid_maps(t, v, ctx, node->arg);
    }
}

/* kernel/sched/features.h of Linux 5.15, in its order, with the defaults
 * of a kernel built as Debian's (SMP, no PREEMPT_RT: TTWU_QUEUE on,
 * RT_PUSH_IPI present). */
static const struct {
    const char *name;
    bool on;
} sched_feats[] = {
    {"GENTLE_FAIR_SLEEPERS", true}, {"START_DEBIT", true},      {"NEXT_BUDDY", false},
    {"LAST_BUDDY", true},           {"CACHE_HOT_BUDDY", true},  {"WAKEUP_PREEMPTION", true},
    {"HRTICK", false},              {"HRTICK_DL", false},       {"DOUBLE_TICK", false},
    {"NONTASK_CAPACITY", true},     {"TTWU_QUEUE", true},       {"SIS_PROP", true},
    {"WARN_DOUBLE_CLOCK", false},   {"RT_PUSH_IPI", true},      {"RT_RUNTIME_SHARE", false},
    {"LB_MIN", false},              {"ATTACH_AGE_LOAD", true},  {"WA_IDLE", true},
    {"WA_WEIGHT", true},            {"WA_BIAS", true},          {"UTIL_EST", true},
    {"UTIL_EST_FASTUP", true},      {"LATENCY_WARN", false},    {"ALT_PERIOD", true},
    {"BASE_SLICE", true},
};

static uint32_t sched_features_now(const struct vfs *v)
{
    if (v->sched_features_set)
        return v->sched_features;
    uint32_t bits = 0;
    for (size_t i = 0; i < COUNT(sched_feats); i++)
        bits |= (uint32_t)sched_feats[i].on << i;
    return bits;
}

/* sched_feat_show(): each name, NO_ before one that is off, a space after each. */
static void sched_features(struct text *t, const struct vfs *v)
{
    uint32_t bits = sched_features_now(v);
    for (size_t i = 0; i < COUNT(sched_feats); i++)
        add(t, "%s%s ", bits >> i & 1 ? "" : "NO_", sched_feats[i].name);
    add(t, "\n");
}

/* sched_feat_write(): at most 63 bytes, trailing white space cut, one
 * name, NO_ before it to clear it; -EINVAL for an unknown one. The flags
 * are only shown: asymu's scheduler has no such knobs. */
static int64_t sched_features_write(struct vfs *v, const char *data, size_t len)
{
    char buf[64];
    size_t n = len > 63 ? 63 : len;
    memcpy(buf, data, n);
    buf[n] = '\0';
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n' || buf[n - 1] == '\t'))
        buf[--n] = '\0';
    char *name = buf;
    while (*name == ' ' || *name == '\t' || *name == '\n')
        name++;
    bool neg = strncmp(name, "NO_", 3) == 0;
    name += neg ? 3 : 0;
    for (size_t i = 0; i < COUNT(sched_feats); i++) {
        if (strcmp(name, sched_feats[i].name) != 0)
            continue;
        uint32_t bits = sched_features_now(v);
        v->sched_features = neg ? bits & ~(UINT32_C(1) << i) : bits | UINT32_C(1) << i;
        v->sched_features_set = true;
        return (int64_t)len;
    }
    return -EINVAL;
}

int vfs_generate(struct vfs *v, void *ctx, const struct vfs_node *node, char **data, size_t *size)
{
    const struct vfs_provider *p = v->provider;
    struct text t = {0};
    struct vfs_cpus c;
    struct cpumask m;
    struct vfs_task_info self;
    struct vfs_stats s;
    unsigned cpu = (unsigned)node->arg;
    int err = 0;
    p->cpus(ctx, &c);
    switch (node->file) {
    case F_DEV_KMSG:
        return p->kmsg(ctx, data, size);
    case F_TRACEFS: {
        const char *rel = tracing_rel(node->path);
        return rel && p->tracefs_read ? p->tracefs_read(ctx, rel, data, size) : -ENOENT;
    }
    case F_SCHED_FEATURES:
        sched_features(&t, v);
        break;
    case F_PROC_KALLSYMS:
        /* The kernel functions trace records name by address
         * (trace/trace_ring.c's trace_kallsyms, the same lines): trace-cmd
         * record copies this file so that report prints print events as
         * "tracing_mark_write: TEXT". */
        add(&t, "ffff8000100a2000 T sched_cpu_activate\n"
                "ffff8000100a2100 T sched_cpu_deactivate\n"
                "ffff8000101c0000 T tracing_mark_write\n");
        break;
    case F_CGROUP: {
        unsigned hier;
        const char *rel = vfs_cgroup_rel(v, node->path, &hier);
        return rel ? p->cgroup_read(ctx, hier, rel, data, size) : -ENOENT;
    }
    case F_PROC_NET:
        return p->net ? p->net(ctx, strrchr(node->path, '/') + 1, data, size) : -ENOENT;
    case F_PROC_SYSVIPC:
        return p->sysvipc ? p->sysvipc(ctx, node->path + strlen("/proc/"), data, size) : -ENOENT;
    case F_SYSCTL_LIMIT:
        return p->sysctl_read ? p->sysctl_read(ctx, node->path + strlen("/proc/sys/"), data, size)
                              : -ENOENT;
    case F_PID_CMDLINE:
    case F_PID_AUXV:
    case F_PID_ENVIRON:
    case F_PID_COMM:
    case F_PID_MAPS:
    case F_PID_MOUNTS:
    case F_PID_MOUNTINFO:
    case F_PID_CGROUP:
    case F_PID_PERSONALITY:
    case F_PID_STAT:
    case F_PID_STATUS:
        *data = NULL;
        err = generate_pid(v, ctx, node, &t, &c, data, size);
        if (*data)
            return err;
        break;
    case F_PROC_CPUINFO: {
        bool linux32 = p->task(ctx, p->self_pid(ctx), &self) == 0 &&
                       (self.personality & PER_MASK) == PER_LINUX32;
        cpuinfo(&t, &c, linux32);
        break;
    }
    case F_PROC_CMDLINE:
        add(&t, "%s\n", p->cmdline(ctx));
        break;
    case F_PROC_STAT:
        p->stats(ctx, &s);
        proc_stat(&t, &c, &s, p, ctx);
        break;
    case F_PROC_UPTIME: {
        p->stats(ctx, &s);
        uint64_t idle = s.now_ns * c.nr;
        add(&t, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(s.now_ns / 1000000000u),
            (unsigned long long)(s.now_ns % 1000000000u / 10000000u),
            (unsigned long long)(idle / 1000000000u),
            (unsigned long long)(idle % 1000000000u / 10000000u));
        break;
    }
    case F_PROC_LOADAVG:
        p->stats(ctx, &s);
        add(&t, "0.00 0.00 0.00 %u/%u %d\n", s.nr_running, s.nr_threads, s.last_pid);
        break;
    case F_PROC_MEMINFO:
        err = p->task(ctx, p->self_pid(ctx), &self);
        if (err == 0)
            meminfo(&t, &self);
        break;
    case F_PROC_FILESYSTEMS:
        /* "nodev" marks a type that needs no block device */
        for (unsigned i = 0; i < VFS_FS_TYPES; i++)
            add(&t, "%s\t%s\n", vfs_fs_types[i].nodev ? "nodev" : "", vfs_fs_types[i].name);
        break;
    case F_PROC_VERSION:
        add(&t, "Linux version %s (asymu@asymu) (asymu) %s\n", p->release(ctx), p->version(ctx));
        break;
    case F_SYSCTL_OSRELEASE:
        add(&t, "%s\n", p->release(ctx));
        break;
    case F_SYSCTL_OSTYPE:
        add(&t, "Linux\n");
        break;
    case F_SYSCTL_VERSION:
        add(&t, "%s\n", p->version(ctx));
        break;
    case F_SYSCTL_PID_MAX:
        add(&t, "%u\n", pid_max(c.nr));
        break;
    case F_SYSCTL_NGROUPS_MAX:
        add(&t, "65536\n");
        break;
    case F_SYSCTL_OVERCOMMIT:
        add(&t, "0\n");
        break;
    case F_SYSCTL_MODULES_DISABLED:
    case F_SYSCTL_KEXEC_DISABLED:
        add(&t, "1\n");
        break;
    case F_SYSCTL_PERF_PARANOID:
        add(&t, "3\n"); /* Debian's level: no perf_event_open without CAP_PERFMON */
        break;
    case F_SYSCTL_BPF_DISABLED:
        add(&t, "2\n");
        break;
    case F_SYSCTL_UFFD:
        add(&t, "0\n");
        break;
    case F_SYSCTL_MAX_MAP_COUNT:
        /* Linux's DEFAULT_MAX_MAP_COUNT; emu/mm/mm.c allows fewer (see there). */
        add(&t, "65530\n");
        break;
    case F_CPU_POSSIBLE:
    case F_CPU_PRESENT:
        cpumask_setall(&m, c.nr);
        add_cpulist(&t, &m);
        break;
    case F_CPU_ONLINE:
        add_cpulist(&t, &c.online);
        break;
    case F_CPU_OFFLINE: {
        struct cpumask all;
        cpumask_setall(&all, c.nr);
        cpumask_andnot(&m, &all, &c.online);
        add_cpulist(&t, &m);
        break;
    }
    case F_CPU_KERNEL_MAX:
        add(&t, "%d\n", NR_CPUS_MAX - 1);
        break;
    case F_CPU_ISOLATED:
        add(&t, "\n");
        break;
    case F_CPU_AARCH32_EL0:
        add_cpulist(&t, &c.aarch32);
        break;
    case F_CPUN_ONLINE:
        add(&t, "%d\n", cpumask_test_cpu(cpu, &c.online) ? 1 : 0);
        break;
    case F_CPUN_CAPACITY:
        add(&t, "%u\n", p->cpu_capacity(ctx, cpu));
        break;
    case F_CPUN_MIDR:
        add(&t, "0x%016x\n", midr_of(&c, cpu));
        break;
    case F_CPUN_REVIDR:
        add(&t, "0x%016x\n", 0u);
        break;
    case F_TOPO_CORE_ID:
    case F_TOPO_CLUSTER_ID:
    case F_TOPO_PACKAGE_ID:
    case F_TOPO_THREAD:
    case F_TOPO_THREAD_LIST:
    case F_TOPO_CLUSTER:
    case F_TOPO_CLUSTER_LIST:
    case F_TOPO_PACKAGE:
    case F_TOPO_PACKAGE_LIST:
        topology(&t, &c, cpu, (enum file_id)node->file);
        break;
    case F_POLICY_AFFECTED:
    case F_POLICY_RELATED:
    case F_POLICY_MAX:
    case F_POLICY_MIN:
    case F_POLICY_FREQS:
    case F_POLICY_CUR:
    case F_POLICY_DRIVER:
    case F_POLICY_GOVERNOR:
    case F_POLICY_GOVERNORS:
        policy_file(&t, &c, p, ctx, cpu, (enum file_id)node->file);
        break;
    case F_NODE_LIST:
        add(&t, "0\n");
        break;
    case F_NODE_CPUMAP: /* node_read_cpumap(): the node's online CPUs */
        add_cpumask(&t, &c.online, c.nr);
        break;
    case F_NODE_CPULIST:
        add_cpulist(&t, &c.online);
        break;
    case F_NODE_DISTANCE:
        add(&t, "10\n"); /* LOCAL_DISTANCE */
        break;
    case F_NODE_MEMINFO:
        err = p->task(ctx, p->self_pid(ctx), &self);
        if (err == 0)
            node_meminfo(&t, &self);
        break;
    case F_THP_ENABLED:
        add(&t, "always [madvise] never\n");
        break;
    case F_THP_DEFRAG:
        add(&t, "always defer defer+madvise [madvise] never\n");
        break;
    case F_THP_PMD_SIZE:
        add(&t, "2097152\n");
        break;
    case F_THP_ZERO_PAGE:
        add(&t, "1\n");
        break;
    case F_THP_SHMEM:
        add(&t, "always within_size advise [never] deny force\n");
        break;
    default:
        return -EINVAL;
    }
    if (t.failed || err < 0) {
        free(t.buf);
        return t.failed ? -ENOMEM : err;
    }
    *data = t.buf ? t.buf : calloc(1, 1);
    *size = t.len;
    return *data ? 0 : -ENOMEM;
}

void vfs_truncate_virtual(struct vfs *v, void *ctx, const struct vfs_node *node)
{
    const char *rel = tracing_rel(node->path);
    if (node->file == F_TRACEFS && rel && v->provider->tracefs_truncate)
        v->provider->tracefs_truncate(ctx, rel);
}

/* strtobool() as 5.15's online_store() calls it: the first character
 * decides (1 y Y on, 0 n N off); o or O needs a second one, n N (on) or f F
 * (off); whatever follows is ignored. -EINVAL otherwise. */
static int parse_strtobool(const char *s, size_t len, bool *out)
{
    switch (s[0]) {
    case '1':
    case 'y':
    case 'Y':
        *out = true;
        return 0;
    case '0':
    case 'n':
    case 'N':
        *out = false;
        return 0;
    case 'o':
    case 'O':
        if (len < 2)
            return -EINVAL;
        if (s[1] == 'n' || s[1] == 'N') {
            *out = true;
            return 0;
        }
        if (s[1] == 'f' || s[1] == 'F') {
            *out = false;
            return 0;
        }
        return -EINVAL;
    default:
        return -EINVAL;
    }
}

int64_t vfs_write_virtual(struct vfs *v, void *ctx, const struct vfs_node *node, const char *data,
                          size_t len, uint64_t pos)
{
    switch (node->file) {
    case F_DEV_FULL:
        return -ENOSPC;
    case F_SYSCTL_LIMIT:
        /* aio-nr: a count, never written (the guest's open, the scenario
         * and the FUSE export check the mode before; fuzz-sysfs does not) */
        if (!v->provider->sysctl_write || !(node->mode & 0200))
            return -EACCES;
        return v->provider->sysctl_write(ctx, node->path + strlen("/proc/sys/"), data, len, pos);
    case F_TRACEFS: {
        const char *rel = tracing_rel(node->path);
        return rel && v->provider->tracefs_write ? v->provider->tracefs_write(ctx, rel, data, len)
                                                 : -EACCES;
    }
    case F_SCHED_FEATURES:
        return sched_features_write(v, data, len);
    case F_CPUN_ONLINE:
        break;
    case F_CGROUP: {
        unsigned hier;
        const char *rel = vfs_cgroup_rel(v, node->path, &hier);
        return rel ? v->provider->cgroup_write(ctx, hier, rel, data, len) : -ENOENT;
    }
    case F_PID_COMM: {
        int err = v->provider->set_comm(ctx, node->arg, node->arg2, data, len);
        return err < 0 ? err : (int64_t)len;
    }
    default:
        return node->kind == VNODE_GENERATED && (node->mode & 0200) ? (int64_t)len : -EACCES;
    }
    if (len == 0)
        return 0; /* sysfs_kf_write() does not call the store for nothing */
    bool online;
    if (parse_strtobool(data, len, &online) < 0)
        return -EINVAL;
    int err = v->provider->set_cpu_online(ctx, (unsigned)node->arg, online);
    return err < 0 ? err : (int64_t)len;
}
