/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine.c - the emulated machine: boot state from the configuration, the
 * seeded random generator, virtual time, and the run loop of the first
 * process. */
#include "abi.h"
#include "control.h"
#include "gdbstub.h"
#include "machine_events.h"
#include "machine_trace.h"
#include "tracefs.h"
#include "crash.h"
#include "emu.h"
#include "engine_exact.h"
#include "event.h"
#include "exec.h"
#include "fifo.h"
#include "flock.h"
#include "klog.h"
#include "ktimer.h"
#include "loader.h"
#include "hostblock.h"
#include "kcost.h"
#include "machine.h"
#include "mqueue.h"
#include "keys.h"
#include "first_program.h"
#include "mm_window.h"
#include "pagecopy.h"
#include "owner.h"
#include "ptrace.h"
#include "recording.h"
#include "sandbox.h"
#include "scheduler.h"
#include "shmem.h"
#include "socket.h"
#include "sysv_ipc.h"
#include "task.h"
#include "uts.h"
#include "vfs.h"
#include "waitq.h"
#include "script.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* 2025-01-01T00:00:00Z: the wall clock the guest sees at boot. */
#define BOOT_EPOCH_NS (1735689600ull * 1000000000ull)
#define BOOT_PARAM "allow_mismatched_32bit_el0"

