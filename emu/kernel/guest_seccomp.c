/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest_seccomp.c - secure computing as Linux 5.15's kernel/seccomp.c: strict
 * mode and classic-BPF filters (seccomp(2), prctl PR_SET_SECCOMP), checked
 * as seccomp_check_filter() and bpf_check_classic() (net/core/filter.c)
 * do, run at each syscall after the tracer's syscall-enter stop
 * (__secure_computing()), their actions as __seccomp_filter() takes them.
 * Filters are per thread, shared along the chain a thread inherits at
 * clone and keeps at execve. Not modelled: user notification
 * (SECCOMP_FILTER_FLAG_NEW_LISTENER is EINVAL, so SECCOMP_RET_USER_NOTIF
 * finds no listener: ENOSYS, as Linux without one), SECCOMP_RET_TRACE
 * with a tracer (ENOSYS, as without one) and the audit log of
 * SECCOMP_RET_LOG (it allows). */
#include "guest_seccomp.h"

#include "abi.h"
#include "abi_user.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* uapi linux/seccomp.h, linux/filter.h, linux/audit.h */
#define SECCOMP_SET_MODE_STRICT 0
#define SECCOMP_SET_MODE_FILTER 1
#define SECCOMP_GET_ACTION_AVAIL 2
#define SECCOMP_GET_NOTIF_SIZES 3
#define SECCOMP_FILTER_FLAG_TSYNC 1u
#define SECCOMP_FILTER_FLAG_LOG 2u
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW 4u
#define SECCOMP_FILTER_FLAG_NEW_LISTENER 8u
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH 16u
#define SECCOMP_FILTER_FLAGS_KNOWN 31u
#define SECCOMP_RET_KILL_PROCESS 0x80000000u
#define SECCOMP_RET_KILL_THREAD 0x00000000u
#define SECCOMP_RET_TRAP 0x00030000u
#define SECCOMP_RET_ERRNO 0x00050000u
#define SECCOMP_RET_USER_NOTIF 0x7fc00000u
#define SECCOMP_RET_TRACE 0x7ff00000u
#define SECCOMP_RET_LOG 0x7ffc0000u
#define SECCOMP_RET_ALLOW 0x7fff0000u
#define SECCOMP_RET_ACTION_FULL 0xffff0000u
#define SECCOMP_RET_DATA 0x0000ffffu
#define SYS_SECCOMP 1 /* SIGSYS's si_code */
#define BPF_MAXINSNS 4096
#define BPF_MEMWORDS 16
/* MAX_INSNS_PER_PATH: the instructions of a chain, each filter counting 4
 * more (seccomp_attach_filter). */
#define MAX_INSNS_PER_PATH ((1 << 18) / 8)
#define SECCOMP_DATA_SIZE 64 /* nr, arch, instruction_pointer, args[6] */
#define MAX_ERRNO 4095

/* Classic BPF opcodes (linux/bpf_common.h, linux/filter.h). */
enum {
    BPF_LD = 0x00, BPF_LDX = 0x01, BPF_ST = 0x02, BPF_STX = 0x03,
    BPF_ALU = 0x04, BPF_JMP = 0x05, BPF_RET = 0x06, BPF_MISC = 0x07,
    BPF_W = 0x00, BPF_IMM = 0x00, BPF_ABS = 0x20, BPF_MEM = 0x60, BPF_LEN = 0x80,
    BPF_ADD = 0x00, BPF_SUB = 0x10, BPF_MUL = 0x20, BPF_DIV = 0x30, BPF_OR = 0x40,
    BPF_AND = 0x50, BPF_LSH = 0x60, BPF_RSH = 0x70, BPF_NEG = 0x80, BPF_XOR = 0xa0,
    BPF_JA = 0x00, BPF_JEQ = 0x10, BPF_JGT = 0x20, BPF_JGE = 0x30, BPF_JSET = 0x40,
    BPF_K = 0x00, BPF_X = 0x08, BPF_A = 0x10, BPF_TAX = 0x00, BPF_TXA = 0x80,
};

