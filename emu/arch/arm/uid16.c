/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uid16.c - the 16-bit user and group id calls of the ARM table, which
 * arm64's compat table keeps (kernel/uid16.c): the 32-bit calls' handlers
 * with ids narrowed and widened as the kernel does. An id past 65535
 * reads as the overflow id 65534 (high2lowuid(), /proc/sys/kernel/overflowuid);
 * a 16-bit -1 (0xffff) means "keep" as -1 does (low2highuid()). */
#include "syscall_table.h"
#include "cred.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <stdlib.h>

#define OVERFLOW_ID 65534u

static uint32_t low2high(uint64_t id)
{
    uint16_t v = (uint16_t)id;
    return v == 0xffff ? 0xffffffffu : v;
}

static uint16_t high2low(uint32_t id)
{
    return id > 0xffff ? OVERFLOW_ID : (uint16_t)id;
}

SYSCALL_DECL(getuid16)
{
    (void)a;
    return high2low(t->proc->cred.u.real);
}

SYSCALL_DECL(geteuid16)
{
    (void)a;
    return high2low(t->proc->cred.u.eff);
}

SYSCALL_DECL(getgid16)
{
    (void)a;
    return high2low(t->proc->cred.g.real);
}

SYSCALL_DECL(getegid16)
{
    (void)a;
    return high2low(t->proc->cred.g.eff);
}

/* The 32-bit call with its arguments widened. */
#define WIDENED(name, call, n)                                                                     \
    SYSCALL_DECL(name)                                                                             \
    {                                                                                              \
        uint64_t w[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};                                      \
        for (int i = 0; i < (n); i++)                                                              \
            w[i] = low2high(a[i]);                                                                 \
        return sys_##call(t, w);                                                                   \
    }

WIDENED(setuid16, setuid, 1)
WIDENED(setgid16, setgid, 1)
WIDENED(setreuid16, setreuid, 2)
WIDENED(setregid16, setregid, 2)
WIDENED(setresuid16, setresuid, 3)
WIDENED(setresgid16, setresgid, 3)
WIDENED(setfsuid16, setfsuid, 1)
WIDENED(setfsgid16, setfsgid, 1)

/* chown16(path, user, group) and lchown16: the ids are arguments 1 and 2. */
SYSCALL_DECL(chown16)
{
    return sys_fchownat(t, (uint64_t[6]){(uint64_t)-100, a[0], low2high(a[1]), low2high(a[2]), 0});
}

SYSCALL_DECL(lchown16)
{
    return sys_fchownat(t,
                        (uint64_t[6]){(uint64_t)-100, a[0], low2high(a[1]), low2high(a[2]), 0x100});
}

SYSCALL_DECL(fchown16)
{
    return sys_fchown(t, (uint64_t[6]){a[0], low2high(a[1]), low2high(a[2])});
}

static int64_t getres16(struct task *t, const uint64_t a[6], const struct idset *s)
{
    uint16_t ids[3] = {high2low(s->real), high2low(s->eff), high2low(s->saved)};
    for (int i = 0; i < 3; i++)
        if (copy_to_guest(task_mm(t), a[i], &ids[i], sizeof ids[i]) < 0)
            return -EFAULT;
    return 0;
}

SYSCALL_DECL(getresuid16)
{
    return getres16(t, a, &t->proc->cred.u);
}

SYSCALL_DECL(getresgid16)
{
    return getres16(t, a, &t->proc->cred.g);
}

/* getgroups16(size, list): as getgroups, each gid narrowed. */
static int write_gids16(struct task *t, uint64_t list, const uint32_t *gid, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint16_t g = high2low(gid[i]);
        if (copy_to_guest(task_mm(t), list + 2 * (uint64_t)i, &g, sizeof g) < 0)
            return -EFAULT;
    }
    return 0;
}

SYSCALL_DECL(getgroups16)
{
    return cred_getgroups(t, (int)a[0], a[1], write_gids16);
}

static int read_gids16(struct task *t, uint64_t list, uint32_t *gid, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint16_t g;
        if (copy_from_guest(task_mm(t), &g, list + 2 * (uint64_t)i, sizeof g) < 0)
            return -EFAULT;
        gid[i] = low2high(g);
    }
    return 0;
}

SYSCALL_DECL(setgroups16)
{
    return cred_setgroups(t, (int)a[0], a[1], read_gids16);
}
