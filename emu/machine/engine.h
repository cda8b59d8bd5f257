/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - Unicorn engines (engine.c): the one place that talks Unicorn
 * errors. */
#ifndef ASYMU_ENGINE_H
#define ASYMU_ENGINE_H

#include <unicorn/unicorn.h>

struct abi;
struct machine;
struct task;

int engine_open(const struct abi *abi, struct machine *m, uc_engine **out);
/* Runs t until it stops (exit, fault, a syscall that asks to leave, the
 * slice's end, or a single step's: engine_step.h). */
int engine_run(struct task *t);
void engine_close(uc_engine *uc);
/* Translates a Unicorn error into a negative errno. */
int engine_errno(uc_err err);

#endif
