/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitcode.c - exits with the status given as argv[1] (exit(3) keeps its
 * low 8 bits), or 0 when there is none. */
#include <stdlib.h>

int main(int argc, char **argv)
{
    exit(argc > 1 ? atoi(argv[1]) : 0);
}
