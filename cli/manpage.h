/* SPDX-License-Identifier: GPL-2.0-or-later */
/* manpage.h - asymu(1) generated from the option table (manpage.c). */
#ifndef ASYMU_MANPAGE_H
#define ASYMU_MANPAGE_H

#include <stdio.h>

/* Writes asymu(1) in roff (man(7)). */
void manpage_write(FILE *out);

#endif