/* struct sock_filter: the same 8 bytes in both ABIs. */
struct bpf_insn_classic {
    uint16_t code;
    uint8_t jt, jf;
    uint32_t k;
};

struct seccomp_filter {
    int refs;
    bool log; /* SECCOMP_FILTER_FLAG_LOG: kept for SECCOMP_RET_LOG's sake */
    struct seccomp_filter *prev;
    unsigned len;
    struct bpf_insn_classic insns[];
};

/* ---- checking a program ---- */

/* The opcodes seccomp_check_filter() lets through; loads of the packet
 * become loads of struct seccomp_data (aligned 32-bit words inside it),
 * and BPF_LEN is its size. */
static bool allowed_code(struct bpf_insn_classic *in)
{
    switch (in->code) {
    case BPF_LD | BPF_W | BPF_ABS:
        return in->k < SECCOMP_DATA_SIZE && !(in->k & 3);
    case BPF_LD | BPF_W | BPF_LEN:
        in->code = BPF_LD | BPF_IMM;
        in->k = SECCOMP_DATA_SIZE;
        return true;
    case BPF_LDX | BPF_W | BPF_LEN:
        in->code = BPF_LDX | BPF_IMM;
        in->k = SECCOMP_DATA_SIZE;
        return true;
    case BPF_RET | BPF_K: case BPF_RET | BPF_A:
    case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_ADD | BPF_X:
    case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU | BPF_SUB | BPF_X:
    case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
    case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_DIV | BPF_X:
    case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_AND | BPF_X:
    case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU | BPF_OR | BPF_X:
    case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU | BPF_XOR | BPF_X:
    case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_LSH | BPF_X:
    case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_X:
    case BPF_ALU | BPF_NEG:
    case BPF_LD | BPF_IMM: case BPF_LDX | BPF_IMM:
    case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
    case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM:
    case BPF_ST: case BPF_STX:
    case BPF_JMP | BPF_JA:
    case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
    case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
    case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
    case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
        return true;
    default:
        return false;
    }
}

static bool is_cond_jump(uint16_t code)
{
    return (code & 0x07) == BPF_JMP && (code & 0xf0) != BPF_JA;
}

/* check_load_and_stores(): every scratch word is stored on every path
 * before it is loaded (jumps only go forward). */
static bool loads_follow_stores(const struct bpf_insn_classic *f, unsigned len)
{
    uint16_t *valid_at = malloc(len * sizeof *valid_at);
    if (!valid_at)
        return false;
    for (unsigned pc = 0; pc < len; pc++)
        valid_at[pc] = 0xffff;
    uint16_t valid = 0;
    bool ok = true;
    for (unsigned pc = 0; ok && pc < len; pc++) {
        valid &= valid_at[pc];
        const struct bpf_insn_classic *in = &f[pc];
        switch (in->code) {
        case BPF_ST: case BPF_STX:
            valid |= 1u << in->k;
            break;
        case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM:
            ok = valid & (1u << in->k);
            break;
        case BPF_JMP | BPF_JA:
            valid_at[pc + 1 + in->k] &= valid;
            valid = 0xffff;
            break;
        case BPF_RET | BPF_K: case BPF_RET | BPF_A:
            valid = 0xffff;
            break;
        default:
            if (is_cond_jump(in->code)) {
                valid_at[pc + 1 + in->jt] &= valid;
                valid_at[pc + 1 + in->jf] &= valid;
                valid = 0xffff;
            }
        }
    }
    free(valid_at);
    return ok;
}

