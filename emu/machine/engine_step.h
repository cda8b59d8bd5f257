/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_step.h - running exactly one guest instruction of a task, for
 * PTRACE_SINGLESTEP, without uc_emu_start's instruction count
 * (engine_step.c). */
#ifndef ASYMU_ENGINE_STEP_H
#define ASYMU_ENGINE_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "uc_fwd.h"

struct machine;
struct task;

struct engine_step {
    uc_engine *uc;
    uc_hook hook;
    uint64_t pc;  /* where the step starts */
    bool hooked;  /* hook is in uc until engine_step_end */
    bool active;  /* the step has not ended */
    bool moved;   /* its instruction has begun */
};

/* Before t's run: the run will stop after one instruction. */
void engine_step_begin(struct machine *m, struct task *t);
/* The engine's block hook: a block begins. True when the step has ended
 * before it: the run stops there (the hook stops it). */
bool engine_step_block(struct machine *m);
/* After the run: no hook stays in the engine. */
void engine_step_end(struct machine *m);

#endif
