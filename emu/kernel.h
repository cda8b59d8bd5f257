/* kernel.h - emu/'s internal interface: the machine, processes, tasks, the
 * ABI tables and the helpers every syscall handler uses. */
#ifndef ASYMU_KERNEL_H
#define ASYMU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "cred.h"
#include "emu.h"
#include "klog.h"
#include "loader.h"
#include "scheduler.h"
#include "vfs.h"

#include <sys/stat.h>

struct task;
struct shmem;
struct abi;
struct machine;
struct proc_timers;
struct sock;
struct pty;
struct owner_table;
struct sysv_ipc;
struct ptrace_link;

/* ---- guest address space (mm.c) ---- */

/* Where a mapping's bytes came from, for /proc/PID/maps. */
struct vma_origin {
    const char *path; /* the file's guest path, NULL for anonymous memory */
    uint64_t pgoff;   /* file offset of the mapping's first byte */
    uint64_t dev, ino;
    bool shared_ro; /* MAP_SHARED of a file not open for writing: never writable */
};

struct vma {
    uint64_t start, end; /* [start, end), page aligned */
    int prot;            /* PROT_* */
    uint8_t *host;       /* host memory backing [start, end) */
    struct vma_origin origin; /* path owned (malloc'ed) */
    struct shmem *shm;   /* MAP_SHARED: the object mapped (a reference), else NULL */
    uint64_t shm_off;    /* its offset at start */
    unsigned fork;       /* VMA_DONTFORK, VMA_WIPEONFORK (madvise) */
    struct vma *next;    /* sorted by start */
};

#define VMA_DONTFORK 1u   /* a forked child does not get the mapping */
#define VMA_WIPEONFORK 2u /* a forked child gets it zeroed */

struct mm {
    int refs;               /* processes sharing it (threads, vfork children) */
    struct machine *machine;
    struct task *loaded;    /* the task whose registers are in the engine */
    uc_engine *uc;          /* NULL while parked (mm_engine_park) */
    struct mm *lru_prev, *lru_next; /* machine->engines_lru, while uc is open */
    const struct abi *abi;
    struct vma *vmas;
    uint64_t limit;         /* first address the guest cannot use */
    uint64_t mmap_base;     /* top-down mmap search starts below this */
    uint64_t brk_start, brk; /* program break */
    uint64_t arg_start, arg_end; /* argv strings on the stack (/proc/PID/cmdline) */
    uint64_t auxv_start, auxv_end; /* the auxiliary vector on the stack (/proc/PID/auxv) */
    uint64_t env_start, env_end;   /* the environment strings (/proc/PID/environ) */
    uint64_t total;         /* bytes mapped (RLIMIT_AS counts these) */
    uint64_t usable;        /* of them, bytes not PROT_NONE (--max-mem counts these) */
    uint64_t max_total;     /* --max-mem: bounds usable */
    uint64_t max_as;        /* RLIMIT_AS: bounds total */
    struct mm *next_deferred;
};

/* A fresh address space on a new engine of abi's ISA: NULL with *err set on failure. */
struct mm *mm_new(const struct abi *abi, struct machine *m, int *err);
/* Makes sure mm has an open engine (it may have been parked) and counts
 * it as the most recently used: 0 or -ENOMEM. Before a task of mm runs. */
int mm_engine_acquire(struct mm *mm);
/* Parks the least recently used engines beyond --warm-engines, but keep's.
 * Only while no engine runs. */
void mm_engines_trim(struct machine *m, struct mm *keep);
/* A copy of src (fork): same mappings and contents, a new engine. */
struct mm *mm_copy(struct mm *src, int *err);
/* Drops a reference; the last one frees the memory and the engine (after the
 * engine has stopped, when it is the one running). */
void mm_put(struct mm *mm);
void mm_free(struct mm *mm);
/* Maps [addr, addr+len) fresh (replacing what was there) with zeroed memory. */
int mm_map_fixed(struct mm *mm, uint64_t addr, uint64_t len, int prot);
/* The same for a file's bytes (the caller fills them): origin names the file. */
int mm_map_origin(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin);
/* The same for len bytes of a shared memory object from off (MAP_SHARED). */
int mm_map_shared(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin, struct shmem *shm, uint64_t off);
/* Sets and clears VMA_* fork flags on the mapped parts of [addr, addr+len)
 * (page aligned, no overflow). */