/* bpf_check_classic() and seccomp_check_filter(): 0 or -EINVAL. */
static int check_program(struct bpf_insn_classic *f, unsigned len)
{
    for (unsigned pc = 0; pc < len; pc++) {
        struct bpf_insn_classic *in = &f[pc];
        unsigned left = len - pc - 1;
        if (!allowed_code(in))
            return -EINVAL;
        switch (in->code) {
        case BPF_ALU | BPF_DIV | BPF_K:
            if (in->k == 0)
                return -EINVAL;
            break;
        case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM: case BPF_ST: case BPF_STX:
            if (in->k >= BPF_MEMWORDS)
                return -EINVAL;
            break;
        case BPF_JMP | BPF_JA:
            if (in->k >= left)
                return -EINVAL;
            break;
        default:
            if (is_cond_jump(in->code) && (in->jt >= left || in->jf >= left))
                return -EINVAL;
        }
    }
    uint16_t last = f[len - 1].code;
    if (last != (BPF_RET | BPF_K) && last != (BPF_RET | BPF_A))
        return -EINVAL;
    return loads_follow_stores(f, len) ? 0 : -EINVAL;
}

/* ---- running a program ---- */

struct seccomp_data_words {
    uint32_t w[SECCOMP_DATA_SIZE / 4];
};

static uint32_t alu(uint16_t op, uint32_t a, uint32_t v)
{
    switch (op) {
    case BPF_ADD: return a + v;
    case BPF_SUB: return a - v;
    case BPF_MUL: return a * v;
    case BPF_DIV: return a / v; /* v is not 0: run() checks X, the loader K */
    case BPF_AND: return a & v;
    case BPF_OR: return a | v;
    case BPF_XOR: return a ^ v;
    case BPF_LSH: return v < 32 ? a << v : 0;
    case BPF_RSH: return v < 32 ? a >> v : 0;
    default: return -a; /* BPF_NEG */
    }
}

static bool jump_taken(uint16_t op, uint32_t a, uint32_t v)
{
    switch (op) {
    case BPF_JEQ: return a == v;
    case BPF_JGT: return a > v;
    case BPF_JGE: return a >= v;
    default: return a & v; /* BPF_JSET */
    }
}

/* One filter over the call's data: its return value. A division by a zero
 * X ends the program with 0 (SECCOMP_RET_KILL_THREAD), as the classic-BPF
 * conversion does. */
static uint32_t run(const struct seccomp_filter *f, const struct seccomp_data_words *d)
{
    uint32_t A = 0, X = 0, M[BPF_MEMWORDS] = {0};
    for (unsigned pc = 0; pc < f->len; pc++) {
        const struct bpf_insn_classic *in = &f->insns[pc];
        uint16_t cls = in->code & 0x07;
        switch (cls) {
        case BPF_LD:
            A = (in->code & 0xe0) == BPF_ABS   ? d->w[in->k / 4]
                : (in->code & 0xe0) == BPF_MEM ? M[in->k]
                                               : in->k;
            break;
        case BPF_LDX:
            X = (in->code & 0xe0) == BPF_MEM ? M[in->k] : in->k;
            break;
        case BPF_ST:
            M[in->k] = A;
            break;
        case BPF_STX:
            M[in->k] = X;
            break;
        case BPF_ALU: {
            uint32_t v = (in->code & BPF_X) ? X : in->k;
            if ((in->code & 0xf0) == BPF_DIV && v == 0)
                return 0;
            A = alu(in->code & 0xf0, A, v);
            break;
        }
        case BPF_JMP:
            if ((in->code & 0xf0) == BPF_JA)
                pc += in->k;
            else
                pc += jump_taken(in->code & 0xf0, A, (in->code & BPF_X) ? X : in->k) ? in->jt
                                                                                    : in->jf;
            break;
        case BPF_RET:
            return (in->code & BPF_A) ? A : in->k;
        default: /* BPF_MISC */
            if (in->code & BPF_TXA)
                A = X;
            else
                X = A;
        }
    }
    return 0; /* not reached: the last instruction returns */
}

/* seccomp_run_filters(): every filter of the chain runs; the action that
 * ranks first (the lowest as a signed action) wins. */
static uint32_t run_chain(const struct seccomp_filter *f, const struct seccomp_data_words *d)
{
    uint32_t ret = SECCOMP_RET_ALLOW;
    for (; f; f = f->prev) {
        uint32_t cur = run(f, d);
        if ((int32_t)(cur & SECCOMP_RET_ACTION_FULL) < (int32_t)(ret & SECCOMP_RET_ACTION_FULL))
            ret = cur;
    }
    return ret;
}

