/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.c - pid 1 of the fuzz harnesses' machines. It is loaded (image,
 * stack, auxv) but never runs: the harness issues the syscalls itself. */
#include <unistd.h>

int main(void)
{
    for (;;)
        pause();
}
