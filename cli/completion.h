/* SPDX-License-Identifier: GPL-2.0-or-later */
/* completion.h - asymu's bash completion, generated (completion.c). */
#ifndef ASYMU_COMPLETION_H
#define ASYMU_COMPLETION_H

#include <stdio.h>

/* Writes the bash completion script for asymu. */
void completion_write(FILE *out);

#endif
