/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_entry.h - an internal entry point for the syscall fuzz harness
 * (tests/fuzz/fuzz_syscall.c): a machine whose first process has loaded a
 * real program, into which the harness issues syscalls one at a time
 * through the real dispatch path, without running guest instructions.
 * Compiled into asymu_emu only when ASYMU_FUZZ is on. */
#ifndef ASYMU_FUZZ_ENTRY_H
#define ASYMU_FUZZ_ENTRY_H

#include <stdint.h>

struct emu_config;
struct machine;
struct task;

/* Boots a machine for cfg and executes cfg->argv[0] as pid 1 (its fds 0-2
 * are /dev/null, so the guest's writes stay quiet). NULL with a message on
 * stderr on failure. */
struct machine *emu_fuzz_boot(const struct emu_config *cfg);

/* pid 1's task: its registers are loaded in its engine. */
struct task *emu_fuzz_task(struct machine *m);

/* Puts nr and a[] in the task's syscall registers and dispatches it as the
 * svc/swi instruction would. A call that blocks is resumed once; if it still
 * waits, the wait is abandoned (the task is runnable again). Returns what
 * the guest would see in x0/r0, or 0 when the call ended the process (the
 * caller boots a new machine then). */
int64_t emu_fuzz_syscall(struct machine *m, uint64_t nr, const uint64_t a[6]);

/* Ends every process and frees the machine. */
void emu_fuzz_shutdown(struct machine *m);

#endif
