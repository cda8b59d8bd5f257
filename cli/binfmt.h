/* SPDX-License-Identifier: GPL-2.0-or-later */
/* binfmt.h - asymu as the binfmt_misc interpreter of Arm programs (binfmt.c). */
#ifndef ASYMU_BINFMT_H
#define ASYMU_BINFMT_H

#include <stdbool.h>

/* `asymu binfmt register|unregister [--dir DIR] [--interpreter PATH]`
 * (argv[0] is register or unregister): the exit status. */
int binfmt_main(int argc, char **argv);

/* Whether asymu was started as the interpreter, `asymu-binfmt`: the kernel
 * then passes the program's path, its argv[0] and its arguments. */
bool binfmt_invoked(const char *argv0);

#endif