int mm_set_fork(struct mm *mm, uint64_t addr, uint64_t len, unsigned set, unsigned clear);
/* Names the file behind the mappings that start in [start, end): the first
 * byte of the range is at file offset origin->pgoff. */
void mm_set_origin(struct mm *mm, uint64_t start, uint64_t end, const struct vma_origin *origin);
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
/* Copies what it can up to the first unwritable byte: the bytes copied. */
int64_t copy_to_guest_partial(struct mm *mm, uint64_t dst, const void *src, size_t len);
/* Copies a NUL-terminated guest string of at most max-1 bytes: its length,
 * -EFAULT, or -ENAMETOOLONG. */
int64_t strncpy_from_guest(struct mm *mm, char *dst, uint64_t src, size_t max);

/* ---- the ABI of one ISA (emu/abi/<isa>/) ---- */

struct sigaction_guest {
    uint64_t handler, flags, restorer, mask;
};


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
    /* Signal frames (emu/abi/<isa>/signal.c): builds the frame for a handler
     * and points the registers at it; sigreturn restores them from it. */
    int (*setup_frame)(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp);
    int64_t (*sigreturn)(struct task *t, bool rt);
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
    FILE_PIPE,    /* one end of a pipe (pipe.c) */
    FILE_OBJECT,  /* a kernel object behind struct file_ops (sockets, epoll, eventfd, ...) */
};

struct file;

/* What a FILE_OBJECT does. Reads and writes return bytes, -EAGAIN, or
 * -EBLOCK with t->wait_obj set (as pipes do); NULL members mean the call
 * fails with the errno Linux gives for such a file (EINVAL, or ENOTTY for
 * ioctl). State changes call file_notify() on the object. */
struct file_ops {
    const char *name; /* the /proc/PID/fd link: "anon_inode:[eventfd]", or a
                         prefix the inode number completes, "socket:" */
    int64_t (*read)(struct task *t, struct file *f, void *buf, size_t len);
    int64_t (*write)(struct task *t, struct file *f, const void *buf, size_t len);
    short (*poll)(struct task *t, struct file *f); /* POLL* bits ready now */
    int64_t (*ioctl)(struct task *t, struct file *f, unsigned long req, uint64_t arg);
    void (*release)(struct file *f); /* the last reference went */
    int (*stat)(struct file *f, struct stat *st); /* fstat; NULL: an anonymous inode of `mode` */
    unsigned mode; /* S_IFSOCK | 0777, or 0600 for anonymous inodes (fstat) */
};

#define PIPE_CAPACITY 65536 /* a new pipe's; F_SETPIPE_SZ changes it */

struct pipe {
    struct machine *machine;
    int readers, writers; /* open file descriptions of each end */
    size_t head, len;
    size_t capacity;
    uint8_t *buf;         /* a ring of capacity bytes */
};

struct file {
    int refs;
    enum file_kind kind;
    int host_fd;                 /* FILE_HOST, FILE_CONSOLE */
    bool writable_mount;         /* FILE_HOST: the guest may change it (file_access.h) */
    struct vfs_budget *budget;   /* FILE_HOST on a size-limited mount (--tmp-size), or NULL */
    int flags;                   /* O_* status flags */
    struct vfs_node node;        /* FILE_VIRTUAL */
    struct pipe *pipe;           /* FILE_PIPE */
    struct fifo *fifo;           /* FILE_HOST on a named pipe: its open rules (fifo.h) */
    const struct file_ops *ops;  /* FILE_OBJECT */
    void *priv;                  /* FILE_OBJECT: the object */
    uint64_t ino;                /* FILE_OBJECT: inode number (fstat, /proc/PID/fd) */
    char *data;                  /* FILE_VIRTUAL generated content, fixed at open */
    size_t size;
    uint64_t pos;
    /* A virtual directory's last entry returned, when its name is a number
     * (/proc/PID/fd/N, /proc/PID): getdents resumes after it (sys_fs.c). */
    long dir_last_num;
    bool dir_last_valid;
    char *path;                  /* guest path, for /proc/self/fd and strace */
    struct epitem *epitems;      /* epoll items watching this description (epoll.c) */
};

#define FD_MAX 1024