/* instruction_pointer(): the pc after the svc (abi->pc_mask: in Thumb
 * state without bit 0, which is the CPSR's T bit in Linux's registers). */
static uint64_t call_pc(struct task *t)
{
    const struct abi *abi = task_abi(t);
    return abi->get_pc(task_mm(t)->uc) & abi->pc_mask;
}

/* populate_seccomp_data(): the arguments as the ABI's registers hold them
 * (a compat task's zero-extended). */
static void data_for(struct task *t, uint64_t nr, const uint64_t a[6],
                     struct seccomp_data_words *d)
{
    const struct abi *abi = task_abi(t);
    uint64_t ip = call_pc(t);
    uint64_t words[8] = {0};
    uint32_t head[2] = {(uint32_t)nr, abi->audit_arch};
    memcpy(words, head, sizeof head);
    words[1] = ip;
    for (int i = 0; i < 6; i++)
        words[2 + i] = abi_ulong(abi, a[i]);
    memcpy(d->w, words, sizeof d->w);
}

/* ---- the call's fate ---- */

/* force_sig_seccomp(): SIGSYS for this call, to a handler that does not
 * block it (signal_force); to kill, it ends the process whatever the
 * handler. */
static void sigsys(struct task *t, uint64_t nr, uint32_t reason, bool kill)
{
    if (kill) {
        signal_kill_process(t, SIGSYS);
        return;
    }
    const struct abi *abi = task_abi(t);
    struct siginfo_lite info = {
        .code = SYS_SECCOMP,
        .addr = call_pc(t),
        .syscall = (int)nr,
        .arch = abi->audit_arch,
        .err = (int)reason,
    };
    signal_force(t, SIGSYS, &info);
}

/* Strict mode's calls: read, write, exit and rt_sigreturn (arm64's
 * asm/seccomp.h names the compat ones: read, write, exit, rt_sigreturn). */
static bool strict_allows(const struct abi *abi, uint64_t nr)
{
    const char *name = abi->syscall_name(nr);
    static const char *const allowed[] = {"read", "write", "exit", "rt_sigreturn"};
    for (unsigned i = 0; name && i < sizeof allowed / sizeof *allowed; i++)
        if (strcmp(name, allowed[i]) == 0)
            return true;
    return false;
}

int guest_seccomp_check(struct task *t, uint64_t nr, const uint64_t a[6], int64_t *ret)
{
    if (t->seccomp_mode == SECCOMP_MODE_STRICT) {
        if (strict_allows(task_abi(t), nr))
            return SECCOMP_RUN;
        signal_kill_process(t, SIGKILL); /* __secure_computing_strict: do_exit(SIGKILL) */
        return SECCOMP_SKIP_DEAD;
    }
    struct seccomp_data_words d;
    data_for(t, nr, a, &d);
    uint32_t r = run_chain(t->seccomp, &d);
    uint32_t data = r & SECCOMP_RET_DATA;
    switch (r & SECCOMP_RET_ACTION_FULL) {
    case SECCOMP_RET_ALLOW:
    case SECCOMP_RET_LOG:
        return SECCOMP_RUN;
    case SECCOMP_RET_ERRNO:
        *ret = -(int64_t)(data > MAX_ERRNO ? MAX_ERRNO : data);
        return SECCOMP_SKIP;
    case SECCOMP_RET_TRAP:
        /* syscall_rollback(): the first argument's register keeps its value */
        *ret = (int64_t)a[0];
        sigsys(t, nr, data, false);
        return t->proc->exiting ? SECCOMP_SKIP_DEAD : SECCOMP_SKIP;
    case SECCOMP_RET_TRACE:
    case SECCOMP_RET_USER_NOTIF:
        *ret = -ENOSYS;
        return SECCOMP_SKIP;
    case SECCOMP_RET_KILL_THREAD:
        if (t->proc->live_threads > 1) {
            task_exit(t, SIGSYS);
            return SECCOMP_SKIP_DEAD;
        }
        /* the last thread dumps core as the process does */
        __attribute__((fallthrough));
    default: /* SECCOMP_RET_KILL_PROCESS and unknown actions */
        sigsys(t, nr, data, true);
        return SECCOMP_SKIP_DEAD;
    }
}

