/* SPDX-License-Identifier: GPL-2.0-or-later */
/* help.h - the subcommands' help pages (help.c). */
#ifndef ASYMU_HELP_H
#define ASYMU_HELP_H

#include <stdbool.h>
#include <stddef.h>

/* What `asymu --help` prints: every command's synopsis. */
const char *help_overview(void);
/* The help page of a subcommand other than run, or NULL. */
const char *help_page(const char *command);
/* The i-th subcommand with a help page, or NULL past the last. */
const char *help_command(size_t i);
/* Whether --help or -h is among a subcommand's arguments (before any --). */
bool help_asked(int argc, char **argv);

#endif
