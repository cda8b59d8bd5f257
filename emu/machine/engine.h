/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - Unicorn engines (engine.c): the one place that talks Unicorn
 * errors, and the one header that includes Unicorn's (others include
 * uc_fwd.h: docs/structure.md). */
#ifndef ASYMU_ENGINE_H
#define ASYMU_ENGINE_H

#include <unicorn/unicorn.h>

struct abi;
struct machine;
struct task;

int engine_open(const struct abi *abi, struct machine *m, uc_engine **out);
/* uc_hook_add(uc, h, type, callback, data, 1, 0) for an engine's first hook,
 * the call that makes Unicorn initialise the engine (engine.c says why). */
uc_err engine_first_hook(uc_engine *uc, uc_hook *h, int type, void *callback, void *data);
/* Runs t until it stops (exit, fault, a syscall that asks to leave, the
 * slice's end, or a single step's: engine_step.h). */
int engine_run(struct task *t);
void engine_close(uc_engine *uc);
/* Translates a Unicorn error into a negative errno. */
int engine_errno(uc_err err);

#endif
