/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_step.c - one guest instruction for PTRACE_SINGLESTEP
 * (engine_step.h).
 *
 * uc_emu_start's instruction count would do it, but Unicorn 2.1.1 adds a
 * code hook over every address for such a run and removes it after, and
 * the engine then held its whole 1 GiB translation buffer: a tracer that
 * single-steps cost the host 1 GB per tracee (issue 24 item 4). Instead,
 * as the gdb stub steps, a code hook covers the instructions of the block
 * the step starts in (only that block is translated again), and the run
 * stops before the second instruction, or at the start of the next block
 * when the stepped one ends its block (the engine's block hook). */
#include "engine_step.h"
#include "abi.h"
#include "machine.h"
#include "task.h"

#include <unicorn/unicorn.h>

static void on_step(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr, (void)size;
    struct engine_step *s = &((struct machine *)user)->step;
    if (!s->active)
        return;
    if (s->moved) {
        s->active = false;
        uc_emu_stop(uc);
    } else {
        s->moved = true; /* the instruction it steps over runs now */
    }
}

void engine_step_begin(struct machine *m, struct task *t)
{
    struct engine_step *s = &m->step;
    uc_engine *uc = task_mm(t)->uc;
    *s = (struct engine_step){.uc = uc, .pc = task_abi(t)->get_pc(uc)};
    if (uc_hook_add(uc, &s->hook, UC_HOOK_CODE, (void *)on_step, m, 1, 0) != UC_ERR_OK)
        return;
    s->hooked = s->active = true;
    uc_ctl_remove_cache(uc, s->pc, s->pc + 1);
}

bool engine_step_block(struct machine *m)
{
    struct engine_step *s = &m->step;
    if (!s->active || !s->moved)
        return false;
    s->active = false;
    return true;
}

void engine_step_end(struct machine *m)
{
    struct engine_step *s = &m->step;
    if (!s->hooked)
        return;
    uc_hook_del(s->uc, s->hook);
    /* Blocks translated during the step keep their calls of on_step,
     * which return at once; the one it started in is translated again. */
    uc_ctl_remove_cache(s->uc, s->pc, s->pc + 1);
    *s = (struct engine_step){0};
}