struct fdtable {
    int refs; /* processes sharing it (CLONE_FILES) */
    struct file *fd[FD_MAX];
    bool cloexec[FD_MAX];
};

struct file *file_get(struct task *t, int fd); /* NULL if fd is not open */
/* Opens an absolute guest path (host O_* flags), following the virtual
 * trees' symlinks such as /proc/self/exe. */
int file_open_path(struct task *t, const char *abspath, int flags, int mode, struct file **out);
int fd_install(struct task *t, struct file *f, int min, bool cloexec);
/* Installs a new file at the lowest free descriptor and returns it, or
 * drops the file and returns -EMFILE. */
int fd_install_new(struct task *t, struct file *f, bool cloexec);
int fd_close(struct task *t, int fd);
void file_put(struct file *f);
static inline void file_ref(struct file *f) { f->refs++; }

/* Pipes: reads and writes return bytes, 0 at end of file, -EAGAIN when a
 * non-blocking end would block, or -EBLOCK with t->wait_obj set. */
int pipe_create(struct machine *m, struct file **rd, struct file **wr);
int64_t pipe_read(struct task *t, struct file *f, void *buf, size_t len);
int64_t pipe_write(struct task *t, struct file *f, const void *buf, size_t len);
void pipe_release(struct file *f);
/* F_SETPIPE_SZ: the new capacity in bytes, -EBUSY if the pipe holds more,
 * -EINVAL past 2 GiB, -ENOMEM. */
int64_t pipe_set_capacity(struct machine *m, struct pipe *p, uint64_t want);
/* poll(2) readiness of a file: POLLIN/POLLOUT/POLLHUP/POLLERR bits. */
short file_poll(struct task *t, struct file *f);
/* Whether the emulator's stdin has data or its end; if not, the host loop
 * watches it and notifies console_waitq when it has. */
bool console_ready(struct machine *m);
extern const int console_waitq;
struct file *file_new(enum file_kind kind);
/* A FILE_OBJECT file for priv, with a fresh inode number of the machine. */
struct file *file_new_object(struct machine *m, const struct file_ops *ops, void *priv, int flags);
/* An object's state changed: wakes the tasks blocked on obj (poll and
 * select waiters among them) and queues its epoll items, so they look
 * again. */
void file_notify(struct machine *m, const void *obj);
/* The same for a change that can only have made `events` (POLL* bits) true,
 * as epoll's edge-triggered items tell apart: a pipe read frees room
 * (POLLOUT), a write brings data (POLLIN). */
void file_notify_events(struct machine *m, const void *obj, unsigned events);
/* What file_notify calls f's object: the pointer its changes are told by
 * (NULL for files that are always ready). */
const void *file_notify_key(const struct file *f);
struct fdtable *fdtable_new_console(void);
struct fdtable *fdtable_copy(const struct fdtable *src);
void fdtable_put(struct fdtable *fdt);

/* What uname(2) and /proc/version call the emulated kernel. */
#define KERNEL_RELEASE "5.15.0-asymu"
#define KERNEL_VERSION "#1 SMP PREEMPT asymu"

/* ---- processes and tasks (task.c) ---- */

#define NSIG_GUEST 64
#define PER_LINUX32 0x0008
#define COMM_LEN 16
#define SIGBIT(sig) (UINT64_C(1) << ((sig) - 1))

/* What a queued signal carries into its siginfo. */
struct siginfo_lite {
    int code; /* si_code */
    int pid;  /* sender (SI_USER, SI_TKILL) or child (SIGCHLD) */
    int status; /* SIGCHLD: exit code or signal */
    uint64_t addr; /* faults: si_addr */
    uint64_t value; /* SI_QUEUE and friends: si_value */
    int uid;
    int timerid, overrun; /* SI_TIMER: si_timerid, si_overrun */
};

#define SIGRTMIN_GUEST 32
#define RTQUEUE_MAX 64

/* Signals waiting for delivery: one instance of each standard signal, and
 * every instance of a real-time one, in order (the kernel's sigpending). */
struct sigpending {
    uint64_t set;
    struct siginfo_lite info[SIGRTMIN_GUEST]; /* standard signals */
    struct {
        int sig;
        struct siginfo_lite info;
    } rt[RTQUEUE_MAX];
    unsigned nrt;
};

