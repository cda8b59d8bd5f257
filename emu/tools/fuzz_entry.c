/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_entry.c - a booted machine for the syscall fuzz harness: pid 1 has
 * executed a real program (its image, stack and auxv are mapped, its
 * registers loaded) but never runs an instruction; the harness issues
 * syscalls into it through syscall_dispatch, as an svc/swi would. */
#include "abi.h"
#include "emu.h"
#include "exec.h"
#include "file.h"
#include "fuzz_entry.h"
#include "loader.h"
#include "machine.h"
#include "mm.h"
#include "scheduler.h"
#include "syscalls.h"
#include "sysv_ipc.h"
#include "task.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

struct machine *emu_fuzz_boot(const struct emu_config *cfg)
{
    struct machine *m = malloc(sizeof *m);
    if (!m || machine_boot(m, cfg) < 0) {
        free(m);
        return NULL;
    }
    struct task *t = task_create_init(m);
    char why[512] = "";
    int fd = open(cfg->argv[0], O_RDONLY | O_CLOEXEC);
    int err = fd < 0 ? -1 : 0;
    if (t && fd >= 0) {
        snprintf(t->proc->cwd, sizeof t->proc->cwd, "/");
        err = exec_program(t, fd, "/fuzz-target", cfg->argv, cfg->argc, cfg->envp, why,
                           sizeof why);
    }
    if (fd >= 0)
        close(fd);
    /* The console descriptors become /dev/null: the guest's writes would
     * otherwise fill the fuzzer's output. */
    for (int i = 0; t && err == 0 && i < 3; i++) {
        struct file *f;
        fd_close(t, i);
        if ((err = file_open_path(t, "/dev/null", O_RDWR, 0, &f)) == 0)
            fd_install(t, f, i, false);
    }
    if (!t || err != 0) {
        fprintf(stderr, "asymu fuzz: cannot boot %s: %s\n", cfg->argv[0],
                why[0] ? why : "no task or no /dev/null");
        emu_fuzz_shutdown(m);
        return NULL;
    }
    return m;
}

struct task *emu_fuzz_task(struct machine *m)
{
    return m->init->threads;
}

static void set_syscall_registers(struct task *t, uint64_t nr, const uint64_t a[6])
{
    uc_engine *uc = task_mm(t)->uc;
    if (task_abi(t)->isa == LOADER_ISA_AARCH64) {
        static const int regs[6] = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2,
                                    UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5};
        uc_reg_write(uc, UC_ARM64_REG_X8, &nr);
        for (int i = 0; i < 6; i++)
            uc_reg_write(uc, regs[i], &a[i]);
    } else {
        static const int regs[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,
                                    UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5};
        uint32_t v = (uint32_t)nr;
        uc_reg_write(uc, UC_ARM_REG_R7, &v);
        for (int i = 0; i < 6; i++) {
            v = (uint32_t)a[i];
            uc_reg_write(uc, regs[i], &v);
        }
    }
}

static int64_t result_register(struct task *t)
{
    uc_engine *uc = task_mm(t)->uc;
    if (task_abi(t)->isa == LOADER_ISA_AARCH64) {
        int64_t x0 = 0;
        uc_reg_read(uc, UC_ARM64_REG_X0, &x0);
        return x0;
    }
    int32_t r0 = 0;
    uc_reg_read(uc, UC_ARM_REG_R0, &r0);
    return r0;
}

/* Gives up a wait the fuzzer started: nothing would ever wake it, since no
 * other task runs. */
static void abandon_wait(struct task *t)
{
    sysv_cancel_wait(t);
    t->resume = NULL;
    t->wait_obj = NULL;
    t->wait_key = 0;
    t->deadline_ns = 0;
    free(t->strace_line);
    t->strace_line = NULL;
    task_wake(t);
}

int64_t emu_fuzz_syscall(struct machine *m, uint64_t nr, const uint64_t a[6])
{
    struct task *t = emu_fuzz_task(m);
    m->slice_used = 0;
    m->slice_fs = 0;
    m->slice_insns = 0;
    m->slice_start = sched_now(&m->sched);
    set_syscall_registers(t, nr, a);
    syscall_dispatch(t);
    if (t->state == TASK_BLOCKED && t->resume && !syscall_resume(t))
        abandon_wait(t);
    t->stop = false;
    free_deferred_mms(m);
    /* A failed sigreturn or a fatal signal ends the process: no registers. */
    return t->state == TASK_DEAD ? 0 : result_register(t);
}

void emu_fuzz_shutdown(struct machine *m)
{
    machine_shutdown(m);
    free(m);
}
