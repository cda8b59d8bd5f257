/* SPDX-License-Identifier: GPL-2.0-or-later */
/* first_program.h - the run's first program and its starting directory
 * (first_program.c). */
#ifndef ASYMU_FIRST_PROGRAM_H
#define ASYMU_FIRST_PROGRAM_H

#include <stddef.h>

#include "emu.h"

struct task;

/* Opens cfg's PROGRAM (cfg->program, else argv[0]) for reading: with a
 * --sysroot, an absolute path not inside it is first taken as the guest's
 * path inside it, then as a host path. Returns the fd with its guest path
 * in exe, or -errno. */
int first_program_open(const struct emu_config *cfg, char *exe, size_t len);

/* Sets the first task's working directory: --cwd (an error, printed, if the
 * guest has no such directory), else the host's working directory where
 * the guest has it, else /. Returns 0 or -errno. */
int first_program_cwd(struct task *t, const struct emu_config *cfg);

#endif
