/* kernel.h - emu/'s internal interface: the machine, processes, tasks, the
 * ABI tables and the helpers every syscall handler uses. */
#ifndef ASYMU_KERNEL_H
#define ASYMU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "emu.h"
#include "loader.h"
#include "vfs.h"

struct task;
struct abi;
struct machine;
#include <sys/stat.h>

/* ---- guest address space (mm.c) ---- */

struct vma {
    uint64_t start, end; /* [start, end), page aligned */
    int prot;            /* PROT_* */
    uint8_t *host;       /* host memory backing [start, end) */
    struct vma *next;    /* sorted by start */
};

struct mm {
    uc_engine *uc;
    const struct abi *abi;
    struct vma *vmas;
    uint64_t limit;         /* first address the guest cannot use */
    uint64_t mmap_base;     /* top-down mmap search starts below this */
    uint64_t brk_start, brk; /* program break */
    uint64_t total;         /* bytes mapped */
    uint64_t max_total;     /* --max-mem */
};

int mm_init(struct mm *mm, const struct abi *abi, struct machine *m);
void mm_destroy(struct mm *mm);
/* Maps [addr, addr+len) fresh (replacing what was there) with zeroed memory. */
int mm_map_fixed(struct mm *mm, uint64_t addr, uint64_t len, int prot);
/* Finds a free range of len bytes below mmap_base (or at hint if free). 0 on failure. */
uint64_t mm_find_free(struct mm *mm, uint64_t hint, uint64_t len);
int mm_unmap(struct mm *mm, uint64_t addr, uint64_t len);
int mm_protect(struct mm *mm, uint64_t addr, uint64_t len, int prot);
/* The host pointer for guest [addr, addr+len) if it lies in one VMA with at
 * least `prot` access, else NULL. */
void *mm_host_ptr(struct mm *mm, uint64_t addr, uint64_t len, int prot);
const struct vma *mm_find_vma(const struct mm *mm, uint64_t addr);

/* Guest memory access for handlers: 0 or -EFAULT. Sizes are bounded by the
 * caller; a range may span VMAs. */
int copy_from_guest(struct mm *mm, void *dst, uint64_t src, size_t len);
int copy_to_guest(struct mm *mm, uint64_t dst, const void *src, size_t len);
/* Copies a NUL-terminated guest string of at most max-1 bytes: its length,
 * -EFAULT, or -ENAMETOOLONG. */
int64_t strncpy_from_guest(struct mm *mm, char *dst, uint64_t src, size_t max);

/* ---- the ABI of one ISA (emu/abi/<isa>/) ---- */

/* A syscall handler: arguments are the raw register values (zero-extended on
 * AArch32); returns the value for x0/r0, a negative errno on failure. */
typedef int64_t (*syscall_fn)(struct task *t, const uint64_t a[6]);

struct syscall_entry {
    const char *name;
    syscall_fn fn;
    const char *args; /* strace argument format, one letter per argument (strace.c) */
    bool ret_hex;     /* the result is an address */
};

struct abi {
    enum loader_isa isa;
    const char *name;     /* "aarch64", "arm" */
    const char *platform; /* AT_PLATFORM */
    uint64_t hwcap, hwcap2;
    unsigned word;        /* 8 or 4 */
    uc_arch arch;
    uc_mode mode;
    uint64_t limit;           /* end of the user address space */
    uint64_t stack_top;
    uint64_t mmap_base;
    uint64_t dyn_base;        /* load address of an ET_DYN main program */
    uint64_t default_max_mem;
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
    /* Size in bytes of the guest struct stat for fstat/newfstatat/fstat64. */
    int (*put_stat)(struct task *t, uint64_t addr, const struct stat *st);
};

extern const struct abi abi_aarch64;
extern const struct abi abi_arm;
const struct abi *abi_for_isa(enum loader_isa isa);

/* ---- guest open(2) flags: arm and arm64 differ from the x86-64 host ---- */

#define GUEST_O_DIRECTORY 0x4000
#define GUEST_O_NOFOLLOW 0x8000
#define GUEST_O_DIRECT 0x10000
#define GUEST_O_LARGEFILE 0x20000
/* Host O_* flags for guest ones (and back, for F_GETFL). */
int open_flags_to_host(uint32_t guest);
uint32_t open_flags_to_guest(int host);

