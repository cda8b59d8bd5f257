/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine_exact.h - the exact guest PC at a memory fault on Unicorn 2.1.1,
 * which leaves the PC at the start of the translated block
 * (engine_exact.c). */
#ifndef ASYMU_ENGINE_EXACT_H
#define ASYMU_ENGINE_EXACT_H

#include <stdbool.h>
#include <stdint.h>

#include "uc_fwd.h"

struct abi;

/* Opens /proc/self/maps, before the sandbox. */
void engine_exact_open(void);
/* Finds, on the process's first engine, where engines keep their CPUState. */
void engine_exact_find(uc_engine *uc, const struct abi *abi);
/* Sets uc's guest state to the instruction whose translated code holds the
 * host return address host_pc: false if no translated block holds it. */
bool engine_exact_restore(uc_engine *uc, const struct abi *abi, uintptr_t host_pc);
/* The same from inside a hook that translated code called (a memory
 * access's): walks the host stack to the translated code's frame. */
bool engine_exact_restore_caller(uc_engine *uc, const struct abi *abi);
/* From a host signal handler: when host_pc, the host instruction that
 * faulted, is a guest access in translated code, sets the guest state to
 * that access's instruction, ends the run there (the access never happens)
 * and does not return; false otherwise. sig is unblocked first. */
bool engine_exact_abort(uc_engine *uc, const struct abi *abi, int sig, uintptr_t host_pc);

#endif
