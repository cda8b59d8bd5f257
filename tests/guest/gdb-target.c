/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdb-target.c - the program Debian's gdb debugs inside the machine
 * (tests/conformance/gdb_check.py, docs/ptrace.md): built with -g -O0, its
 * source named /src/gdb-target.c. A breakpoint at main, a variable to
 * print, a call to step into, and an exit status. */
#include <stdio.h>

int counter = 41;

static int bump(int v)
{
    return v + 1;
}

int main(void)
{
    counter = bump(counter);
    printf("counter %d\n", counter);
    return 3;
}