struct sighand {
    int refs; /* processes sharing it (CLONE_SIGHAND) */
    struct sigaction_guest action[NSIG_GUEST + 1];
};

enum task_state {
    TASK_RUNNABLE,
    TASK_BLOCKED,
    TASK_DEAD, /* exited: a thread is freed soon after, a leader when reaped (lifetime.h) */
};

/* Re-evaluates a blocked syscall when its task is woken: the result for the
 * guest, or RESUME_BLOCK to keep waiting. Runs with the task's registers
 * loaded. */
typedef int64_t (*resume_fn)(struct task *t);
#define RESUME_BLOCK INT64_MIN
/* Returned by a handler that blocked its task (task_block); a handler that
 * returns it without calling task_block is restarted whole when woken. */
#define EBLOCK 1000

/* One resource limit: soft and hard (rlimit.h). */
struct rlimit_pair {
    uint64_t cur, max;
};
#define GUEST_RLIM_NLIMITS 16

/* A thread group: what clone without CLONE_THREAD creates. */
struct process {
    struct machine *machine;
    int pid, pgid, sid;
    struct process *parent;
    struct process *children, *next_sibling;
    struct mm *mm;
    struct fdtable *files;
    struct sighand *sighand;
    unsigned personality;
    char exe[4096]; /* guest path of the image, for /proc/self/exe */
    char cwd[4096]; /* guest path */
    unsigned umask;  /* applied to the modes of what it creates (fs_calls.h) */
    struct rlimit_pair rlim[GUEST_RLIM_NLIMITS]; /* setrlimit: kept by fork and exec */
    struct cred cred;        /* user and group ids (cred.h): kept by fork and exec */
    struct sigpending pending; /* process-directed signals */
    int exit_signal;         /* sent to the parent at exit (SIGCHLD) */
    struct task *threads;    /* every live thread, and the leader until reaped */
    int live_threads;
    bool exiting;            /* exit_group or a fatal signal is ending it */
    bool zombie;             /* every thread is dead: the parent may reap it */
    bool stopped;            /* a stop signal froze it until SIGCONT */
    int stop_report;         /* the stop signal waitpid(WUNTRACED) has yet to report */
    bool cont_report;        /* a continue waitpid(WCONTINUED) has yet to report */
    int wait_status;         /* Linux wait(2) status: code << 8, or the signal */
    struct task *vfork_waiter; /* the parent task blocked until exec or exit (lifetime.h) */
    struct proc_timers *timers; /* POSIX timers and itimers (timers.h), or NULL */
    struct pty *ctty;        /* its controlling terminal if a pty (pty.h), NULL: the console */
    uint64_t child_cpu_ns, child_sys_ns; /* CPU time of reaped children (times, getrusage) */
    uint64_t exited_cpu_ns, exited_sys_ns; /* CPU time of its threads already freed */
};

/* ---- timers on virtual time (ktimer.c) ---- */

/* A callback at a virtual time: POSIX timers, itimers, timerfd, the timeout
 * of a task's timed wait. fire runs from the machine loop with no task
 * loaded. Timers due at the same time fire in the order they were armed. */
struct ktimer {
    uint64_t when; /* virtual ns; armed while in the machine's heap */
    bool armed;
    void (*fire)(struct ktimer *k);
    uint64_t seq;   /* arming order, for timers due at the same time */
    size_t heap_at; /* its place in the machine's heap while armed */
};

/* Arms k for virtual time `when` (re-arming moves it). */
void ktimer_arm(struct machine *m, struct ktimer *k, uint64_t when);
void ktimer_cancel(struct machine *m, struct ktimer *k);
/* The earliest armed timer, or NULL. */
struct ktimer *ktimer_next(const struct machine *m);
void ktimer_heap_free(struct machine *m);

/* A blocked task's place on one wait queue (waitq.h): its own wait
 * (wait_obj, wait_key) or one of the extra ones poll and select add for
 * each descriptor. */
struct wait_node {
    struct task *task;
    const void *obj;
    uint64_t key;
    struct wait_bucket *bucket; /* NULL while not queued */
    struct wait_node *next, *prev, *next_extra;
};