/* ---- setting a mode ---- */

static void filter_put(struct seccomp_filter *f)
{
    while (f && --f->refs == 0) {
        struct seccomp_filter *prev = f->prev;
        free(f);
        f = prev;
    }
}

void guest_seccomp_fork(struct task *child, const struct task *parent)
{
    child->seccomp_mode = parent->seccomp_mode;
    child->seccomp = parent->seccomp;
    if (child->seccomp)
        child->seccomp->refs++;
}

void guest_seccomp_release(struct task *t)
{
    filter_put(t->seccomp);
    t->seccomp = NULL;
}

unsigned guest_seccomp_filters(const struct task *t)
{
    unsigned n = 0;
    for (const struct seccomp_filter *f = t->seccomp; f; f = f->prev)
        n++;
    return n;
}

static int set_strict(struct task *t)
{
    if (t->seccomp_mode && t->seccomp_mode != SECCOMP_MODE_STRICT)
        return -EINVAL;
    t->seccomp_mode = SECCOMP_MODE_STRICT;
    return 0;
}

/* seccomp_prepare_user_filter(): struct sock_fprog {unsigned short len;
 * struct sock_filter *filter;} in the caller's ABI: two longs, len in the
 * low bytes of the first (compat_sock_fprog on arm). */
static struct seccomp_filter *filter_from_guest(struct task *t, uint64_t uprog, int *err)
{
    uint64_t prog[2];
    if (get_user_ulongs(t, uprog, prog, 2) < 0) {
        *err = -EFAULT;
        return NULL;
    }
    uint16_t len = (uint16_t)prog[0];
    uint64_t insns = prog[1];
    if (len == 0 || len > BPF_MAXINSNS) {
        *err = -EINVAL;
        return NULL;
    }
    struct seccomp_filter *f = calloc(1, sizeof *f + len * sizeof f->insns[0]);
    if (!f) {
        *err = -ENOMEM;
        return NULL;
    }
    f->len = len;
    f->refs = 1;
    if (copy_from_guest(task_mm(t), f->insns, insns, len * sizeof f->insns[0]) < 0)
        *err = -EFAULT;
    else
        *err = check_program(f->insns, len);
    if (*err) {
        free(f);
        return NULL;
    }
    return f;
}

static unsigned path_insns(const struct seccomp_filter *f)
{
    unsigned n = 0;
    for (; f; f = f->prev)
        n += f->len + 4;
    return n;
}

/* Whether chain a holds b (b is a or one of a's ancestors). */
static bool chain_holds(const struct seccomp_filter *a, const struct seccomp_filter *b)
{
    for (; a; a = a->prev)
        if (a == b)
            return true;
    return !b;
}

/* seccomp_can_sync_threads(): 0, or the first thread whose filters are not
 * the caller's or an ancestor of them. */
static int sync_blocker(const struct task *t)
{
    for (const struct task *o = t->proc->threads; o; o = o->next_thread) {
        if (o == t || o->state == TASK_DEAD)
            continue;
        if (o->seccomp_mode == SECCOMP_MODE_STRICT ||
            (o->seccomp_mode == SECCOMP_MODE_FILTER && !chain_holds(t->seccomp, o->seccomp)))
            return o->tid;
    }
    return 0;
}

