/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup.h - the cgroup v2 hierarchy mounted at /sys/fs/cgroup and the
 * cgroup v1 hierarchies mount(2) makes, with the cpuset and cpu
 * controllers (docs/cgroups.md lists each rule, CGn, with its Linux 5.15
 * source and test). The groups of every hierarchy live in one table in the
 * machine; each thread names its group in each hierarchy
 * (task->cgroup[h], group 0 the v2 root). The VFS reaches the files
 * through the provider (vfs_provider.c), naming the hierarchy. */
#ifndef ASYMU_CGROUP_H
#define ASYMU_CGROUP_H

#include "cpumask.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CGROUP_MAX 128
#define CGROUP_NAME_MAX 64
#define CGROUP_MOUNT "/sys/fs/cgroup"
/* Hierarchy 0 is cgroup v2's; each controller is in at most one v1 one. */
#define CGROUP_HIERS 3

/* The controllers, in the kernel's subsystem order (cpuset_cgrp_id first). */
enum { CG_SS_CPUSET = 1, CG_SS_CPU = 2, CG_SS_ALL = 3 };

struct cgroup {
    bool used;
    int parent; /* index, -1 for the root of a hierarchy */
    unsigned hier;  /* its hierarchy: 0 (v2) or a v1 one */
    bool mems_set;  /* v1 cpuset: mems holds node 0 */
    bool v1_clone_children, v1_notify_on_release;
    char name[CGROUP_NAME_MAX];
    unsigned subtree;                /* cgroup.subtree_control: CG_SS_* */
    struct cpumask cpus;             /* cpuset.cpus as written, empty if never */
    struct cpumask effective;        /* cpuset.cpus.effective (of its cpuset) */
    bool partition_root;             /* cpuset.cpus.partition */
    unsigned shares;                 /* the task group's shares (1024 = cpu.weight 100) */
    int64_t max_quota;               /* cpu.max quota in us, -1 for "max" */
    uint64_t max_period;             /* cpu.max period in us */
    unsigned uclamp_min, uclamp_max; /* hundredths of a percent, 0..10000 */
    bool idle;                       /* cpu.idle */
};

/* A v1 hierarchy (cgroup_root with its hierarchy_id). */
struct cgroup_hier {
    bool used;
    unsigned ss;        /* the controllers bound to it: CG_SS_* */
    bool noprefix;      /* cpuset files without "cpuset." */
    int root;           /* its root group */
    int id;             /* hierarchy_id, as /proc/PID/cgroup shows it */
    unsigned mounts;    /* mount points showing it */
    char release_agent[64];
};

struct cgroups {
    struct cgroup g[CGROUP_MAX];
    struct cgroup_hier h[CGROUP_HIERS]; /* [0] unused: v2 */
    int last_id;                        /* hierarchy ids go round from 1 */
};

struct machine;
struct task;

/* The root group, its effective CPUs the online ones. */
void cgroup_init(struct machine *m);
/* fork/clone: the child joins its parent's group. */
void cgroup_fork(const struct task *parent, struct task *child);
/* After a hotplug change: effective masks and the tasks of cpusets whose
 * effective mask changed (CG9). */
void cgroup_hotplug(struct machine *m);
/* Whether t's cpuset is not the top one. */
bool cgroup_in_cpuset(struct machine *m, const struct task *t);
/* __sched_setaffinity()'s cpuset step (CG3), for sched_setaffinity and for
 * an affinity set from outside (a scenario's task and events): the mask of
 * a task outside the top cpuset cut to cpuset_cpus_allowed() (not under
 * linux-6.6, which keeps the request as the user mask); false when nothing
 * is left (-EINVAL). */
bool cgroup_cut_affinity(struct machine *m, struct task *t, struct cpumask *mask);

/* mount -t cgroup -o DATA or -t cpuset (cgroup1_get_tree(), the cpuset
 * filesystem): the v1 hierarchy to show (made, or the one with the same
 * controllers), its options for /proc/self/mounts in shown; or -errno.
 * cgroup_v1_umount: one mount point fewer (a hierarchy without mounts or
 * children goes, its controllers back to v2). */
int cgroup_v1_mount(struct machine *m, const char *type, const char *data, char *shown,
                    size_t len);
void cgroup_v1_umount(struct machine *m, unsigned hier);

/* The VFS side: rel is the path under a mount of hierarchy hier ("" the
 * mount itself). node: 1 with *dir and *mode, or -ENOENT. */
int cgroup_node(struct machine *m, unsigned hier, const char *rel, bool *dir, unsigned *mode);
int cgroup_list(struct machine *m, unsigned hier, const char *rel,
                void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
int cgroup_read(struct machine *m, unsigned hier, const char *rel, char **data, size_t *size);
int64_t cgroup_write(struct task *t, unsigned hier, const char *rel, const char *data,
                     size_t len);
/* mkdir and rmdir of a group (rel its path): 0 or -errno. */
int cgroup_mkdir(struct machine *m, unsigned hier, const char *rel);
int cgroup_rmdir(struct machine *m, unsigned hier, const char *rel);
/* A scenario's cgroup settings (scenario/parse.c), checked before the run:
 * 0 if a v2 group's FILE (cpu.weight, cpu.max, cpu.uclamp.min or
 * cpu.uclamp.max) takes VALUE, else the -errno its write would give
 * (-ENOENT for another file). Whether a v2 group shows a file of this
 * name (mkdir of it would be -EEXIST). */
int cgroup_value_check(const char *file, const char *value);
bool cgroup_is_file_name(const char *name);
/* /proc/PID/cgroup: a line per v1 hierarchy ("ID:cpuset:/path"), then
 * "0::/path\n". */
int cgroup_proc_file(struct machine *m, int pid, char **data, size_t *size);

#endif
