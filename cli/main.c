/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c - the asymu command: `asymu run ...`, `asymu ctl ...`, `asymu top
 * ...`, `asymu replay ...`, `asymu compare ...`, `asymu report merge ...`, `asymu report TRACE`, `asymu options-doc`,
 * `asymu help [COMMAND]`, `--help`, `--version`. The only place that
 * chooses exit statuses, but for ctl's and top's own (ctl.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binfmt.h"
#include "completion.h"
#include "ctl.h"
#include "help.h"
#include "manpage.h"
#include "emu.h"
#include "options.h"
#include "scenario.h"
#include "trace_report.h"

#define EXIT_USAGE 2
#define EXIT_CANNOT_EXECUTE 126
#define EXIT_NOT_FOUND 127

extern char **environ;

static void usage(FILE *out)
{
    fputs(help_overview(), out);
}

static void warn_old_unicorn(void)
{
    char v[32];
    emu_unicorn_version(v, sizeof v);
    if (strncmp(v, "2.0.", 4) == 0)
        fprintf(stderr, "asymu: warning: Unicorn %s runs guest stores about 6x slower than 2.1; "
                        "install libunicorn-dev >= 2.1 (scripts/bootstrap)\n", v);
}

/* Creates --trace and --timeline's files before anything runs (and before
 * the sandbox, which would not let the emulator create them later). */
static int open_trace_files(struct emu_config *cfg)
{
    const char *paths[2] = {cfg->trace_path, cfg->timeline_path};
    FILE **files[2] = {&cfg->trace_file, &cfg->timeline_file};
    for (int i = 0; i < 2; i++) {
        if (!paths[i])
            continue;
        *files[i] = fopen(paths[i], "we");
        if (!*files[i]) {
            fprintf(stderr, "asymu run: cannot create %s for %s: %s\n", paths[i],
                    i == 0 ? "--trace" : "--timeline", strerror(errno));
            if (i == 1 && cfg->trace_file)
                fclose(cfg->trace_file);
            return -1;
        }
    }
    return 0;
}

/* The guest's environment is asymu's (as qemu-user's is), except, in a
 * sanitizer or coverage-map build, the variables of those builds' runtimes
 * (tests/sanitize/): they are the host's, and a guest that saw them would
 * start differently from the same run of a normal build. */
static char **guest_environment(void)
{
#if defined(ASYMU_SANITIZED) || defined(ASYMU_COVERAGE_MAP)
    static const char *const host_only[] = {"ASAN_OPTIONS=", "UBSAN_OPTIONS=", "LSAN_OPTIONS=",
                                            "ASYMU_COVERAGE_DIR="};
    static char **kept; /* for the life of the run */
    size_t n = 0;
    while (environ[n])
        n++;
    if (!kept && !(kept = calloc(n + 1, sizeof *kept)))
        return environ;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool drop = false;
        for (size_t h = 0; h < sizeof host_only / sizeof *host_only; h++)
            drop |= strncmp(environ[i], host_only[h], strlen(host_only[h])) == 0;
        if (!drop)
            kept[k++] = environ[i];
    }
    return kept;
#else
    return environ;
#endif
}

/* Whether environment entry e names the variable of edit (VAR or VAR=...). */
static bool same_variable(const char *e, const char *edit)
{
    size_t n = strcspn(edit, "=");
    return strncmp(e, edit, n) == 0 && e[n] == '=';
}

/* env with -E VAR=VALUE and -U VAR applied in order (qemu-user's): a set
 * replaces VAR where it stands or is added at the end, an unset removes it. */
static char **apply_env_edits(char **env, const struct emu_config *cfg)
{
    static char **edited; /* for the life of the run */
    if (cfg->nenv_edits == 0)
        return env;
    size_t n = 0;
    while (env[n])
        n++;
    if (!(edited = calloc(n + cfg->nenv_edits + 1, sizeof *edited)))
        return env;
    memcpy(edited, env, n * sizeof *edited);
    for (unsigned i = 0; i < cfg->nenv_edits; i++) {
        const char *edit = cfg->env_edits[i];
        bool set = strchr(edit, '=') != NULL;
        size_t k = 0;
        while (k < n && !same_variable(edited[k], edit))
            k++;
        if (set && k < n)
            edited[k] = (char *)edit;
        else if (set)
            edited[n++] = (char *)edit;
        else if (k < n) {
            memmove(edited + k, edited + k + 1, (n - k - 1) * sizeof *edited);
            edited[--n] = NULL;
        }
    }
    return edited;
}

/* `asymu run`; program, when not NULL, is the file to run (binfmt_misc's
 * path), argv's PROGRAM then only the guest's argv[0]. */