struct task {
    int tid;
    struct process *proc;
    struct machine *machine;
    enum task_state state;
    uc_context *ctx;       /* registers while the engine holds another task's */
    uint64_t sigmask;
    struct sigpending pending; /* thread-directed signals */
    struct siginfo_lite delivering; /* info of the signal whose frame is being built */
    int restart_kind;     /* an interrupted syscall's ERESTART* code (restart.h), 0 if none */
    resume_fn restart_fn; /* what restart_syscall continues, with restart_args (restart.h) */
    uint64_t restart_args[4];
    uint64_t saved_sigmask; /* restored after a handler interrupted rt_sigsuspend */
    bool restore_sigmask;
    uint64_t altstack_sp, altstack_size;
    int altstack_flags;
    struct sched_task se; /* affinity, vCPU, compat flag: the scheduler's view */
    int sched_policy, rt_priority; /* sched_setscheduler's class and priority */
    uint64_t clear_child_tid;
    uint64_t new_tls;      /* CLONE_SETTLS: applied when first loaded */
    bool has_new_tls;
    uint64_t fault_addr;   /* set by the memory fault hook */
    bool stop;             /* leave uc_emu_start after this syscall */
    resume_fn resume;      /* set while blocked in a syscall */
    const void *wait_obj;  /* what the blocked task waits on (task_wake_all) */
    uint64_t wait_key;     /* with wait_obj, its wait queue: a futex's address, else 0 */
    uint64_t wait_args[6]; /* a blocking handler's own state */
    uint64_t sys_args[6];  /* the blocked syscall's arguments (restart, strace) */
    const struct syscall_entry *sys_entry; /* the blocked syscall */
    char *strace_line;     /* its strace text, printed when it completes */
    uint64_t deadline_ns;  /* wake-up time of a timed wait, 0 if none */
    bool woken;            /* a futex wake (not a timeout or signal) ended the wait */
    uint64_t write_done;   /* bytes a blocking pipe write has written before it waited */
    uint64_t sys_ns;       /* CPU time spent in syscalls (system time) */
    struct process *vfork_child; /* the child this task waits for in vfork (lifetime.h) */
    struct task *next_thread, *next_all;
    /* The machine's indexes (waitq.h): its wait queue while blocked, the
     * timeout of a timed wait, the tid table, the task list. */
    struct wait_node wait_node;
    struct wait_node *extra_waits;
    struct ktimer timeout;
    struct task *next_tid, **prev_all;
    struct task *exited_next, **exited_pprev; /* machine->exited */
    struct ptrace_link *ptrace; /* its tracer and ptrace-stop (ptrace.h), NULL if untraced */
};

static inline struct mm *task_mm(struct task *t) { return t->proc->mm; }
static inline const struct abi *task_abi(struct task *t) { return t->proc->mm->abi; }

/* The first process (pid 1). */
struct task *task_create_init(struct machine *m);
struct task *task_find(struct machine *m, int tid);
/* task_find, and also a process leader that ended but is not reaped yet. */
struct task *task_find_unreaped(struct machine *m, int tid);
struct process *process_find(struct machine *m, int pid);
/* Blocks t in its current syscall until woken; resume decides the result. */
void task_block(struct task *t, resume_fn resume, const void *wait_obj, uint64_t deadline_ns);
void task_wake(struct task *t);
/* Wakes every task blocked on obj. */
void task_wake_all(struct machine *m, const void *obj);
/* Ends one thread (exit) or the whole group (exit_group, fatal signal). */
void task_exit(struct task *t, int code);
void process_exit_group(struct process *p, int wait_status);
/* Frees a zombie once its parent has collected its status. */
void process_reap(struct process *p);
/* The exit status of a shell: the code, or 128 + the signal. */
int wait_status_to_shell(int status);

/* clone/fork/vfork core: flags as clone(2); returns the child's tid or an errno. */
int64_t do_clone(struct task *t, uint64_t flags, uint64_t newsp, uint64_t parent_tid,
                 uint64_t tls, uint64_t child_tid);

/* ---- the machine (machine.c) ---- */

