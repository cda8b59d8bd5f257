/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfs.h - the public interface of sysfs-fs/: the guest's file namespace.
 * "/" is a host directory (--sysroot) to which every lookup stays confined;
 * /dev, /proc and /sys are virtual and come from kernel state through a
 * provider that emu/ fills in. */
#ifndef ASYMU_VFS_H
#define ASYMU_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define VFS_PATH_MAX 4096

#include "budget.h"
#include "cpu_model.h"
#include "cpumask.h"

enum vfs_node_kind {
    VNODE_DIR,
    VNODE_NULL,      /* /dev/null */
    VNODE_ZERO,      /* /dev/zero */
    VNODE_RANDOM,    /* /dev/urandom, /dev/random: seeded */
    VNODE_GENERATED, /* content made at open (tree.c); writable ones take writes */
    VNODE_SYMLINK,   /* target made by tree.c */
    VNODE_FULL,      /* /dev/full: reads zeros, writes fail with ENOSPC */
    VNODE_CONSOLE,   /* /dev/tty, /dev/console: the emulator's stdin and stdout */
    VNODE_PTMX,      /* /dev/ptmx: opening makes a pseudo-terminal pair (emu/drivers/pty.c) */
    VNODE_KVM,       /* /dev/kvm: opening gives the KVM system file (emu/drivers/kvm.c) */
    VNODE_PTS,       /* /dev/pts/N: the slave of pair N (arg) */
    VNODE_MEM,       /* /proc/PID/mem: process arg's memory at the file offset (emu/kernel/procmem.c) */
    VNODE_MQUEUE,    /* a queue of an mqueue mount: opening gives its mq descriptor (emu/ipc/mqueue.c) */
};

/* A node of the virtual trees, by value: which file it is and for what. */
struct vfs_node {
    char path[384];          /* absolute guest path, "/sys/devices/system/cpu/cpu2/online";
                                room for /dev/mqueue/ and a NAME_MAX queue name */
    enum vfs_node_kind kind;
    unsigned mode;           /* permission bits */
    int file;                /* tree.c's id of the file */
    int arg;                 /* its cpu number or pid */
    int arg2;                /* a thread id or fd number below /proc/PID */
    bool records;            /* a read returns one line, whole (/dev/kmsg) */
    bool pages;              /* a read returns at most the rest of a 4 KiB page (trace_pipe_raw) */
    bool pipe;               /* trace_pipe: its text is taken out of the buffer as read */
    bool sysctl;             /* a number of /proc/sys: made at each read, which gives
                                nothing past position 0, and a write moves the position
                                (proc_sys_call_handler) */
};

/* The vCPUs as the kernel reports them. */
struct vfs_cpus {
    unsigned nr;             /* possible = present = 0..nr-1 */
    struct cpumask online;
    struct cpumask aarch32;  /* M */
    bool aarch32_file;       /* allow_mismatched_32bit_el0 is on the command line */
    bool kvm;                /* /dev/kvm exists (not --no-kvm) */
    uint64_t hwcap, hwcap2;  /* AT_HWCAP, AT_HWCAP2 of a 64-bit task */
    uint32_t compat_hwcap, compat_hwcap2; /* the same for a 32-bit task */
    const struct cpu_layout *layout; /* core types, clusters, cpufreq; NULL: generic */
};

/* One process (its main thread) for /proc/PID, or one thread for
 * /proc/PID/task/TID. */
struct vfs_task_info {
    int pid, ppid, threads;
    int tracer_pid;          /* the pid of its ptrace tracer, 0 if none */
    char state;              /* 'R', 'S', 'T', 'Z' */
    char comm[16];
    struct cpumask allowed;  /* its affinity (the main thread's for a process) */
    unsigned cpu;            /* where it last ran */
    bool compat;             /* a 32-bit image */
    int tid;                 /* the thread (the pid for a process) */
    int pgid, sid;
    unsigned personality;    /* personality(2): PER_LINUX32 is 0x0008 */
    int nice, policy, rt_priority;
    int prio; /* the kernel's p->prio, a PI boost included (task_prio() + 100) */
    int exit_signal;         /* sent to the parent at exit */
    int exit_code;           /* wait(2) status of a zombie, else 0 */
    uint64_t runtime_ns;     /* virtual CPU time (every thread's, for a process) */
    uint64_t sig_pending, sig_blocked, sig_ignored, sig_caught; /* bit N-1: signal N */
    bool has_mm;             /* false for a zombie */
    uint64_t vm_bytes;       /* mapped bytes */
    uint64_t vm_locked;      /* of them, mlock'ed (VmLck) */
    uint64_t vm_usable;      /* of them, bytes not PROT_NONE */
    uint64_t vm_limit;       /* --max-mem or the ISA's default: bounds vm_usable */
    uint64_t start_brk;      /* where the heap starts */
    uint64_t arg_start, arg_end; /* its argv strings, 0 when unknown */
    uint32_t uid[4], gid[4]; /* real, effective, saved, file-system ids */
    unsigned ngroups;        /* supplementary groups, sorted ... */
    const uint32_t *groups;  /* ... valid while the caller generates the file */
    uint64_t cap_inh, cap_prm, cap_eff, cap_bnd, cap_amb; /* capability sets */
    bool no_new_privs;
    unsigned umask;
};

