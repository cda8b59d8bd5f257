/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.h - replacing a task's image with a program (exec.c). */
#ifndef ASYMU_EXEC_H
#define ASYMU_EXEC_H

#include <stddef.h>

struct task;

/* Executes the guest path `path` (#! scripts through their interpreter,
 * ELF images): 0, or a negative errno with `why` naming the
 * defect. exec_program does the same for a program already open on host
 * fd `fd` (not closed), known to the guest as path. */
int exec_path(struct task *t, const char *path, char **argv, int argc, char **envp, char *why,
              size_t whylen);
/* exec_path for execveat: the program at path, known to the guest as name
 * (bprm->filename: "/dev/fd/N/rel" for a path relative to a descriptor),
 * /proc/PID/exe still the program's path. */
int exec_path_named(struct task *t, const char *path, const char *name, char **argv, int argc,
                    char **envp, char *why, size_t whylen);
int exec_program(struct task *t, int fd, const char *path, char **argv, int argc, char **envp,
                 char *why, size_t whylen);

#endif
