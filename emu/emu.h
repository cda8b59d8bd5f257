/* SPDX-License-Identifier: GPL-2.0-or-later */
/* emu.h - the public interface of emu/: configure and run the emulated machine. */
#ifndef ASYMU_EMU_H
#define ASYMU_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu_model.h"
#include "cpumask.h"
#include "sched_energy.h"
#include "sched_policy.h"

/* --trace-format */
enum emu_trace_format {
    EMU_TRACE_JSON,   /* Chrome Trace Event / Perfetto JSON */
    EMU_TRACE_FTRACE, /* the kernel's ftrace text, as trace-cmd report prints it */
    EMU_TRACE_DAT,    /* trace-cmd's trace.dat (binary ring-buffer records) */
};

/* Kernel work that costs virtual time (docs/timing.md), by its --costs name. */
enum emu_cost {
    EMU_COST_SYSCALL,    /* "syscall": entry and exit, every syscall (a getpid in all) */
    EMU_COST_PAGE_FAULT, /* "page_fault": an anonymous page's first touch */
    EMU_COST_FORK,       /* "fork": a new process (fork, clone without CLONE_VM) */
    EMU_COST_CLONE,      /* "clone": a thread or vfork (CLONE_VM: no memory copied) */
    EMU_COST_EXECVE,     /* "execve": replacing the image */
    EMU_COST_EXIT,       /* "exit": a process's teardown */
    EMU_COST_SIGNAL,     /* "signal": delivering to a handler and its sigreturn */
    EMU_COST_CTXSW,      /* "context_switch": a vCPU switching to another task */
    EMU_COST_NR
};

struct emu_costs {
    uint64_t ns[EMU_COST_NR]; /* on a capacity-1024 vCPU at its maximum frequency */
};

/* -E and -U options a run takes at most. */
#define EMU_ENV_EDITS_MAX 256

struct emu_config {
    unsigned cpus;          /* number of vCPUs, 1..NR_CPUS_MAX */
    struct cpumask aarch32; /* vCPUs that run AArch32 EL0 */
    uint16_t capacity[NR_CPUS_MAX]; /* cpu_capacity in sysfs (--capacity); 0 reads as 1024 */
    struct cpu_layout layout; /* core type, cluster, cpufreq policy per vCPU (--soc, --cpu-model) */
    struct sched_em em;       /* performance domains, energy model (--energy-model, --soc) */
    const char *cmdline;    /* emulated kernel command line */
    enum sched_policy_id policy; /* --policy */
    uint64_t seed;          /* every random value the guest sees derives from it */
    const char *sysroot;    /* guest "/" (a host directory) */
    bool rw;                /* the guest may write to the sysroot */
    bool keep_tmp;          /* keep the host directory behind the guest's /tmp */
    uint64_t tmp_size;      /* size limit of the guest's /tmp, 0: a quarter of the free space */
    const char *sysfs_mount; /* host directory for the live /sys and /proc, or NULL */
    const char *control_path; /* --control: the control socket to listen on, or NULL */
    bool gdb;               /* --gdb: serve the gdb stub */
    int gdb_port;           /* its TCP port on 127.0.0.1, 0: one the host picks */
    bool gdb_wait;          /* --gdb-wait: no instruction runs before gdb continues */
    const char *libprefix;  /* -L: tried first for absolute paths, like qemu-user */
    bool strace;            /* one line per guest syscall on stderr */
    bool dmesg;             /* print the kernel log on stderr at exit */
    bool check_invariants;  /* check the scheduler's invariants after every switch */
    bool no_sandbox;        /* do not confine the emulator (Landlock and seccomp) */
    bool no_kvm;            /* --no-kvm: the machine has no /dev/kvm */
    unsigned slice_blocks;  /* time slice in guest basic blocks, 0: default */
    unsigned hz;              /* --hz: CONFIG_HZ, the tick's frequency; 0: 250 */
    uint32_t insn_rate_milli; /* --insn-rate x1000: instructions per ns at capacity 1024, 0: default */
    const struct emu_costs *costs; /* --costs: kernel work's times, NULL: the defaults */
    struct emu_costs costs_file;   /* the table --costs read (options_parse points costs here) */
    uint64_t max_mem;       /* bytes per process, 0: 4 GiB (64-bit) / 3 GiB (32-bit) */
    unsigned max_procs;     /* live processes, fork fails with EAGAIN beyond */
    uint64_t host_reserve;  /* host memory never taken: ENOMEM in the guest instead */
    uint64_t max_kmem;      /* kernel-side buffers of the machine (kmem.h), 0: default */
    unsigned warm_engines;  /* engines kept open for address spaces not running, 0: default */
    const char *trace_path;    /* --trace: where the trace goes, or NULL */
    enum emu_trace_format trace_format;
    const char *timeline_path; /* --timeline: the SVG timeline, or NULL */
    FILE *trace_file;          /* the two opened for writing (emu_run closes them), or NULL */
    FILE *timeline_file;
    const char *record_path;   /* --record: write the host's input here, or NULL */
    const char *input_path;    /* --input: replay this recording instead, or NULL */
    struct recording *recording; /* made by emu_recording_open (emu_run frees it) */
    const char *cwd;        /* --cwd: the guest's starting directory, NULL: the default */
    const char *env_edits[EMU_ENV_EDITS_MAX]; /* -E VAR=VALUE, -U VAR, in order */
    unsigned nenv_edits;
    const char *program;    /* the file to run, NULL: argv[0] (binfmt_misc gives both) */
    int argc;               /* guest program and its arguments (argv[0]: a host path, or,
                             * with --sysroot, the path of a program inside it) */
    char **argv;
    char **envp;            /* guest environment */
};

/* The default cost table (docs/timing.md). */
void emu_costs_default(struct emu_costs *out);
/* The cost name of c ("fork"), NULL past the last. */
const char *emu_cost_name(unsigned c);
/* Reads a --costs file over the defaults: lines "name value_ns", blank lines
 * and # comments. 0, or -1 with "FILE:LINE: what is wrong" in why. */
int emu_costs_load(const char *path, struct emu_costs *out, char *why, size_t len);

/* Runs the machine until its first process ends. Returns the process's
 * status as a shell would report it (exit code, or 128 + signal), or a
 * negative errno if the machine could not start (a message has been printed
 * to stderr naming the program and the reason). */
int emu_run(const struct emu_config *cfg);

/* Opens --record's file (its header names argv, asymu's command line) or
 * loads --input's recording and checks it is of this run. 0, or -1 with
 * the reason on stderr ("FILE:LINE: ..." for a broken recording). */
int emu_recording_open(struct emu_config *cfg, int argc, char **argv);

/* The confinement the sandbox gives on this kernel, for --version:
 * "seccomp (argument-checked) + landlock ABI 3" (sandbox.c). */
void emu_confinement(char *out, size_t len);

/* The linked Unicorn library's version, "2.1.1". */
void emu_unicorn_version(char *out, size_t len);

/* docs/syscalls.md: every syscall of Linux 5.15's arm64 and arm tables and
 * whether asymu handles it (`asymu options-doc --syscalls`). */
void emu_syscalls_markdown(FILE *out);

#endif
