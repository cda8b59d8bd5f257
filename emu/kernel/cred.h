/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cred.h - a process's user and group ids: real, effective, saved and
 * file-system ids and the supplementary groups (cred.c). The guest starts
 * as root; ids change only through the set*id calls, which follow Linux's
 * rules for a process whose capabilities come from its effective uid being
 * 0 (no file capabilities, no securebits). Beyond those calls they decide
 * only chown (owner.c) and System V IPC permissions (sysv_ipc.c): files are
 * the host's, and the guest may reach them as root does. */
#ifndef ASYMU_CRED_H
#define ASYMU_CRED_H

#include <stdbool.h>
#include <stdint.h>

struct task;

/* Supplementary groups, sorted; shared by processes until one sets its own. */
struct group_list {
    int refs;
    unsigned n;
    uint32_t gid[];
};

/* The four ids of one kind (user or group). */
struct idset {
    uint32_t real, eff, saved, fs;
};

struct cred {
    struct idset u, g;
    struct group_list *groups; /* NULL: none */
};

/* Linux's NGROUPS_MAX. */
#define GROUPS_MAX 65536

/* fork: the child shares the parent's ids. */
void cred_copy(struct cred *dst, const struct cred *src);
/* The process is gone: drops its groups. */
void cred_release(struct cred *c);
/* in_group_p(): gid is the fsgid or a supplementary group. */
bool cred_in_group(const struct cred *c, uint32_t gid);

int64_t sys_getuid(struct task *t, const uint64_t a[6]);
int64_t sys_geteuid(struct task *t, const uint64_t a[6]);
int64_t sys_getgid(struct task *t, const uint64_t a[6]);
int64_t sys_getegid(struct task *t, const uint64_t a[6]);
int64_t sys_setuid(struct task *t, const uint64_t a[6]);
int64_t sys_setgid(struct task *t, const uint64_t a[6]);
int64_t sys_setreuid(struct task *t, const uint64_t a[6]);
int64_t sys_setregid(struct task *t, const uint64_t a[6]);
int64_t sys_setresuid(struct task *t, const uint64_t a[6]);
int64_t sys_setresgid(struct task *t, const uint64_t a[6]);
int64_t sys_getresuid(struct task *t, const uint64_t a[6]);
int64_t sys_getresgid(struct task *t, const uint64_t a[6]);
int64_t sys_setfsuid(struct task *t, const uint64_t a[6]);
int64_t sys_setfsgid(struct task *t, const uint64_t a[6]);
int64_t sys_getgroups(struct task *t, const uint64_t a[6]);
int64_t sys_setgroups(struct task *t, const uint64_t a[6]);
/* ptrace_may_access(PTRACE_MODE_*_REALCREDS) as asymu models credentials:
 * the same thread group, root (CAP_SYS_PTRACE), or a caller whose real uid
 * and gid are all of the target's ids. */
struct process;
bool cred_may_access(const struct process *caller, const struct process *target);
/* getgroups' core: the n gids, written by write to the guest at list. */
int64_t cred_getgroups(struct task *t, int size, uint64_t list,
                       int (*write)(struct task *t, uint64_t list, const uint32_t *gid, unsigned n));
/* setgroups' core: size gids that read takes from the guest at list. */
int64_t cred_setgroups(struct task *t, int size, uint64_t list,
                       int (*read)(struct task *t, uint64_t list, uint32_t *gid, unsigned n));

#endif
