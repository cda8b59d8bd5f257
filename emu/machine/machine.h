/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine.h - the emulated machine (machine.c): every task, the scheduler,
 * the kernel log, the file namespace, host events (hostio.c) and the loop
 * that runs it all (run.c). */
#ifndef ASYMU_MACHINE_H
#define ASYMU_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup.h"
#include "deferred.h"
#include "engine_step.h"
#include "klog.h"
#include "scheduler.h"
#include "stop_hooks.h"
#include "sysctl.h"
#include "uc_fwd.h"
#include "vfs.h"

struct abi;
struct emu_config;
struct epitem;
struct fifo;
struct file_lock;
struct hostio;
struct insn_cache;
struct ktimer;
struct control;
struct gdbstub;
struct mm;
struct owner_table;
struct pidfd;
struct process;
struct pty;
struct recording;
struct machine_trace;
struct shmem;
struct signalfd;
struct script_run;
struct sock;
struct sysv_ipc;
struct task;
struct task_index;
struct host_blocks;
struct window_faults;

struct machine {
    const struct emu_config *cfg;
    struct task *current;    /* the task whose engine is running */
    uc_engine *running_uc;   /* engine inside uc_emu_start, or NULL */
    volatile uintptr_t bus_fault_host; /* set by the host SIGBUS handler (run.c) */
    struct mm *deferred_mms; /* freed once running_uc has stopped */
    struct mm *engines_lru;  /* address spaces with an open engine, most recently run first */
    struct window_faults *window_faults; /* guest faults inside engine windows (mm_window.h) */
    struct host_blocks *host_blocks; /* host memory kept for reuse (hostblock.h) */
    struct shmem *shmems;    /* live shared memory objects, one per host inode (shmem.h) */
    unsigned engines_open;
    struct task *tasks;      /* every task, by creation */
    struct task **tasks_tail; /* the last next_all link */
    uint64_t futex_pi_seq;    /* PI futex waiters queued so far (futex_pi.c) */
    struct task_index *index; /* tasks by tid, wait queues (waitq.c) */
    struct ktimer **ktimer_heap; /* armed timers, a min-heap (ktimer.c) */
    size_t ktimers, ktimer_cap;
    uint64_t ktimer_seq;
    uint64_t next_ino;       /* inode numbers of object files */
    struct epitem **epitems; /* epoll items by the object they watch (epoll.c) */
    struct deferred_list aio_deferred;   /* AIO requests waiting on an object (aio.c) */
    struct deferred_list uring_deferred; /* io_uring requests waiting (io_uring_req.c) */
    uint64_t aio_nr;         /* events the AIO contexts asked for: /proc/sys/fs/aio-nr */
    struct inotify *inotifies; /* every inotify instance, by creation (inotify.c) */
    unsigned fsnotify_marks; /* inotify watches of all instances: 0 skips the hooks (fsnotify.h) */
    uint32_t fsnotify_cookie; /* the last rename cookie (fsnotify_get_cookie) */
    struct signalfd *signalfds; /* every signalfd, for queued signals (signalfd.c) */
    struct pidfd *pidfds;    /* every pidfd, for exits and reaping (pidfd.c) */
    struct sock *socks;      /* every socket (socket.c) */
    struct pty *ptys;        /* every pseudo-terminal pair, by index (pty.c) */
    struct fifo *fifos;      /* every named pipe opened (fifo.c) */
    struct file_lock *locks; /* every flock and POSIX record lock (flock.c) */
    struct owner_table *owners; /* owners the guest gave host files (owner.h) */
    struct sysv_ipc *sysv;   /* System V IPC objects (sysv_ipc.h), made on first use */
    struct mq_ns *mq;        /* POSIX message queues (mqueue.h), made on first use */
    struct key_ns *keys;     /* the key retention service (keys.h), made on first use */
    struct sysctl_limits limits; /* the IPC, keys, AIO and inotify limits of /proc/sys (sysctl.h) */
    uint32_t sock_autobind;  /* the last AF_UNIX autobind name (socket_name.c) */
    uint32_t sock_next_port; /* where the ephemeral port search starts */
    uint8_t *sock_io_buf;    /* sendmsg's and recvmsg's bounce buffer, made on first use (sys_socket.c) */
    char uts_nodename[65], uts_domainname[65]; /* uname's names (uts.c) */
    struct cgroups cgroups;  /* /sys/fs/cgroup (cgroup.h) */
    struct sched sched;      /* vCPUs, runqueues, policies, virtual clocks */
    struct klog klog;        /* the kernel log (dmesg) */
    unsigned kvm_vcpus;      /* live KVM vCPUs, each a Unicorn engine (kvm.c) */
    uint64_t klog_read, klog_cleared; /* syslog(2) positions */
    struct process *init;
    struct task *exited;     /* exited threads waiting to be freed (lifetime.h) */
    int nprocs;
    uint64_t slice_start;    /* virtual time the running slice started at */
    uint64_t slice_used;     /* blocks (and syscall costs) of the running slice */
    uint64_t slice_budget;   /* blocks a KVM vCPU's slice may take (kvm_run.c) */
    unsigned slice_cpu;      /* the vCPU running it */
    /* Virtual time of the running slice on its vCPU (docs/timing.md): the
     * instructions it retired (the block hook only adds their count) and
     * the kernel's work, in femtoseconds: machine_slice_fs() sums them. */
    uint64_t slice_insns;
    uint64_t slice_fs;
    struct task *slice_task; /* whose slice it is (kcost_charge), NULL between slices */
    const struct emu_costs *costs; /* kernel work's times (kcost.h) */
    uint64_t insn_fs;        /* one instruction on the slice's vCPU, in fs */
    /* The running slice stops at the first block boundary where
     * slice_insns reaches this: the instruction at which the next timer,
     * tick or sync quantum is due, so that it comes at its virtual time
     * whatever --slice is (machine_slice_limit, docs/timing.md). */
    uint64_t insn_stop;
    /* The running slice is single-stepped (gdb attached, PTRACE_SINGLESTEP):
     * the block hooks ask whether the step ends at each block (engine.c). */
    bool watch_blocks;
    struct insn_cache *insn_cache; /* the running mm's Thumb counts, NULL: none */
    bool in_syscall;         /* a handler is running (strace ordering) */
    uint64_t mapped_unchecked; /* bytes mapped since the host's memory was checked */
    uint64_t kmem_used;      /* kernel-side buffers held for the guest (kmem.h) */
    uint64_t kmem_unchecked; /* bytes charged since the host's memory was checked */
    unsigned slices_unchecked; /* slices run since engines were checked (run.c) */
    bool engines_reclaimed;  /* engines were closed for the host's reserve (run.c) */
    int64_t realtime_offset_ns; /* clock_settime(CLOCK_REALTIME) moved the wall clock */
    /* adjtimex's NTP state, machine-wide as Linux's kernel/time/ntp.c
     * (emu/kernel/adjtimex.c), and settimeofday's timezone. */
    struct ntp_state {
        bool ready;             /* set to ntp_clear()'s values on first use */
        int state;              /* time_state: TIME_OK */
        int status;             /* time_status: STA_UNSYNC at boot */
        int64_t freq;           /* time_freq, scaled ns/s << 32 */
        int64_t offset;         /* time_offset, scaled */
        int64_t maxerror, esterror; /* us */
        int64_t maxerror_sec;   /* the realtime second maxerror was last grown to */
        int64_t constant;       /* time_constant */
        int64_t tick;           /* tick_usec */
        int64_t adjust;         /* time_adjust (adjtime(3)) */
        int64_t reftime;        /* time_reftime, realtime seconds */
        int tai;                /* tk->tai_offset */
        int tz_minuteswest, tz_dsttime; /* sys_tz */
    } ntp;
    struct hostio *hostio;   /* libuv: host signals, the FUSE export */
    struct control *control; /* --control's socket and its hold on the machine (control.h) */
    struct recording *recording; /* --record or --input: host input written or replayed (recording.h) */
    struct machine_trace *trace; /* the run's trace writers, for `trace on|off` (machine_trace.h) */
    struct tracefs *tracefs; /* the guest's /sys/kernel/tracing, made on first use (tracefs.h) */
    uint32_t tracefs_kinds;  /* the mevent kinds it is subscribed to */
    struct gdbstub *gdb;     /* --gdb's stub and its hold on the machine (gdbstub.h) */
    struct script_run *script; /* the scenario script it runs, NULL: none (script.c) */
    /* The debuggers' stops and events, asked in slot order: ptrace's, then
     * --gdb's while it listens (stop_hooks.h). */
    const struct stop_hooks *stop_hooks[STOP_HOOKS_N];
    struct engine_step step; /* a PTRACE_SINGLESTEP under way (engine_step.h) */
    bool arm_undef;          /* the running AArch32 engine met an undefined instruction (engine.c) */
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
/* Sets insn_stop for the running slice from the next sync quantum, the
 * next tick and the earliest armed timer; called when the slice starts,
 * when a timer is armed during it and after kernel work adds to its time. */
void machine_slice_limit(struct machine *m);
/* What the running slice has used so far on its vCPU, in femtoseconds. */
static inline uint64_t machine_slice_fs(const struct machine *m)
{
    return m->slice_fs + m->slice_insns * m->insn_fs;
}
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

#endif
