/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.h - the ABI of one ISA (emu/arch/<isa>/): address space layout,
 * registers, the syscall table, signal frames, struct stat. */
#ifndef ASYMU_ABI_H
#define ASYMU_ABI_H

#include <stdbool.h>
#include <stdint.h>

#include "loader.h"
#include "uc_fwd.h"

struct sigaction_guest;
struct stat;
struct syscall_entry;
struct task;

struct abi {
    enum loader_isa isa;
    const char *name;     /* "aarch64", "arm" */
    const char *platform; /* AT_PLATFORM */
    uint64_t hwcap, hwcap2;
    unsigned word;        /* 8 or 4 */
    /* Unicorn's uc_arch and uc_mode for uc_open (engine.c), kept as ints so
     * that this header needs no Unicorn enum (uc_fwd.h). */
    int arch;
    int mode;
    uint64_t limit;           /* end of the user address space */
    uint64_t stack_top;
    uint64_t mmap_base;
    uint64_t dyn_base;        /* load address of an ET_DYN main program */
    uint64_t default_max_mem;
    uint64_t sigtramp;              /* page holding the sigreturn trampolines */
    const uint32_t *sigtramp_code;
    unsigned sigtramp_words;
    const struct syscall_entry *table;
    unsigned table_len;
    /* The kernel's name for a syscall number (also those asymu lacks), or NULL. */
    const char *(*syscall_name)(uint64_t nr);
    /* ABI-private syscalls outside the table (ARM's 0xf0000 range), or NULL. */
    const struct syscall_entry *(*lookup_private)(uint64_t nr);
    /* Puts a fresh engine into user mode (EL0t / USR) with FP/SIMD enabled. */
    int (*setup_cpu)(uc_engine *uc);
    /* Sets pc and sp for a fresh image, and clears the other registers. */
    void (*start)(uc_engine *uc, uint64_t pc, uint64_t sp);
    void (*get_syscall)(uc_engine *uc, uint64_t *nr, uint64_t a[6]);
    void (*set_return)(uc_engine *uc, int64_t ret);
    uint64_t (*get_pc)(uc_engine *uc);
    void (*set_tls)(uc_engine *uc, uint64_t tls);
    /* The same on a saved register context (clone). */
    void (*ctx_set_return)(uc_context *ctx, int64_t ret);
    void (*ctx_set_sp)(uc_context *ctx, uint64_t sp);
    /* Bytes of the syscall instruction before the pc (restarting a syscall). */
    unsigned (*syscall_insn_size)(uc_engine *uc);
    /* Signal frames (emu/arch/<isa>/signal.c): builds the frame for a handler
     * and points the registers at it; sigreturn restores them from it. */
    int (*setup_frame)(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp);
    int64_t (*sigreturn)(struct task *t, bool rt);
    /* Size in bytes of the guest struct stat for fstat/newfstatat/fstat64. */
    int (*put_stat)(struct task *t, uint64_t addr, const struct stat *st);
    /* System V IPC's structures as this ABI lays them out (emu/ipc/). */
    struct abi_sysv {
        bool ipc_64_flag;        /* IPC_64 in a ctl command picks the 64 layouts (arm) */
        unsigned perm_size;      /* struct ipc64_perm */
        unsigned msq_time_words; /* msqid64_ds's three times, in words */
        unsigned sem_tail;       /* semid64_ds after its ipc64_perm */
        unsigned shm_tail;       /* shmid64_ds after its ipc64_perm */
        unsigned shmlba;         /* SHMLBA, what SHM_RND rounds to */
        bool time_high;          /* each time a long, then its _high long */
        uint64_t shmmax_cap;     /* IPC_INFO's shmmax at most this */
    } sysv;
    /* fcntl's record locks (emu/fs/flock.c): F_GETLK, F_SETLK and F_SETLKW
     * take a struct flock with 32-bit offsets, and F_GETLK64, F_SETLK64
     * and F_SETLKW64 exist for struct flock64. */
    bool flock32;
    /* Directory positions must fit a 32-bit off_t (dirpos.h). */
    bool dir_pos32;
    /* readv's iovec array: each iov_len checked as it is read, not after
     * the whole array is (emu/fs/iovec.c). */
    bool iov_checked_as_read;
    /* get_mempolicy's node mask goes out in 32-bit words, one at least
     * (emu/mm/mempolicy.c). */
    bool nodemask_words;
    /* /dev/kvm serves the ABI's tasks (emu/drivers/kvm.c). */
    bool kvm;
    /* What the kernel layer (emu/kernel/) lays out or does by the ABI: arm64
     * Linux's native rule, or its compat one for arm; each ABI's abi.c names
     * the structure or constant it follows. */
    uint64_t (*get_sp)(uc_engine *uc);  /* the user sp, as get_pc the pc */
    unsigned siginfo_fields; /* siginfo_t: offset of _sifields, after signo, errno, code */
    unsigned minsigstksz;    /* sigaltstack's smallest stack */
    uint32_t audit_arch;     /* AUDIT_ARCH_*: seccomp_data.arch, PTRACE_GET_SYSCALL_INFO */
    uint64_t pc_mask;        /* instruction_pointer() of Linux's registers from get_pc */
    /* The ptrace requests only a tracer of this ABI has (arm64's
     * arch_ptrace() or compat_arch_ptrace()), for the ones sys_ptrace does
     * not know itself: NULL, or -EIO for a request it does not know either. */
    int64_t (*arch_ptrace)(struct task *tracer, struct task *c, long req, uint64_t addr,
                           uint64_t data);
    unsigned cpumask_unit;   /* sched_setaffinity reads the user's mask in these bytes */
    uint64_t rlim_infinity;  /* RLIM_INFINITY in the struct rlimit of getrlimit, setrlimit */
    bool tagged_addr;        /* PR_{SET,GET}_TAGGED_ADDR_CTRL know the task */
    unsigned sysinfo_longs;  /* struct sysinfo's size in longs of the ABI */
    /* A syscall rewound (restart.c): the pc put back on the svc, whose
     * number register becomes restart_syscall's for ERESTART_RESTARTBLOCK. */
    void (*set_pc)(uc_engine *uc, uint64_t pc);
    void (*set_restart_syscall)(uc_engine *uc);
    bool kuser_helpers;      /* exec maps the kuser helper page (loader_kuser_page) */
};

/* A syscall argument whose C type is long (signed: compat_long_t on arm,
 * sign-extended) or unsigned long / size_t (zero-extended) in the guest's
 * ABI: the one place the word size decides it. */
static inline int64_t abi_long(const struct abi *abi, uint64_t v)
{
    return abi->word == 8 ? (int64_t)v : (int64_t)(int32_t)v;
}
static inline uint64_t abi_ulong(const struct abi *abi, uint64_t v)
{
    return abi->word == 8 ? v : (uint32_t)v;
}
/* The largest unsigned long of the guest's ABI, and so the last user
 * address it can name: a 32-bit task's addresses and lengths past it wrap
 * (its compat_ulong_t). */
static inline uint64_t abi_ulong_max(const struct abi *abi)
{
    return abi_ulong(abi, UINT64_MAX);
}

extern const struct abi abi_aarch64;
extern const struct abi abi_arm;
const struct abi *abi_for_isa(enum loader_isa isa);

#endif
