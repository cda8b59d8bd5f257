/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - the `asymu run` option table: parsing, validation, --help
 * and the generated option reference (docs/options.md). */
#ifndef ASYMU_OPTIONS_H
#define ASYMU_OPTIONS_H

#include <stdio.h>

#include "emu.h"

/* Parses `asymu run` arguments (argv[0] is the first argument after "run")
 * into cfg. Returns 0, 1 when --help was printed, or -1 after printing to
 * stderr what was wrong (option, value, what is allowed). */
int options_parse(int argc, char **argv, struct emu_config *cfg);

/* options_parse, with invalid values reported to errors (a scenario file's
 * machine section reuses the option parsers, cli/ -> scenario/). */
int options_parse_to(int argc, char **argv, struct emu_config *cfg, FILE *errors);

/* Writes the usage text generated from the option table. */
void options_usage(FILE *out);
/* Writes what --version prints: asymu's and Unicorn's versions, and the
 * confinement the sandbox gives on this kernel. */
void options_version(FILE *out);

/* Writes the option reference in Markdown, generated from the same table. */
void options_markdown(FILE *out);

/* --trace-format's names, indexed by enum emu_trace_format. */
extern const char *const options_trace_formats[];
extern const size_t options_trace_formats_count;

/* One row of the option table, for the man page and the completion. */
struct option_info {
    const char *name;  /* "--cpus" */
    const char *alias; /* "-L" or NULL */
    const char *arg;   /* metavariable, NULL for a flag */
    const char *deflt; /* default, as text */
};
size_t options_count(void);
/* Row i (below options_count()), its help text (with its list) in help. */
void options_describe(size_t i, struct option_info *info, char *help, size_t len);

#endif