struct machine {
    const struct emu_config *cfg;
    struct task *current;    /* the task whose engine is running */
    uc_engine *running_uc;   /* engine inside uc_emu_start, or NULL */
    volatile uintptr_t bus_fault_host; /* set by the host SIGBUS handler (run.c) */
    struct mm *deferred_mms; /* freed once running_uc has stopped */
    struct mm *engines_lru;  /* address spaces with an open engine, most recently run first */
    unsigned engines_open;
    struct task *tasks;      /* every task, by creation */
    struct task **tasks_tail; /* the last next_all link */
    struct task_index *index; /* tasks by tid, wait queues (waitq.c) */
    struct ktimer **ktimer_heap; /* armed timers, a min-heap (ktimer.c) */
    size_t ktimers, ktimer_cap;
    uint64_t ktimer_seq;
    uint64_t next_ino;       /* inode numbers of object files */
    struct epitem **epitems; /* epoll items by the object they watch (epoll.c) */
    struct signalfd *signalfds; /* every signalfd, for queued signals (signalfd.c) */
    struct pidfd *pidfds;    /* every pidfd, for exits and reaping (pidfd.c) */
    struct sock *socks;      /* every socket (socket.c) */
    struct pty *ptys;        /* every pseudo-terminal pair, by index (pty.c) */
    struct fifo *fifos;      /* every named pipe opened (fifo.c) */
    struct owner_table *owners; /* owners the guest gave host files (owner.h) */
    struct sysv_ipc *sysv;   /* System V IPC objects (sysv_ipc.h), made on first use */
    uint32_t sock_autobind;  /* the last AF_UNIX autobind name (socket_name.c) */
    uint32_t sock_next_port; /* where the ephemeral port search starts */
    char uts_nodename[65], uts_domainname[65]; /* uname's names (uts.c) */
    struct sched sched;      /* vCPUs, runqueues, policies, virtual clocks */
    struct klog klog;        /* the kernel log (dmesg) */
    uint64_t klog_read, klog_cleared; /* syslog(2) positions */
    struct process *init;
    struct task *exited;     /* exited threads waiting to be freed (lifetime.h) */
    int nprocs;
    uint64_t slice_start;    /* virtual time the running slice started at */
    uint64_t slice_used;     /* blocks (and syscall costs) of the running slice */
    uint64_t slice_budget;   /* blocks the running slice may take */
    unsigned slice_cpu;      /* the vCPU running it */
    bool in_syscall;         /* a handler is running (strace ordering) */
    uint64_t mapped_unchecked; /* bytes mapped since the host's memory was checked */
    int64_t realtime_offset_ns; /* clock_settime(CLOCK_REALTIME) moved the wall clock */
    struct hostio *hostio;   /* libuv: host signals, the FUSE export */
    volatile int host_signal; /* SIGINT or SIGTERM from the host: stop */
    char exit_note[96];      /* strace's +++ line, printed after the syscall's */
    struct vfs vfs;
    uint64_t rng[4];    /* xoshiro256** state seeded from --seed */
    int next_pid;
    const struct abi *last_syscall_abi; /* the last guest syscall, for a crash report */
    uint64_t last_syscall_nr;
    uint64_t unknown_reported[8]; /* syscall numbers reported once as unknown */
    unsigned nunknown;
};

/* The kernel state the virtual /dev, /proc and /sys show (vfs_provider.c). */
extern const struct vfs_provider vfs_provider_kernel;

/* Virtual time now: the running slice's start plus what it has used. */
uint64_t machine_now(const struct machine *m);
/* Host events (hostio.c): starts the loop (and the FUSE export), serves
 * what is ready without waiting, stops and unmounts. */
int hostio_start(struct machine *m, char *why, size_t whylen);
void hostio_poll(struct machine *m);
/* Waits for a host event (stdin, FUSE, a signal) when a task waits for the
 * emulator's stdin: false when nothing on the host could wake a guest task. */
bool hostio_wait(struct machine *m);
void hostio_stop(struct machine *m);

/* Whether taking `more` bytes would leave the host less than --host-reserve
 * (hostmem.c): new processes and large mappings are refused then. */
bool host_memory_low(const struct machine *m, uint64_t more);
/* Opens the host's /proc/meminfo for host_memory_low, before the sandbox. */
void host_memory_open(void);

/* Sets up an empty machine for cfg (scheduler, kernel log, file namespace)
 * and frees it again once every process has gone. */
int machine_boot(struct machine *m, const struct emu_config *cfg);
void machine_shutdown(struct machine *m);
/* Runs until pid 1 exits; returns its shell-style status. */
int machine_run(struct machine *m);
void free_deferred_mms(struct machine *m);
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