/* One mapping of /proc/PID/maps. */
struct vfs_vma {
    uint64_t start, end;
    int prot;                /* PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4 */
    uint64_t pgoff;          /* file offset of start, 0 for anonymous memory */
    unsigned dev_major, dev_minor;
    uint64_t ino;
    bool shared;             /* MAP_SHARED: 's' in /proc/PID/maps, else 'p' */
    char name[VFS_PATH_MAX]; /* the file, "[heap]", "[stack]", "[vectors]"... or "" */
};

/* Machine-wide numbers for /proc/stat, uptime, loadavg and meminfo. */
struct vfs_stats {
    uint64_t now_ns;         /* virtual time since boot */
    uint64_t boot_time;      /* the guest's wall clock at boot, seconds since the epoch */
    unsigned nr_running;     /* runnable threads */
    unsigned nr_threads;     /* live threads */
    int last_pid;            /* the pid or tid allocated last */
    uint64_t forks;          /* threads and processes created since boot */
    uint64_t ctxt;           /* context switches on every vCPU */
};

/* What the kernel layer provides to the virtual trees. ctx is the calling
 * task; the VFS never looks inside it. Every function returns 0 or a
 * negative errno unless it says otherwise. */
struct vfs_provider {
    void (*cpus)(void *ctx, struct vfs_cpus *out);
    /* Hotplug through cpuN/online: -EPERM, -EBUSY, -EINVAL as the kernel. */
    int (*set_cpu_online)(void *ctx, unsigned cpu, bool online);
    /* A write of /proc/PID/comm (tid = pid) or /proc/PID/task/TID/comm. */
    int (*set_comm)(void *ctx, int pid, int tid, const char *data, size_t len);
    int (*self_pid)(void *ctx);
    int (*self_tid)(void *ctx);
    /* The first pid greater than `after`, or -1: lists /proc. */
    int (*next_pid)(void *ctx, int after);
    int (*task)(void *ctx, int pid, struct vfs_task_info *out);
    /* /proc/PID/exe: the guest path of its image; length or -errno. */
    int (*exe)(void *ctx, int pid, char *buf, size_t len);
    /* /proc/PID/cwd: its working directory; length or -errno. */
    int (*cwd)(void *ctx, int pid, char *buf, size_t len);
    /* /proc/PID/root: its root directory (chroot(2)), a canonical guest
     * path, "/" for none; pid 0 is the caller's process. Length or -errno.
     * NULL: every process's root is "/". */
    int (*root)(void *ctx, int pid, char *buf, size_t len);
    /* The kernel command line and the kernel log as /dev/kmsg records
     * (malloc'ed text, caller frees). */
    const char *(*cmdline)(void *ctx);
    int (*kmsg)(void *ctx, char **data, size_t *size);
    /* One thread of process pid (tid == pid: the main thread), with the
     * process's numbers where the kernel shows those (-ENOENT if none). */
    int (*thread)(void *ctx, int pid, int tid, struct vfs_task_info *out);
    /* The first thread id of pid greater than `after` (live threads, and
     * the main thread until the process is reaped), or -1. */
    int (*next_tid)(void *ctx, int pid, int after);
    /* The argv strings of pid as its memory holds them now (malloc'ed). */
    int (*argv)(void *ctx, int pid, char **data, size_t *size);
    /* /proc/PID/auxv: the raw auxiliary vector (malloc'ed, caller frees). */
    int (*auxv)(void *ctx, int pid, char **data, size_t *size);
    /* /proc/PID/environ: the environment strings, NUL-separated. */
    int (*environ)(void *ctx, int pid, char **data, size_t *size);
    /* The first open fd of pid greater than `after`, or -1. */
    int (*next_fd)(void *ctx, int pid, int after);
    /* What fd of pid is open on ("/etc/passwd", "pipe:[7]"), its length or
     * -errno; *accmode is its O_ACCMODE. */
    int (*fd)(void *ctx, int pid, int fd, char *buf, size_t len, int *accmode);
    /* The index-th mapping of pid: 1, 0 past the last, or -errno. */
    int (*vma)(void *ctx, int pid, unsigned index, struct vfs_vma *out);
    void (*stats)(void *ctx, struct vfs_stats *out);
    /* cpu_capacity of a vCPU, 1..1024. */
    unsigned (*cpu_capacity)(void *ctx, unsigned cpu);
    /* /proc/net/NAME (tcp, tcp6, udp, udp6, unix): malloc'ed text. */
    int (*net)(void *ctx, const char *name, char **data, size_t *size);
    /* /proc/sysvipc/{sem,msg,shm} and /proc/sys/kernel's IPC limits: name
     * is the path under /proc ("sysvipc/sem"); malloc'ed text. */
    int (*sysvipc)(void *ctx, const char *name, char **data, size_t *size);
    /* The IPC, keys, AIO and inotify numbers of /proc/sys and
     * kernel/sched_rt_{period,runtime}_us: name is the path
     * under /proc/sys ("fs/mqueue/msg_max"). The text (malloc'ed), and a
     * write of len bytes at file position pos: the bytes taken or -errno
     * (who may write is the caller's check). */
    int (*sysctl_read)(void *ctx, const char *name, char **data, size_t *size);
    int64_t (*sysctl_write)(void *ctx, const char *name, const char *data, size_t len,
                            uint64_t pos);
    /* The kernel's release and version strings, as uname(2) gives them. */
    const char *(*release)(void *ctx);
    const char *(*version)(void *ctx);
    /* Virtual time a vCPU has spent running guest slices. */
    uint64_t (*cpu_busy_ns)(void *ctx, unsigned cpu);
    /* The first pseudo-terminal index greater than `after`, or -1: lists /dev/pts. */
    int (*next_pty)(void *ctx, int after);
    /* scaling_cur_freq of a vCPU in kHz (NULL: its maximum). */
    uint32_t (*cpu_cur_khz)(void *ctx, unsigned cpu);
    /* tracefs, at /sys/kernel/tracing and /sys/kernel/debug/tracing
     * (trace/tracefs.h): rel is the path below the tracing directory. */
    int (*tracefs_lookup)(void *ctx, const char *rel, unsigned *mode, bool *dir);
    int (*tracefs_list)(void *ctx, const char *rel,
                        void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
    int (*tracefs_read)(void *ctx, const char *rel, char **data, size_t *size);
    int64_t (*tracefs_write)(void *ctx, const char *rel, const char *data, size_t len);
    void (*tracefs_truncate)(void *ctx, const char *rel);
    /* mkdir (make) or rmdir of rel: 0 or -errno (tracefs_mkdir()). */
    int (*tracefs_dir)(void *ctx, const char *rel, bool make);
    /* The cgroup hierarchies: hier 0 is v2's at VFS_CGROUP_MOUNT, the others
     * v1 ones mount(2) made; rel is the path under a mount ("" the mount,
     * "top-app/cpuset.cpus"): a node (1, or -ENOENT), a directory's
     * entries, a file's text (malloc'ed) and a write (bytes taken or
     * -errno). /proc/PID/cgroup's text. NULL: no cgroups. */
    int (*cgroup_node)(void *ctx, unsigned hier, const char *rel, bool *dir, unsigned *mode);
    int (*cgroup_list)(void *ctx, unsigned hier, const char *rel,
                       void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
    int (*cgroup_read)(void *ctx, unsigned hier, const char *rel, char **data, size_t *size);
    int64_t (*cgroup_write)(void *ctx, unsigned hier, const char *rel, const char *data,
                            size_t len);
    int (*proc_cgroup)(void *ctx, int pid, char **data, size_t *size);
    /* The POSIX message queues every mqueue mount shows (one IPC namespace
     * per machine): a queue's inode by name, without '/' (-ENOENT), and the
     * names. NULL: no mqueue file system. */
    int (*mqueue_stat)(void *ctx, const char *name, struct stat *st);
    int (*mqueue_list)(void *ctx, void (*emit)(const char *name, unsigned char type, void *arg),
                       void *arg);
};

#define VFS_CGROUP_MOUNT "/sys/fs/cgroup"
#define VFS_CGROUP_MOUNTS 4
struct vfs;
/* The path under a cgroup mount (VFS_CGROUP_MOUNT or one of mount(2)'s) of
 * abspath ("" the mount itself) and, when hier is not NULL, the mount's
 * hierarchy; NULL when abspath is in none. */
const char *vfs_cgroup_rel(const struct vfs *v, const char *abspath, unsigned *hier);
/* The path below /sys/kernel/tracing or /sys/kernel/debug/tracing of
 * abspath ("" the directory itself), or NULL when it is in neither. */
const char *vfs_tracefs_rel(const char *abspath);
/* mount(2) of a cgroup hierarchy (hier; 0 v2's, as Linux shows one cgroup2
 * hierarchy at every mount) at DIR (an existing directory, absolute and
 * canonical): type "cgroup2" or "cgroup", its options as /proc/self/mounts
 * shows them after "rw,relatime" ("" or ",cpuset,noprefix"). 0, -EBUSY
 * (already a mount point), -ENOSPC (VFS_CGROUP_MOUNTS of them).
 * vfs_cgroup_umount: the hierarchy that was there, or -EINVAL. */
int vfs_cgroup_mount(struct vfs *v, const char *source, const char *dir, unsigned hier,
                     const char *type, const char *options);
int vfs_cgroup_umount(struct vfs *v, const char *dir);

/* The mqueue file system (Linux's ipc/mqueue.c): at VFS_MQUEUE_MOUNT from
 * boot, as systemd mounts it on Debian, and where mount(2) puts more; all
 * show the one namespace's queues. vfs_mqueue_rel: the name under a mount
 * of abspath ("" the mount itself), NULL when it is in none. mount: DIR
 * absolute and canonical, flags the mount's as /proc/self/mounts shows them
 * after rw or ro ("relatime", "nosuid,nodev,noexec,relatime"), readonly
 * MS_RDONLY's; 0, -EBUSY, -ENOSPC, -ENAMETOOLONG. umount: 0 or -EINVAL.
 * vfs_mqueue_readonly: abspath lies in a read-only mqueue mount. */
#define VFS_MQUEUE_MOUNT "/dev/mqueue"
#define VFS_MQUEUE_MOUNTS 4
#define VFS_MQUEUE_DEV 0x13 /* its anonymous device, 0:19 */
const char *vfs_mqueue_rel(const struct vfs *v, const char *abspath);
int vfs_mqueue_mount(struct vfs *v, const char *source, const char *dir, const char *flags,
                     bool readonly);
bool vfs_mqueue_readonly(const struct vfs *v, const char *abspath);
/* The flags of the mqueue mount holding abspath ("" if none), as mount gave them. */
const char *vfs_mqueue_flags(const struct vfs *v, const char *abspath);
int vfs_mqueue_umount(struct vfs *v, const char *dir);

#define VFS_MAX_BANNED_DEVS 16

/* A host directory mounted in the guest tree. */
struct vfs_mount {
    const char *prefix; /* "/", "/tmp", "/dev/shm" or VFS_PROGRAMS_DIR */
    int fd;             /* O_PATH directory, or -1 */
    bool writable;
    struct vfs_budget *budget; /* its size limit, or NULL */
};

/* The private mounts (TMP, SHM) are fresh host directories made for the
 * run, always writable, sharing one size limit (--tmp-size). PROGRAMS, a
 * scenario's programs (vfs_mount_programs), is a fresh host directory too,
 * read-only for the guest, and absent (fd -1) in other runs. */
enum { VFS_MOUNT_ROOT, VFS_MOUNT_TMP, VFS_MOUNT_SHM, VFS_MOUNT_PROGRAMS, VFS_NMOUNTS };

/* Where a scenario's programs appear in the guest, whatever their host
 * directory: their paths (argv[0], AT_EXECFN) are then the same on every
 * machine, and so is virtual time (docs/scenarios.md, "Programs"). */
#define VFS_PROGRAMS_DIR "/.asymu/programs"

struct vfs {
    struct vfs_mount mounts[VFS_NMOUNTS];
    int lib_fd;  /* O_PATH directory for -L, or -1 */
    int self_fds; /* O_PATH /proc/self/fd: a host fd's link, read
                     (readlink) or opened again (vfs_reopen), never
                     changed through a path (docs/security.md) */
    char tmp_path[VFS_PATH_MAX]; /* host directory behind /tmp */
    char shm_path[VFS_PATH_MAX]; /* host directory behind /dev/shm */
    char programs_path[VFS_PATH_MAX]; /* host directory behind VFS_PROGRAMS_DIR, or "" */
    /* their canonical host paths */
    char root_real[VFS_PATH_MAX], tmp_real[VFS_PATH_MAX], shm_real[VFS_PATH_MAX];
    char programs_real[VFS_PATH_MAX];
    bool keep_tmp;
    dev_t banned[VFS_MAX_BANNED_DEVS]; /* host pseudo filesystems never shown */
    unsigned nbanned;
    const struct vfs_provider *provider;
    struct vfs_budget tmp_budget; /* --tmp-size: /tmp and /dev/shm together */
    /* cgroup2 mounted by the guest (mount(2)), besides VFS_CGROUP_MOUNT */
    struct vfs_cgroup_mount {
        char dir[VFS_PATH_MAX];
        char source[64];
        char type[8];
        char options[128];
        unsigned hier;
    } cgroup_mounts[VFS_CGROUP_MOUNTS];
    unsigned ncgroup_mounts;
    /* mqueue mounted by the guest (mount(2)); VFS_MQUEUE_MOUNT's is there
     * until the guest unmounts it (mqueue_dev_gone) */
    struct vfs_mqueue_mount {
        char dir[VFS_PATH_MAX];
        char source[64];
        char flags[64];
        bool readonly;
    } mqueue_mounts[VFS_MQUEUE_MOUNTS];
    unsigned nmqueue_mounts;
    bool mqueue_dev_gone;
    /* The host directories of /tmp and /dev/shm are 0700 so that no other
     * host user reaches the guest's files (issue 24, item 6); the guest
     * sees, and changes, the mode kept here (01777 at start, as a tmpfs
     * mounted with mode=1777). */
    struct vfs_private_root {
        dev_t dev;
        ino_t ino;
        mode_t mode;
    } private_roots[2];
    /* /sys/kernel/debug/sched/features: bit i set when feature i is on. */
    uint32_t sched_features;
    bool sched_features_set;
};

/* st describes a host file: when it is the directory behind /tmp or
 * /dev/shm, its mode becomes the one the guest sees. */
void vfs_private_root_stat(const struct vfs *v, struct stat *st);
/* chmod of the host file st describes: true when it is the directory behind
 * /tmp or /dev/shm, whose guest-visible mode is now mode (its host mode
 * stays 0700). */
bool vfs_private_root_chmod(struct vfs *v, const struct stat *st, mode_t mode);

struct vfs_options {
    const char *sysroot;   /* guest "/" */
    bool rw;               /* the root is writable (--rw) */
    const char *libprefix; /* -L, or NULL */
    bool keep_tmp;         /* leave /tmp's host directory at exit (--keep-tmp) */
    uint64_t tmp_size;     /* /tmp's size limit (--tmp-size), 0: budget_default */
};

/* Opens the guest root and the -L prefix, and makes private host directories
 * for /tmp and /dev/shm. Returns 0, or a negative errno with a reason naming the directory. */
int vfs_init(struct vfs *v, const struct vfs_options *o, const struct vfs_provider *provider,
             char *why, size_t whylen);
/* Makes the read-only mount VFS_PROGRAMS_DIR over a fresh, empty host
 * directory (programs_path), which the caller fills before the guest runs.
 * 0, or a negative errno with a reason. */
int vfs_mount_programs(struct vfs *v, char *why, size_t whylen);
/* Closes everything and removes the private directories unless kept (the
 * programs' always). */
void vfs_destroy(struct vfs *v);
/* The size limit of the mount holding abspath, or NULL if it has none. */
struct vfs_budget *vfs_budget_of(struct vfs *v, const char *abspath);
/* The VFS_MOUNT_* holding the host-backed abspath. */
int vfs_mount_index(const struct vfs *v, const char *abspath);
/* The file system types of the machine (/proc/filesystems, sysfs(2)), in
 * the order a Debian kernel registers them: those of the guest's mounts
 * and what mount(2) takes, then the disk file system of a root. */
struct vfs_fs_type {
    const char *name;
    bool nodev;
};
#define VFS_FS_TYPES 12u
extern const struct vfs_fs_type vfs_fs_types[VFS_FS_TYPES];

/* /proc/PID/mounts (mountinfo false) or /proc/PID/mountinfo: the guest's
 * own mounts (mounts.c), malloc'ed text. */
int vfs_mounts_text(struct vfs *v, bool mountinfo, char **data, size_t *size);

/* The directory fd and last component for an operation on abspath itself
 * (mkdir, unlink, rename, symlink...): the parent is opened confined to its
 * mount. Returns the parent fd (close it) or a negative errno; -EROFS when
 * `write` and the mount is read-only. */
int vfs_parent(struct vfs *v, const char *abspath, bool write, char *name, size_t namelen);

/* Joins cwd and path and normalises the result lexically ("//", ".", "..");
 * out is an absolute guest path. -ENAMETOOLONG, -ENOENT for "". */
int vfs_join(const char *cwd, const char *path, char *out, size_t len);

/* Resolves path (relative to cwd unless absolute, which starts at the
 * calling process's root, provider->root) as the kernel walks it:
 * ".." after a symlink goes to the parent of the link's target (host paths
 * are canonicalised through the host), and symlinks of the virtual trees in
 * the middle of a path (/proc/self/root/...) are followed. The last
 * component is left as it is. out is an absolute normalised guest path. */
int vfs_resolve(struct vfs *v, void *ctx, const char *cwd, const char *path, char *out,
                size_t len);

/* openat2's RESOLVE_* bits (include/uapi/linux/openat2.h), which the walk
 * applies as fs/namei.c does the LOOKUP_* flags build_open_flags() makes of
 * them. */
#define VFS_RESOLVE_NO_XDEV 0x01
#define VFS_RESOLVE_NO_MAGICLINKS 0x02
#define VFS_RESOLVE_NO_SYMLINKS 0x04
#define VFS_RESOLVE_BENEATH 0x08
#define VFS_RESOLVE_IN_ROOT 0x10
#define VFS_RESOLVE_CACHED 0x20
#define VFS_RESOLVE_ALL 0x3f
#define VFS_RESOLVE_SCOPED (VFS_RESOLVE_BENEATH | VFS_RESOLVE_IN_ROOT)

/* A lookup with openat2's rules: start is the directory a relative path
 * starts at (the cwd or the dirfd's path) and, under BENEATH or IN_ROOT,
 * the root of the lookup; follow_last follows a symlink at the end (no
 * O_NOFOLLOW), except a magic link (vfs_is_magic_link), which is left at
 * the end of out for the open to reopen. Errors as path_openat() gives
 * them: EXDEV (a mount crossed under NO_XDEV, an escape under BENEATH, a
 * magic link under a scope), ELOOP (NO_SYMLINKS, NO_MAGICLINKS), EAGAIN
 * (CACHED across a magic link), ENOENT, ENOTDIR. Every symlink, the root's
 * included, is then read by the walk itself, so the rules hold for all of
 * them. */
int vfs_resolve_how(struct vfs *v, void *ctx, const char *start, const char *path,
                    unsigned resolve, bool follow_last, char *out, size_t len);

/* path (a guest path) as a process whose root is root names it: true and
 * the path below root ("/" for root itself), or false and path whole when
 * it lies outside (d_path(), prepend_path()). */
bool vfs_path_in_root(const char *root, const char *path, char *out, size_t len);

/* The mount point of the guest mount holding abspath ("/", "/proc",
 * "/tmp", a cgroup mount...), as /proc/self/mounts lists them. */
const char *vfs_mount_point(const struct vfs *v, const char *abspath);

/* Whether node is a magic link of /proc (proc_pid_get_link(),
 * proc_fd_link(): /proc/PID/{fd/N,cwd,root,exe}): following one jumps to
 * the file itself (nd_jump_link()), not to its text read as a path. */
bool vfs_is_magic_link(const struct vfs_node *node);

/* The same, following a symlink at the end too: a path naming the file
 * itself, for the calls that follow (open, stat, access). The virtual
 * trees' symlinks and the private /tmp's are followed here, as guest paths;
 * the host lookup follows the root's itself, inside the root, unless the
 * process has a root of its own (chroot), when the walk reads them all. */
int vfs_follow(struct vfs *v, void *ctx, const char *abspath, char *out, size_t len);

/* The canonical guest path of a file or directory (symlinks resolved), as
 * d_path() gives it: /proc/PID/exe, chdir. */
int vfs_canonical(struct vfs *v, void *ctx, const char *dir, char *out, size_t len);
/* The guest path of the host file a descriptor of asymu's holds (d_path():
 * the file itself, not the link it was opened by); -ENOENT and the like
 * when the guest has no path to it. */
int vfs_fd_path(struct vfs *v, int fd, char *out, size_t len);

/* The canonical guest path of the directory an absolute path names, as
 * chdir and mount's target want it: -ENOENT, -ENOTDIR, or 0 and *out. */
int vfs_directory(struct vfs *v, void *ctx, const char *abspath, char *out, size_t len);

/* The virtual node at an absolute normalised guest path: 1 and *node filled,
 * 0 for paths of the host root, -ENOENT for unknown paths inside the virtual
 * trees (/dev, /proc, /sys). */
int vfs_lookup_virtual(struct vfs *v, void *ctx, const char *abspath, struct vfs_node *node);

/* Opens a host file under the root (with -L tried first for reads).
 * flags are host O_* flags; writes fail with -EROFS. Returns a host fd. */
int vfs_open_host(struct vfs *v, const char *abspath, int flags, int mode);
/* The same, telling whether the guest may change the file it opened (its
 * mode, times, size, contents) through the descriptor: *writable is true
 * only for a file of a writable mount (the root with --rw, the private
 * /tmp), false for -L and for the sysroot's /tmp under the private one. The
 * rule is the one vfs_parent() applies to paths. */
int vfs_open_host_writable(struct vfs *v, const char *abspath, int flags, int mode,
                           bool *writable);
/* A descriptor open for real on the file of host descriptor fd (an O_PATH
 * one included), for the host's fchmod, futimens and f*xattr, which take no
 * O_PATH descriptor: a copy of fd when it is open for real, else the file
 * opened again through its /proc/self/fd link, O_RDONLY (O_WRONLY when
 * reading is refused) and O_NONBLOCK (a fifo does not wait for a writer).
 * The open is under the sandbox's Landlock rules, so nothing outside the
 * guest's places is reached; a socket node (ENXIO) or a symlink itself
 * (ELOOP) cannot be opened. The caller closes it; -errno. */
int vfs_reopen(const struct vfs *v, int fd);
/* stat/lstat of an absolute guest path, virtual or host. */
int vfs_stat(struct vfs *v, void *ctx, const char *abspath, bool follow, struct stat *st);
int vfs_readlink(struct vfs *v, void *ctx, const char *abspath, char *buf, size_t len);
/* Lists a virtual directory: calls emit(name, d_type, arg) for each entry. */
int vfs_list_virtual(struct vfs *v, void *ctx, const struct vfs_node *dir,
                     void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
/* The target of a VNODE_SYMLINK: its length or -errno (-EINVAL for others). */
int vfs_readlink_virtual(struct vfs *v, void *ctx, const struct vfs_node *node, char *buf,
                         size_t len);
/* Whether node is a /proc/PID/fd/N link: opening it opens the file
 * descriptor N of PID (node->arg) names (node->arg2), not its text. */
bool vfs_is_fd_link(const struct vfs_node *node);
/* The pid of a /proc/PID directory (a thread group's, not /proc/PID/task/TID),
 * or 0 for any other node. */
int vfs_proc_dir_pid(const struct vfs_node *node);
/* Fills st for a virtual node. */
void vfs_stat_virtual(const struct vfs_node *node, struct stat *st);
/* The content of a VNODE_GENERATED file, fixed at open (malloc'ed). */
int vfs_generate(struct vfs *v, void *ctx, const struct vfs_node *node, char **data,
                 size_t *size);
/* An open of a writable VNODE_GENERATED file with O_TRUNC: tracefs's
 * set_event and trace are emptied then. */
void vfs_truncate_virtual(struct vfs *v, void *ctx, const struct vfs_node *node);
/* A write(2) to a writable VNODE_GENERATED file at file position pos
 * (only a sysctl node looks at it): the bytes taken or -errno. */
int64_t vfs_write_virtual(struct vfs *v, void *ctx, const struct vfs_node *node,
                          const char *data, size_t len, uint64_t pos);

#endif