static int set_filter(struct task *t, unsigned flags, uint64_t uprog)
{
    if (flags & ~SECCOMP_FILTER_FLAGS_KNOWN)
        return -EINVAL;
    if ((flags & SECCOMP_FILTER_FLAG_TSYNC) && (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER) &&
        !(flags & SECCOMP_FILTER_FLAG_TSYNC_ESRCH))
        return -EINVAL;
    if (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER)
        return -EINVAL; /* user notification is not modelled (see the top) */
    /* seccomp_prepare_filter(): no new privileges, or CAP_SYS_ADMIN */
    if (!t->no_new_privs && !capable(t, CAP_SYS_ADMIN))
        return -EACCES;
    int err;
    struct seccomp_filter *f = filter_from_guest(t, uprog, &err);
    if (!f)
        return err;
    f->log = flags & SECCOMP_FILTER_FLAG_LOG;
    if (t->seccomp_mode == SECCOMP_MODE_STRICT)
        err = -EINVAL;
    else if (path_insns(t->seccomp) + f->len + 4 > MAX_INSNS_PER_PATH)
        err = -ENOMEM;
    else if ((flags & SECCOMP_FILTER_FLAG_TSYNC) && (err = sync_blocker(t)) != 0)
        err = (flags & SECCOMP_FILTER_FLAG_TSYNC_ESRCH) ? -ESRCH : err;
    if (err) {
        free(f);
        return err;
    }
    f->prev = t->seccomp;
    t->seccomp = f;
    t->seccomp_mode = SECCOMP_MODE_FILTER;
    if (flags & SECCOMP_FILTER_FLAG_TSYNC) {
        /* seccomp_sync_threads(): the others take the caller's chain */
        for (struct task *o = t->proc->threads; o; o = o->next_thread) {
            if (o == t || o->state == TASK_DEAD)
                continue;
            f->refs++;
            filter_put(o->seccomp);
            o->seccomp = f;
            o->seccomp_mode = SECCOMP_MODE_FILTER;
            if (t->no_new_privs)
                o->no_new_privs = true;
        }
    }
    return 0;
}

static bool action_known(uint32_t action)
{
    switch (action) {
    case SECCOMP_RET_KILL_PROCESS: case SECCOMP_RET_KILL_THREAD: case SECCOMP_RET_TRAP:
    case SECCOMP_RET_ERRNO: case SECCOMP_RET_USER_NOTIF: case SECCOMP_RET_TRACE:
    case SECCOMP_RET_LOG: case SECCOMP_RET_ALLOW:
        return true;
    default:
        return false;
    }
}

int64_t guest_seccomp_set_mode(struct task *t, unsigned op, unsigned flags, uint64_t uargs)
{
    switch (op) {
    case SECCOMP_SET_MODE_STRICT:
        return flags || uargs ? -EINVAL : set_strict(t);
    case SECCOMP_SET_MODE_FILTER:
        return set_filter(t, flags, uargs);
    case SECCOMP_GET_ACTION_AVAIL: {
        uint32_t action;
        if (flags)
            return -EINVAL;
        if (copy_from_guest(task_mm(t), &action, uargs, sizeof action) < 0)
            return -EFAULT;
        return action_known(action) ? 0 : -EOPNOTSUPP;
    }
    case SECCOMP_GET_NOTIF_SIZES: {
        /* struct seccomp_notif, seccomp_notif_resp, seccomp_data */
        uint16_t sizes[3] = {80, 24, SECCOMP_DATA_SIZE};
        if (flags)
            return -EINVAL;
        return copy_to_guest(task_mm(t), uargs, sizes, sizeof sizes);
    }
    default:
        return -EINVAL;
    }
}

SYSCALL_DECL(seccomp)
{
    return guest_seccomp_set_mode(t, (unsigned)a[0], (unsigned)a[1], a[2]);
}

/* prctl(PR_SET_SECCOMP, mode, filter): prctl_set_seccomp(). */
int64_t guest_seccomp_prctl(struct task *t, uint64_t mode, uint64_t filter)
{
    switch (mode) {
    case SECCOMP_MODE_STRICT:
        return guest_seccomp_set_mode(t, SECCOMP_SET_MODE_STRICT, 0, 0);
    case SECCOMP_MODE_FILTER:
        return guest_seccomp_set_mode(t, SECCOMP_SET_MODE_FILTER, 0, filter);
    default:
        return -EINVAL;
    }
}