/* Executes the guest path `path` (#! scripts through their interpreter,
 * ELF images through exec_fd): 0, or a negative errno with `why` naming the
 * defect. exec_program does the same for a program already open on host
 * fd `fd` (not closed), known to the guest as path. */
int exec_path(struct task *t, const char *path, char **argv, int argc, char **envp, char *why,
              size_t whylen);
int exec_program(struct task *t, int fd, const char *path, char **argv, int argc, char **envp,
                 char *why, size_t whylen);

/* ---- signals (signal.c) ---- */

/* Ends the whole thread group with the default action of sig. */
void signal_kill_process(struct task *t, int sig);
/* Queues sig for a process (any thread may take it) or for one thread. */
void signal_queue_process(struct process *p, int sig, const struct siginfo_lite *info);
void signal_queue_task(struct task *t, int sig, const struct siginfo_lite *info);
/* Delivers t's pending unblocked signals before it returns to user mode:
 * default actions, or a handler frame. t's registers are loaded. */
void signal_deliver(struct task *t);
/* Whether t must sit still because its process is stopped. */
bool signal_stopped(struct task *t);
/* Reads a guest siginfo_t: its si_signo, and what it carries. 0 or -EFAULT. */
int siginfo_from_guest(struct task *t, uint64_t uinfo, int *signo, struct siginfo_lite *info);
/* Takes t's oldest pending signal of set (its own, then its process's)
 * into *info: the signal, or 0 when none is pending. */
int signal_dequeue(struct task *t, uint64_t set, struct siginfo_lite *info);
/* Whether t has a signal it would take now (interrupts blocking waits). */
bool signal_pending(struct task *t);
/* Writes the siginfo of t's signal being delivered (word: 8 or 4). */
void signal_fill_info(struct task *t, int sig, uint8_t info[128], unsigned word);
/* Wakes up to n tasks waiting on the futex at uaddr of t's address space. */
int futex_wake(struct task *t, uint64_t uaddr, int n);
/* A synchronous fault: delivered to a handler if the guest has one, else
 * the process dies with one line on stderr (pid, signal, pc, address). */
void signal_fault(struct task *t, int sig, uint64_t pc, uint64_t addr, const char *what);
/* The same with a given si_code. */
void signal_fault_code(struct task *t, int sig, int code, uint64_t pc, uint64_t addr,
                       const char *what);

/* ---- syscalls (syscall.c, strace.c) ---- */

void syscall_dispatch(struct task *t);
/* Completes t's blocked syscall if its resume function allows: false while
 * it must keep waiting. t's registers are loaded. */
bool syscall_resume(struct task *t);
/* "SIGSEGV" for 11, NULL for numbers without a name. */
const char *signal_name(int sig);
void strace_enter(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                  char *buf, size_t len);
void strace_exit(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                 int64_t ret, const char *enter);
/* strace's "+++ exited with N +++" / "+++ killed by SIG +++" for a process. */
void strace_process_end(struct process *p);

/* Handlers shared by both ABIs, grouped by area (sys_*.c). */
#define SYSCALL_DECL(name) int64_t sys_##name(struct task *t, const uint64_t a[6])
SYSCALL_DECL(exit);
SYSCALL_DECL(exit_group);
SYSCALL_DECL(clone);
SYSCALL_DECL(clone3);
SYSCALL_DECL(fork);
SYSCALL_DECL(vfork);
SYSCALL_DECL(execve);
SYSCALL_DECL(wait4);
SYSCALL_DECL(waitid);
SYSCALL_DECL(setsid);
SYSCALL_DECL(getsid);
SYSCALL_DECL(setpgid);
SYSCALL_DECL(getpgid);
SYSCALL_DECL(getpgrp);
SYSCALL_DECL(rt_sigreturn);
SYSCALL_DECL(sigreturn);
SYSCALL_DECL(rt_sigsuspend);
SYSCALL_DECL(rt_sigpending);
SYSCALL_DECL(rt_sigtimedwait);
SYSCALL_DECL(sigaltstack);
SYSCALL_DECL(pause);
SYSCALL_DECL(rt_sigqueueinfo);
SYSCALL_DECL(rt_tgsigqueueinfo);
SYSCALL_DECL(pipe2);
SYSCALL_DECL(ppoll);
SYSCALL_DECL(poll);
int64_t do_ppoll(struct task *t, const uint64_t a[6], unsigned field);
/* Installs the signal mask at guest umask (size bytes) for a wait, as
 * ppoll does: 0, or -EINVAL/-EFAULT. */
