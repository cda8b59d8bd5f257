/* help.h - the subcommands' help pages (help.c). */
#ifndef ASYMU_HELP_H
#define ASYMU_HELP_H

#include <stdbool.h>

/* The help page of a subcommand other than run, or NULL. */
const char *help_page(const char *command);
/* Whether --help or -h is among a subcommand's arguments (before any --). */
bool help_asked(int argc, char **argv);

#endif