/* ---- files (fd.c) ---- */

enum file_kind {
    FILE_HOST,    /* a host fd confined to the guest root */
    FILE_CONSOLE, /* the emulator's own stdin/stdout/stderr */
    FILE_VIRTUAL, /* a node of the virtual /dev or /proc */
};

struct file {
    int refs;
    enum file_kind kind;
    int host_fd;                 /* FILE_HOST, FILE_CONSOLE */
    int flags;                   /* O_* status flags */
    const struct vfs_node *node; /* FILE_VIRTUAL */
    char *data;                  /* FILE_VIRTUAL generated content, fixed at open */
    size_t size;
    uint64_t pos;
    char *path;                  /* guest path, for /proc/self/fd and strace */
};

#define FD_MAX 1024

struct fdtable {
    struct file *fd[FD_MAX];
    bool cloexec[FD_MAX];
};

struct file *file_get(struct task *t, int fd); /* NULL if fd is not open */
int fd_install(struct task *t, struct file *f, int min, bool cloexec);
int fd_close(struct task *t, int fd);
void file_put(struct file *f);
struct file *file_new(enum file_kind kind);
void fdtable_init_console(struct fdtable *fdt);
void fdtable_destroy(struct fdtable *fdt);

/* ---- processes and tasks ---- */

#define NSIG_GUEST 64

struct sigaction_guest {
    uint64_t handler, flags, restorer, mask;
};


#define PER_LINUX32 0x0008
#define COMM_LEN 16

struct process {
    int pid;
    struct mm mm;
    struct fdtable files;
    unsigned personality;
    char comm[COMM_LEN];
    char exe[4096];  /* guest path of the image, for /proc/self/exe */
    char cwd[4096];  /* guest path */
    uint64_t rlimit_stack;
    struct sigaction_guest sigactions[NSIG_GUEST + 1];
    bool exited;
    int status;      /* shell-style: exit code or 128 + signal */
};

struct task {
    int tid;
    uint64_t sigmask;
    struct cpumask affinity;
    unsigned cpu;
    struct process *proc;
    uint64_t clear_child_tid;
    uint64_t fault_addr; /* set by the memory fault hook */
    bool stop;      /* leave uc_emu_start after this syscall */
    struct machine *machine;
};

static inline struct mm *task_mm(struct task *t) { return &t->proc->mm; }
static inline const struct abi *task_abi(struct task *t) { return t->proc->mm.abi; }

/* ---- the machine (machine.c) ---- */

struct machine {
    const struct emu_config *cfg;
    struct task *current; /* the task whose engine is running */
    struct vfs vfs;
    uint64_t vtime_ns;  /* virtual time since boot */
    uint64_t rng[4];    /* xoshiro256** state seeded from --seed */
    int next_pid;
    bool aarch32_el0; /* user space may run 32-bit: M is every vCPU, or the
                         boot parameter is present and M is not empty */
    uint64_t unknown_reported[8]; /* syscall numbers reported once as unknown */
    unsigned nunknown;
};

uint64_t machine_random(struct machine *m);
void machine_random_bytes(struct machine *m, void *buf, size_t len);
/* Wall-clock epoch the guest sees at boot, plus virtual time. */
uint64_t machine_realtime_ns(struct machine *m);

/* ---- engine (engine.c): the one place that talks Unicorn errors ---- */

int engine_open(const struct abi *abi, struct machine *m, uc_engine **out);
/* Runs t until it stops (exit, fault, or a syscall that asks to leave). */
int engine_run(struct task *t);
void engine_close(uc_engine *uc);
/* Translates a Unicorn error into a negative errno. */
int engine_errno(uc_err err);

/* ---- exec (exec.c) ---- */

/* Replaces t's image with the program open on host fd `fd`, known to the
 * guest as `exe`. On failure the old image is intact and a negative errno is
 * returned (as execve would); `why` names the defect. */
int exec_fd(struct task *t, int fd, const char *exe, char *const argv[], char *const envp[],
            char *why, size_t whylen);

/* ---- signals (signal.c) ---- */