const struct abi *abi_for_isa(enum loader_isa isa)
{
    return isa == LOADER_ISA_ARM ? &abi_arm : &abi_aarch64;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
uint64_t machine_random(struct machine *m)
{
    uint64_t *s = m->rng;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void machine_random_bytes(struct machine *m, void *buf, size_t len)
{
    uint8_t *p = buf;
    while (len) {
        uint64_t r = machine_random(m);
        size_t n = len < 8 ? len : 8;
        memcpy(p, &r, n);
        p += n;
        len -= n;
    }
}

uint64_t machine_now(const struct machine *m)
{
    /* Between slices the time is the scheduler's: a timer firing, or a
     * wake-up from outside any task, happens at its own moment, not at
     * the end of the slice that ran last. */
    if (!m->slice_task)
        return sched_now(&m->sched);
    uint64_t in_slice = m->slice_start + machine_slice_fs(m) / FS_PER_NS;
    return in_slice > sched_now(&m->sched) ? in_slice : sched_now(&m->sched);
}

void machine_slice_limit(struct machine *m)
{
    m->insn_stop = UINT64_MAX;
    /* A PTRACE_SINGLESTEP slice runs its one instruction whatever is due:
     * stopped before it, the step would report a pc that did not move. */
    if (!m->slice_task || !m->insn_fs || m->step.active)
        return;
    /* From the vCPU's own clock, which the slice advances (slice_start,
     * what the guest reads, may be later: another vCPU's present). */
    uint64_t clock = m->sched.cpus[m->slice_cpu].clock_ns;
    /* Every quantum and every tick end the slice: where slices end, and so
     * what the scheduler sees between them, depends on virtual time only,
     * with gdb attached too. */
    uint64_t due = (clock / SCHED_SYNC_QUANTUM_NS + 1) * SCHED_SYNC_QUANTUM_NS;
    uint64_t tick = sched_next_event(&m->sched, m->slice_cpu);
    if (tick < due)
        due = tick;
    const struct ktimer *kt = ktimer_next(m);
    if (kt && kt->when < due)
        due = kt->when;
    if (due == UINT64_MAX)
        return;
    uint64_t done_fs = machine_slice_fs(m);
    uint64_t due_fs = due > clock ? (due - clock) * FS_PER_NS : 0;
    if (due_fs <= done_fs) {
        m->insn_stop = m->slice_insns; /* due already: stop at the next block */
        return;
    }
    m->insn_stop = m->slice_insns + (due_fs - done_fs + m->insn_fs - 1) / m->insn_fs;
}

uint64_t machine_realtime_ns(struct machine *m)
{
    return BOOT_EPOCH_NS + machine_now(m) + (uint64_t)m->realtime_offset_ns;
}

static bool cmdline_has(const char *cmdline, const char *param)
{
    size_t n = strlen(param);
    for (const char *p = cmdline; (p = strstr(p, param)); p += n) {
        bool starts = p == cmdline || p[-1] == ' ';
        bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return true;
    }
    return false;
}

/* The guest's view of a host path: relative to the sysroot when inside it,
 * else the host's absolute path (what qemu-user shows). */
void guest_path_of(const char *sysroot, const char *host, char *out, size_t len)
{
    char root[PATH_MAX], abs[PATH_MAX];
    if (!realpath(host, abs)) {
        snprintf(out, len, "%s", host);
        return;
    }
    if (realpath(sysroot, root)) {
        size_t n = strlen(root);
        if (strcmp(root, "/") == 0)
            n = 0;
        if (strncmp(abs, root, n) == 0 && (abs[n] == '/' || abs[n] == '\0')) {
            snprintf(out, len, "%s", abs[n] ? abs + n : "/");
            return;
        }
    }
    snprintf(out, len, "%s", abs);
}

static void print_dmesg(const struct machine *m)
{
    size_t n = klog_read(&m->klog, 0, 0, NULL, 0);
    char *text = malloc(n + 1);
    if (text) {
        klog_read(&m->klog, 0, 0, text, n + 1);
        fputs(text, stderr);
        free(text);
    }
}

/* Frees every process and task left (all have exited by now). */
void machine_shutdown(struct machine *m)
{
    if (m->cfg->dmesg)
        print_dmesg(m);
    while (m->tasks) {
        struct process *p = m->tasks->proc;
        if (!p->zombie) {
            process_exit_group(p, SIGKILL);
            if (!p->zombie)
                break;
        }
        p->parent = NULL;
        process_reap(p);
    }
    mq_free_all(m); /* before sockets go: a notification holds one */
    keys_free_all(m);
    free_deferred_mms(m);
    host_blocks_free(m);
    window_faults_free(m);
    vfs_destroy(&m->vfs);
    sched_destroy(&m->sched);
    tracefs_free(m->tracefs); /* after the stream it is subscribed to */
    m->tracefs = NULL;
    klog_destroy(&m->klog);
    ktimer_heap_free(m);
    epoll_machine_free(m);
    fifo_machine_free(m);
    locks_machine_free(m);
    shmem_machine_detach(m);
    sock_io_free(m);
    owner_table_free(m);
    sysv_ipc_free(m);
    task_index_destroy(m);
}

int machine_boot(struct machine *m, const struct emu_config *cfg)
{
    memset(m, 0, sizeof *m);
    m->cfg = cfg;
    m->next_pid = 1;
    /* The guest's tracer sees stops and events before --gdb's stub, which
     * takes the next slot while it listens (gdbstub_start). */
    stop_hooks_set(m, STOP_HOOKS_GUEST, &ptrace_stop_hooks);
    sysctl_limits_init(m);
    uts_init(m);
    uint64_t x = cfg->seed;
    for (int i = 0; i < 4; i++)
        m->rng[i] = splitmix64(&x);
    int err = task_index_init(m);
    if (err < 0)
        return err;
    if ((err = klog_init(&m->klog, 0)) < 0)
        goto fail_klog_init;
    struct sched_config sc = {
        .nr_cpus = cfg->cpus,
        .aarch32 = cfg->aarch32,
        .allow_mismatched_32bit_el0 = cmdline_has(cfg->cmdline, BOOT_PARAM),
        .policy = cfg->policy,
        .seed = cfg->seed,
        .slice_blocks = cfg->slice_blocks,
        .log = &m->klog,
        .capacity = cfg->capacity,
        .insn_rate_milli = cfg->insn_rate_milli,
        .hz = cfg->hz,
        .em = &cfg->em,
        .cluster = cfg->layout.custom ? cfg->layout.cluster : NULL,
    };
    m->costs = kcost_table(cfg);
    if ((err = sched_init(&m->sched, &sc)) < 0) {
        fprintf(stderr, "asymu: cannot boot the scheduler: %s\n", strerror(-err));
        goto fail_sched_init;
    }
    /* A SoC preset's cpufreq policies: each vCPU's maximum frequency is its
     * policy's cpuinfo_max_freq, and it runs there (scaling_cur_freq)
     * until a governor is modelled. Capacity already holds the frequency
     * ratio between cores (topology_normalize_cpu_scale()). */
    for (unsigned cpu = 0; cpu < cfg->cpus; cpu++) {
        uint32_t khz = cpu_layout_max_khz(&cfg->layout, cpu);
        if (khz) {
            m->sched.cpus[cpu].max_freq_khz = khz;
            sched_cpu_set_freq(&m->sched, cpu, khz);
        }
    }
    cgroup_init(m);
    /* The modes of the files the guest creates are its own: the kernel
     * layer applies the guest's umask (fs_calls.h), the host's must not. */
    umask(0);
    char why[512];
    struct vfs_options vo = {cfg->sysroot, cfg->rw, cfg->libprefix, cfg->keep_tmp, cfg->tmp_size};
    if ((err = vfs_init(&m->vfs, &vo, &vfs_provider_kernel, why, sizeof why)) < 0) {
        fprintf(stderr, "asymu: %s\n", why);
        goto fail_vfs_init;
    }
    machine_events_init(m);
    return 0;

fail_vfs_init:
    sched_destroy(&m->sched);
fail_sched_init:
    klog_destroy(&m->klog);
fail_klog_init:
    task_index_destroy(m);
    return err;
}

/* Every guest process's files are asymu's host descriptors, and Debian's
 * default soft limit of 1024 let two guest processes with 1,000 files each
 * starve a third (issue 24, item 8). The soft limit goes up to the hard one
 * (Linux's default hard limit, 4096, or what the user allows); each guest
 * process keeps its own RLIMIT_NOFILE (kernel/rlimit.c), and the machine
 * out of host descriptors is ENFILE to the guest (kernel/syscall.c). */
static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int machine_host_start(struct machine *m)
{
    const struct emu_config *cfg = m->cfg;
    signal(SIGPIPE, SIG_IGN);
    raise_nofile();
    /* Unicorn asks for huge pages for every engine's translation buffer:
     * each new process then zeroes 2 MiB pages it barely uses (more than
     * half of a fork's cost, and of an idle process's memory). */
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    /* Each engine allocates megabytes (Unicorn's 512 KiB translation hash
     * table, its soft TLB, CPU state) and frees them when its process ends.
     * By default glibc serves large blocks with their own mmap and gives a
     * freed heap top back beyond 128 KiB, so every new process faulted all
     * of them in again, zeroed by the host. Kept in the heap, the next
     * engine reuses them: fork+_exit+wait took 40% less CPU time
     * (bench/README.md, "Process creation"). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    host_memory_open();
    pagecopy_open();
    engine_exact_open();
    crash_guard_start(m);
    /* The janitor cleans up at every end: the sandboxed emulator cannot. */
    int err = crash_janitor_start(&(struct janitor_paths){
        .dirs = {cfg->keep_tmp ? NULL : m->vfs.tmp_path, cfg->keep_tmp ? NULL : m->vfs.shm_path,
                 m->vfs.programs_path},
        .control = cfg->control_path,
        .mount = cfg->sysfs_mount,
    });
    if (err < 0)
        fprintf(stderr, "asymu: cannot start the janitor process: %s\n", strerror(-err));
    return err;
}

int machine_confine_and_run(struct machine *m)
{
    const struct emu_config *cfg = m->cfg;
    char why[512];
    int status;
    if ((status = hostio_start(m, why, sizeof why)) < 0 ||
        (!cfg->no_sandbox && (status = sandbox_enter(&(struct sandbox_paths){
                                  .root_fd = m->vfs.mounts[VFS_MOUNT_ROOT].fd,
                                  .root_writable = cfg->rw,
                                  .lib_fd = m->vfs.lib_fd,
                                  .tmp_fd = m->vfs.mounts[VFS_MOUNT_TMP].fd,
                                  .programs_fd = m->vfs.mounts[VFS_MOUNT_PROGRAMS].fd,
                                  .shm_fd = m->vfs.mounts[VFS_MOUNT_SHM].fd,
                                  .control_fd = control_listen_fd(m),
                                  .gdb_fd = gdbstub_listen_fd(m),
                              }, why, sizeof why)) < 0)) {
        fprintf(stderr, "asymu: %s\n", why);
        return status;
    }
    return machine_run(m);
}

void machine_host_stop(struct machine *m)
{
    const struct emu_config *cfg = m->cfg;
    hostio_stop(m); /* closes the FUSE session; the janitor unmounts it */
    if (crash_janitor_clean() < 0)
        fprintf(stderr, "asymu: warning: the janitor process did not answer; these may stay "
                        "behind: %s %s%s%s\n", m->vfs.tmp_path, m->vfs.shm_path,
                m->vfs.programs_path[0] ? " " : "", m->vfs.programs_path);
    /* The janitor's to remove: the sandbox cannot. */
    if (!cfg->keep_tmp)
        m->vfs.tmp_path[0] = m->vfs.shm_path[0] = '\0';
    m->vfs.programs_path[0] = '\0';
    machine_shutdown(m);
    crash_guard_stop();
}

int emu_run(const struct emu_config *cfg)
{
    struct machine m;
    struct machine_trace trace;
    int err = machine_boot_traced(&m, &trace, cfg);
    if (err < 0) {
        recording_free(cfg->recording);
        return err;
    }
    recording_attach(&m);
    err = machine_host_start(&m);
    struct task *t = err < 0 ? NULL : task_create_init(&m);
    if (!t) {
        machine_trace_finish(&trace, &m);
        machine_shutdown(&m);
        crash_guard_stop();
        recording_free(m.recording);
        return err < 0 ? err : -ENOMEM;
    }
    /* A --cwd the guest does not have is a bad option: status 2. */
    int status = first_program_cwd(t, cfg) < 0 ? 2 : 0;
    const char *prog = cfg->program ? cfg->program : cfg->argv[0];
    char exe[PATH_MAX], why[512] = "";
    int fd = status ? -1 : first_program_open(cfg, exe, sizeof exe);
    if (status == 0 && fd < 0) {
        status = fd;
        fprintf(stderr, "asymu: %s: %s\n", prog, strerror(-fd));
    }
    if (fd >= 0) {
        status = exec_program(t, fd, exe, cfg->argv, cfg->argc, cfg->envp, why, sizeof why);
        close(fd);
        if (status < 0)
            fprintf(stderr, "asymu: %s: %s\n", prog, why[0] ? why : strerror(-status));
        else
            status = recording_finish(&m, machine_confine_and_run(&m));
    }
    machine_trace_finish(&trace, &m);
    machine_host_stop(&m);
    recording_free(m.recording);
    return status;
}