int wait_with_mask(struct task *t, uint64_t umask, uint64_t size);
int64_t do_pselect6(struct task *t, const uint64_t a[6], unsigned field);
SYSCALL_DECL(pselect6);
SYSCALL_DECL(getpid);
SYSCALL_DECL(getppid);
SYSCALL_DECL(gettid);
SYSCALL_DECL(set_tid_address);
SYSCALL_DECL(set_robust_list);
SYSCALL_DECL(rseq);
SYSCALL_DECL(uname);
SYSCALL_DECL(personality);
SYSCALL_DECL(kill);
SYSCALL_DECL(tgkill);
SYSCALL_DECL(tkill);
SYSCALL_DECL(rt_sigaction);
SYSCALL_DECL(rt_sigprocmask);
SYSCALL_DECL(sched_yield);
SYSCALL_DECL(sched_getaffinity);
SYSCALL_DECL(sched_setaffinity);
SYSCALL_DECL(getcpu);
SYSCALL_DECL(setpriority);
SYSCALL_DECL(getpriority);
SYSCALL_DECL(sched_setscheduler);
SYSCALL_DECL(sched_getscheduler);
SYSCALL_DECL(sched_getparam);
SYSCALL_DECL(sched_setparam);
SYSCALL_DECL(sched_get_priority_max);
SYSCALL_DECL(sched_get_priority_min);
SYSCALL_DECL(syslog);
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
SYSCALL_DECL(pwrite64);
SYSCALL_DECL(sendfile);
int64_t do_sendfile(struct task *t, const uint64_t a[6], unsigned offset_word);
SYSCALL_DECL(mkdirat);
SYSCALL_DECL(unlinkat);
SYSCALL_DECL(renameat);
SYSCALL_DECL(renameat2);
SYSCALL_DECL(symlinkat);
SYSCALL_DECL(linkat);
SYSCALL_DECL(utimensat);
SYSCALL_DECL(fchmodat);
SYSCALL_DECL(fchmod);
SYSCALL_DECL(fchownat);
SYSCALL_DECL(fchown);
SYSCALL_DECL(ftruncate);
SYSCALL_DECL(fsync);
SYSCALL_DECL(fchdir);
SYSCALL_DECL(close_range);
int64_t do_utimensat(struct task *t, const uint64_t a[6], unsigned field);

SYSCALL_DECL(brk);
SYSCALL_DECL(mmap);
SYSCALL_DECL(munmap);
SYSCALL_DECL(mprotect);
SYSCALL_DECL(mremap);
SYSCALL_DECL(madvise);
SYSCALL_DECL(msync);
SYSCALL_DECL(mincore);
SYSCALL_DECL(memfd_create);
SYSCALL_DECL(copy_file_range);
SYSCALL_DECL(sync);
SYSCALL_DECL(syncfs);

SYSCALL_DECL(clock_gettime);
SYSCALL_DECL(clock_getres);
SYSCALL_DECL(clock_settime);
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
int64_t do_clock_settime(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_nanosleep(struct task *t, int clk, int flags, uint64_t req, uint64_t rem,
                           unsigned field);
int64_t do_nanosleep(struct task *t, uint64_t req, uint64_t rem, unsigned field);
/* A guest timespec as nanoseconds, or -EFAULT/-EINVAL. */
int64_t timespec_from_guest(struct task *t, uint64_t addr, unsigned field);
/* Writes ns as a guest timespec: 0 or -EFAULT. */
int timespec_to_guest(struct task *t, uint64_t addr, uint64_t ns, unsigned field);
int64_t do_futex(struct task *t, const uint64_t a[6], unsigned field);
/* Resolves a guest (dirfd, path) pair to an absolute guest path. */
int path_at(struct task *t, int dirfd, const char *path, char *out, size_t len);
int64_t path_from_guest(struct task *t, int dirfd, uint64_t upath, char *out, size_t len);

/* Prints once per syscall number that the guest used and asymu lacks. */
void syscall_report_unknown(struct task *t, uint64_t nr);

#endif