/* Ends the whole thread group with the default action of sig. */
void signal_kill_process(struct task *t, int sig);
/* A synchronous fault: the signal for the fault, with one line on stderr. */
void signal_fault(struct task *t, int sig, uint64_t pc, uint64_t addr, const char *what);

/* ---- syscalls (syscall.c, strace.c) ---- */

void syscall_dispatch(struct task *t);
/* "SIGSEGV" for 11, NULL for numbers without a name. */
const char *signal_name(int sig);
void strace_enter(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                  char *buf, size_t len);
void strace_exit(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                 int64_t ret, const char *enter);

/* Handlers shared by both ABIs, grouped by area (sys_*.c). */
#define SYSCALL_DECL(name) int64_t sys_##name(struct task *t, const uint64_t a[6])
SYSCALL_DECL(exit);
SYSCALL_DECL(exit_group);
SYSCALL_DECL(getpid);
SYSCALL_DECL(getppid);
SYSCALL_DECL(gettid);
SYSCALL_DECL(getuid);
SYSCALL_DECL(set_tid_address);
SYSCALL_DECL(set_robust_list);
SYSCALL_DECL(rseq);
SYSCALL_DECL(prlimit64);
SYSCALL_DECL(getrlimit);
SYSCALL_DECL(uname);
SYSCALL_DECL(personality);
SYSCALL_DECL(kill);
SYSCALL_DECL(tgkill);
SYSCALL_DECL(tkill);
SYSCALL_DECL(rt_sigaction);
SYSCALL_DECL(rt_sigprocmask);
SYSCALL_DECL(sched_yield);
SYSCALL_DECL(sched_getaffinity);
SYSCALL_DECL(getcpu);
SYSCALL_DECL(futex);
SYSCALL_DECL(sysinfo);
SYSCALL_DECL(prctl);
SYSCALL_DECL(umask);

SYSCALL_DECL(read);
SYSCALL_DECL(write);
SYSCALL_DECL(readv);
SYSCALL_DECL(writev);
SYSCALL_DECL(pread64);
SYSCALL_DECL(openat);
SYSCALL_DECL(close);
SYSCALL_DECL(lseek);
SYSCALL_DECL(fstat);
SYSCALL_DECL(newfstatat);
SYSCALL_DECL(statx);
SYSCALL_DECL(readlinkat);
SYSCALL_DECL(faccessat);
SYSCALL_DECL(ioctl);
SYSCALL_DECL(fcntl);
SYSCALL_DECL(dup);
SYSCALL_DECL(dup3);
SYSCALL_DECL(getcwd);
SYSCALL_DECL(chdir);
SYSCALL_DECL(getdents64);

SYSCALL_DECL(brk);
SYSCALL_DECL(mmap);
SYSCALL_DECL(munmap);
SYSCALL_DECL(mprotect);
SYSCALL_DECL(mremap);
SYSCALL_DECL(madvise);

SYSCALL_DECL(clock_gettime);
SYSCALL_DECL(clock_getres);
SYSCALL_DECL(gettimeofday);
SYSCALL_DECL(nanosleep);
SYSCALL_DECL(clock_nanosleep);
SYSCALL_DECL(getrandom);

/* Shared cores that ABI-specific wrappers call. */
int64_t do_mmap(struct task *t, uint64_t addr, uint64_t len, int prot, int flags, int fd,
                uint64_t off);
int64_t do_lseek(struct task *t, int fd, int64_t off, int whence);
int64_t do_fstatat(struct task *t, int dirfd, uint64_t path, uint64_t statbuf, int flags);
/* Clocks with `field`-byte timespec members: 8 on arm64 and for arm's
 * *_time64 calls, 4 for arm's legacy calls. */
int64_t do_clock_gettime(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_getres(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_nanosleep(struct task *t, int clk, int flags, uint64_t req, unsigned field);
int64_t do_nanosleep(struct task *t, uint64_t req, unsigned field);
/* Resolves a guest (dirfd, path) pair to an absolute guest path. */
int path_at(struct task *t, int dirfd, const char *path, char *out, size_t len);
int64_t path_from_guest(struct task *t, int dirfd, uint64_t upath, char *out, size_t len);

/* Prints once per syscall number that the guest used and asymu lacks. */
void syscall_report_unknown(struct task *t, uint64_t nr);

#endif
