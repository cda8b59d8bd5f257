/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cred.h - a process's credentials: user and group ids (real, effective,
 * saved and file-system), the supplementary groups (cred.c), and the
 * capability sets with the securebits (capability.c). The guest starts as
 * root with every capability. Privilege is decided by capable(): the
 * capability in the effective set (Linux's cap_capable()); the sets follow
 * the ids as Linux 5.15's security/commoncap.c has them follow: set*uid
 * and setfsuid (cap_task_fix_setuid()), execve of a program without file
 * capabilities nor set-id bits (cap_bprm_creds_from_file()), capset
 * (cap_capset()) and the prctl calls of cap_task_prctl(). Linux keeps a
 * cred per thread; asymu keeps one per process, which its threads share
 * (capset and set*id in one thread change them all, as glibc's setxid
 * broadcast makes the set*id calls do anyway). Files are the host's, and the
 * guest reaches them as the emulator's user does: the ids and capabilities
 * decide chown (owner.c), System V and POSIX IPC permissions (sysv_ipc.c,
 * mqueue.c), ptrace access, and the calls that name a capability. */
#ifndef ASYMU_CRED_H
#define ASYMU_CRED_H

#include <stdbool.h>
#include <stdint.h>

#include "syscalls.h"

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

/* The capability numbers of Linux 5.15 (uapi/linux/capability.h). */
enum {
    CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_FSETID, CAP_KILL,
    CAP_SETGID, CAP_SETUID, CAP_SETPCAP, CAP_LINUX_IMMUTABLE, CAP_NET_BIND_SERVICE,
    CAP_NET_BROADCAST, CAP_NET_ADMIN, CAP_NET_RAW, CAP_IPC_LOCK, CAP_IPC_OWNER, CAP_SYS_MODULE,
    CAP_SYS_RAWIO, CAP_SYS_CHROOT, CAP_SYS_PTRACE, CAP_SYS_PACCT, CAP_SYS_ADMIN, CAP_SYS_BOOT,
    CAP_SYS_NICE, CAP_SYS_RESOURCE, CAP_SYS_TIME, CAP_SYS_TTY_CONFIG, CAP_MKNOD, CAP_LEASE,
    CAP_AUDIT_WRITE, CAP_AUDIT_CONTROL, CAP_SETFCAP, CAP_MAC_OVERRIDE, CAP_MAC_ADMIN, CAP_SYSLOG,
    CAP_WAKE_ALARM, CAP_BLOCK_SUSPEND, CAP_AUDIT_READ, CAP_PERFMON, CAP_BPF,
    CAP_CHECKPOINT_RESTORE,
    CAP_LAST_CAP = CAP_CHECKPOINT_RESTORE
};
#define CAP_BIT(cap) (UINT64_C(1) << (cap))
#define CAP_FULL_SET (CAP_BIT(CAP_LAST_CAP + 1) - 1)

/* The five capability sets, one bit per capability. */
struct capsets {
    uint64_t inh, prm, eff, bnd, amb;
};

/* securebits (uapi/linux/securebits.h): each flag, and its lock one above. */
#define SECBIT_NOROOT (1u << 0)
#define SECBIT_NO_SETUID_FIXUP (1u << 2)
#define SECBIT_KEEP_CAPS (1u << 4)
#define SECBIT_NO_CAP_AMBIENT_RAISE (1u << 6)
#define SECURE_ALL_BITS 0x55u
#define SECURE_ALL_LOCKS 0xaau

struct cred {
    struct idset u, g;
    struct group_list *groups; /* NULL: none */
    struct capsets cap;
    unsigned securebits;
};

/* Linux's NGROUPS_MAX. */
#define GROUPS_MAX 65536

/* The first process: root, every capability in its permitted, effective
 * and bounding sets (init's cred, kernel/cred.c). */
void cred_init_root(struct cred *c);
/* fork: the child shares the parent's ids. */
void cred_copy(struct cred *dst, const struct cred *src);
/* The process is gone: drops its groups. */
void cred_release(struct cred *c);
/* in_group_p(): gid is the fsgid or a supplementary group. */
bool cred_in_group(const struct cred *c, uint32_t gid);

/* capable(): the capability is in the effective set. */
bool cred_capable(const struct cred *c, int cap);
bool capable(const struct task *t, int cap);
/* cap_task_fix_setuid(): the sets after the uids changed from old (the
 * real, effective and saved ids: LSM_SETID_ID, _RE, _RES) or, with
 * fs_only, the fsuid from old->fs (LSM_SETID_FS). */
void cap_fix_setuid(struct cred *c, const struct idset *old, bool fs_only);
/* cap_bprm_creds_from_file() for a program with neither file capabilities
 * nor set-id bits: new (a copy of old) gets the ids and sets the program
 * runs with. nnp: the thread's no_new_privs; traced_unsafe: traced by a
 * tracer without CAP_SYS_PTRACE (LSM_UNSAFE_*). *undumpable: whether the
 * process is not dumpable after it (begin_new_exec(), commit_creds()).
 * Returns AT_SECURE (bprm->secureexec). */
bool cap_exec_creds(struct cred *new, const struct cred *old, bool nnp, bool traced_unsafe,
                    bool *undumpable);
/* The prctl options of cap_task_prctl(): the result, or -ENOSYS for
 * another option (prctl.c asks here first, as security_task_prctl()). */
int64_t cap_prctl(struct task *t, int option, const uint64_t a[6]);

SYSCALL_DECL(capget);
SYSCALL_DECL(capset);
SYSCALL_DECL(getuid);
SYSCALL_DECL(geteuid);
SYSCALL_DECL(getgid);
SYSCALL_DECL(getegid);
SYSCALL_DECL(setuid);
SYSCALL_DECL(setgid);
SYSCALL_DECL(setreuid);
SYSCALL_DECL(setregid);
SYSCALL_DECL(setresuid);
SYSCALL_DECL(setresgid);
SYSCALL_DECL(getresuid);
SYSCALL_DECL(getresgid);
SYSCALL_DECL(setfsuid);
SYSCALL_DECL(setfsgid);
SYSCALL_DECL(getgroups);
SYSCALL_DECL(setgroups);
/* __ptrace_may_access(PTRACE_MODE_*_REALCREDS) as asymu models credentials:
 * the same thread group; else a caller with CAP_SYS_PTRACE, or one whose
 * real uid and gid are all of the target's ids, of a dumpable target, and
 * whose permitted set holds the target's (cap_ptrace_access_check()). */
struct process;
bool cred_may_access(const struct process *caller, const struct process *target);
/* getgroups' core: the n gids, written by write to the guest at list. */
int64_t cred_getgroups(struct task *t, int size, uint64_t list,
                       int (*write)(struct task *t, uint64_t list, const uint32_t *gid, unsigned n));
/* setgroups' core: size gids that read takes from the guest at list. */
int64_t cred_setgroups(struct task *t, int size, uint64_t list,
                       int (*read)(struct task *t, uint64_t list, uint32_t *gid, unsigned n));

#endif