static int cmd_run(int argc, char **argv, int all_argc, char **all_argv, const char *program)
{
    struct emu_config cfg;
    int r = options_parse(argc, argv, &cfg);
    if (r != 0)
        return r > 0 ? 0 : EXIT_USAGE;
    cfg.program = program;
    cfg.envp = apply_env_edits(guest_environment(), &cfg);
    if (emu_recording_open(&cfg, all_argc, all_argv) < 0)
        return EXIT_USAGE;
    if (open_trace_files(&cfg) < 0)
        return EXIT_USAGE;
    warn_old_unicorn();
    int status = emu_run(&cfg);
    if (status >= 0)
        return status;
    return status == -ENOENT || status == -ENOTDIR ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE;
}

static int unknown_command(const char *cmd)
{
    fprintf(stderr, "asymu: unknown command '%s'\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}

/* `asymu help [COMMAND]`: the command's own page (run's from its option
 * table), or the overview. */
static int cmd_help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[0], "run") == 0)
        return cmd_run(1, (char *[]){"--help", NULL}, 0, NULL, NULL);
    const char *page = help_page(argv[0]);
    if (!page)
        return unknown_command(argv[0]);
    fputs(page, stdout);
    return 0;
}

/* `asymu options-doc [--man | --bash-completion | --syscalls]`: the option reference in
 * Markdown (docs/options.md), asymu(1), or the bash completion. */
static int cmd_options_doc(int argc, char **argv)
{
    if (argc == 0)
        options_markdown(stdout);
    else if (argc == 1 && strcmp(argv[0], "--man") == 0)
        manpage_write(stdout);
    else if (argc == 1 && strcmp(argv[0], "--bash-completion") == 0)
        completion_write(stdout);
    else if (argc == 1 && strcmp(argv[0], "--syscalls") == 0)
        emu_syscalls_markdown(stdout);
    else {
        fprintf(stderr,
                "asymu options-doc: unknown argument '%s' (--man, --bash-completion or --syscalls)\n",
                argv[0]);
        return EXIT_USAGE;
    }
    return 0;
}

/* Started by the kernel as the binfmt_misc interpreter (binfmt.c): argv is
 * asymu-binfmt, the program's path, its argv[0] and its arguments; it runs
 * in a machine of the default options. */
static int cmd_binfmt_run(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "asymu-binfmt: started with %d arguments: the kernel's binfmt_misc "
                        "passes PATH ARGV0 [ARGS...] (flag P)\n", argc - 1);
        return EXIT_USAGE;
    }
    const char *program = argv[1];
    argv[1] = (char *)"--"; /* then the program's argv[0] and arguments */
    return cmd_run(argc - 1, argv + 1, argc, argv, program);
}

int main(int argc, char **argv)
{
    if (binfmt_invoked(argv[0]))
        return cmd_binfmt_run(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    /* `COMMAND --help` for the commands whose arguments are all asymu's
     * (ctl's after PATH COMMAND are the request's). */
    const char *page = help_page(cmd);
    if (page && (strcmp(cmd, "ctl") == 0 ? argc > 2 && help_asked(1, argv + 2)
                                          : help_asked(argc - 2, argv + 2))) {
        fputs(page, stdout);
        return 0;
    }
    if (strcmp(cmd, "help") == 0)
        return cmd_help(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 2, argv + 2, argc, argv, NULL);
    if (strcmp(cmd, "ctl") == 0)
        return ctl_main(argc - 2, argv + 2);
    if (strcmp(cmd, "binfmt") == 0)
        return binfmt_main(argc - 2, argv + 2);
    if (strcmp(cmd, "top") == 0)
        return top_main(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return scenario_cmd_replay(argc - 2, argv + 2, options_parse_to);
    if (strcmp(cmd, "compare") == 0)
        return scenario_cmd_compare(argc - 2, argv + 2, options_parse_to);
    /* `report merge ...` joins replay reports; `report TRACE` reads a trace */
    if (strcmp(cmd, "report") == 0)
        return argc > 2 && strcmp(argv[2], "merge") == 0 ? scenario_cmd_report(argc - 2, argv + 2)
                                                          : trace_report_main(argc - 2, argv + 2);
    if (strcmp(cmd, "scenario-exec") == 0) /* replay's and compare's child */
        return scenario_cmd_exec(argc - 2, argv + 2, options_parse_to);
    if (strcmp(cmd, "options-doc") == 0)
        return cmd_options_doc(argc - 2, argv + 2);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        options_version(stdout);
        return 0;
    }
    return unknown_command(cmd);
}
