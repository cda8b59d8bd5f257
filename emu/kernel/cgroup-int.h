/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup-int.h - what cgroup.c (the groups, v2, the cpuset rules) and
 * cgroup_v1.c (the v1 hierarchies) share; private to the two. */
#ifndef ASYMU_CGROUP_INT_H
#define ASYMU_CGROUP_INT_H

#include "cgroup.h"

#include <stdio.h>

/* CONFIG_NR_CPUS of arm64's defconfig: a cpulist past it is -ERANGE. */
#define KERNEL_NR_CPUS 256
#define UCLAMP_PCT_MAX 10000 /* 100.00% */
#define CFS_PERIOD_DFL 100000ull
#define VFS_PATH_MAX_CG 4096
#define MIN_SHARES 2
#define MAX_SHARES (1u << 18)
#define DT_DIR_ 4
#define DT_REG_ 8

/* The files of a group: where they appear and their modes. */
enum { IN_ROOT = 1, IN_CHILD = 2 };
struct cg_file {
    const char *name;    /* with its controller's prefix ("cpuset.cpus") */
    unsigned where;      /* IN_ROOT, IN_CHILD */
    unsigned controller; /* 0 for core files, else the CG_SS_* it belongs to */
    unsigned mode;
};

struct cgroup *grp(struct machine *m, int i);
void group_defaults(struct cgroup *g, int parent, unsigned hier);
/* Whether t is in group i (of i's hierarchy). */
bool in_group(struct machine *m, const struct task *t, int i);
bool has_tasks(struct machine *m, int i);
/* The root of a hierarchy (the top cpuset where it has cpuset). */
bool is_top(struct machine *m, int cs);
unsigned controllers_of(struct machine *m, int i);
/* The controllers bound to v1 hierarchies; the one holding cpuset (0: v2). */
unsigned v1_bound(struct machine *m);
unsigned cpuset_hier(struct machine *m);
int resolve(struct machine *m, unsigned h, const char *rel, const char **file);
/* The file a group shows under a name, its canonical entry (v1 names
 * without their prefix map to the prefixed entry). */
const struct cg_file *file_of(struct machine *m, int i, const char *name);

/* The task a write to cgroup.procs, cgroup.threads or tasks names (0:
 * the writer), or NULL with *err -EINVAL or -ESRCH. */
struct task *procs_target(struct task *w, const char *buf, int *err);
/* Puts t (its whole thread group with threadgroup) in group i of i's
 * hierarchy and attaches what changed cpuset. */
void move_to_group(struct machine *m, struct task *t, int i, bool threadgroup);
void cpuset_attach(struct machine *m, struct task *t, int cs);
void reattach_all(struct machine *m);
void update_all(struct machine *m);

void print_cpulist(FILE *out, const struct cpumask *mask);
void print_uclamp(FILE *out, unsigned pct);
void cpu_stat(FILE *out, struct machine *m, int i);
int stripped(const char *data, size_t len, char *out, size_t outlen);
int parse_ll(const char *s, long long *v);
int uclamp_parse(const char *buf, unsigned *out);
/* A cpuset's CPUs as written: a cpulist (-EINVAL), none past the kernel's
 * NR_CPUS (-ERANGE). Its memory nodes: node 0 or none (-EINVAL). */
int cpus_parse(const char *buf, struct cpumask *mask);
int mems_parse(const char *buf, bool *node0);

/* cgroup_v1.c */
const struct cg_file *v1_file_of(struct machine *m, int i, const char *name);
void v1_list(struct machine *m, int i,
             void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
void v1_read(FILE *out, struct machine *m, int i, const char *file);
int v1_write(struct task *w, int i, const char *file, char *buf);
/* After mkdir of a v1 group: clone_children. */
void v1_group_made(struct machine *m, int i);
/* The legacy hotplug of the v1 cpusets (hotplug_update_tasks_legacy()). */
void v1_hotplug(struct machine *m);

#endif
