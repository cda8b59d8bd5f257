/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scenario.h - scenario files (docs/scenarios.md): a machine, files for the
 * guest's /tmp, tasks, timed events and expectations, parsed from YAML
 * (libyaml); their run in a child process, whose outcome is JSON; and the
 * verdict of each expectation on that outcome. */
#ifndef ASYMU_SCENARIO_H
#define ASYMU_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "emu.h"
#include "sched_policy.h"
#include "script.h"

/* Bounds of a scenario file (docs/scenarios.md "Limits"): what a hostile
 * file may make asymu hold or do is in proportion to these. */
#define SCENARIO_MAX_BYTES (4u << 20)        /* the YAML file itself */
#define SCENARIO_MAX_DEPTH 64                /* nested lists and mappings */
#define SCENARIO_MAX_TASKS 4096              /* tasks (--max-procs's default) */
#define SCENARIO_MAX_FILE_BYTES (16u << 20)  /* one files: entry */
#define SCENARIO_MAX_FILES_BYTES (64u << 20) /* all of them */
/* A task's arguments and environment: what asymu's execve takes
 * (strings_from_guest, emu/kernel/sys_task.c: 65536 strings each, 2 MiB of
 * strings and pointers together, Linux's bprm_stack_limits with an 8 MiB
 * stack), pointers counted as 8 bytes. More could not start the task. */
#define SCENARIO_MAX_ARGS 65536
#define SCENARIO_MAX_ARG_BYTES (2u << 20)

/* Exit statuses of replay and compare. */
#define SCENARIO_EXIT_PASS 0
#define SCENARIO_EXIT_FAIL 1
#define SCENARIO_EXIT_BROKEN 2


/* What an expectation checks. Each kind is one matcher in expect.c. */
enum expect_kind {
    EXPECT_EXIT,            /* task's exit status */
    EXPECT_SIGNAL,          /* task killed by a signal */
    EXPECT_AFFINITY,        /* task's affinity when it ended */
    EXPECT_STDOUT,          /* task's stdout equals */
    EXPECT_STDOUT_CONTAINS,
    EXPECT_STDOUT_MATCHES,  /* POSIX extended regex */
    EXPECT_KLOG_CONTAINS,   /* lines with these texts, in this order */
    EXPECT_KLOG_LACKS,      /* no line with any of these texts */
    EXPECT_FILE,            /* a /sys or /proc file's content at a time */
    EXPECT_INVARIANTS,      /* --check-invariants found nothing */
    EXPECT_TIME_UNDER,      /* every task ended before this virtual time */
    /* From the machine's event stream (the task's process). */
    EXPECT_ONLY_ON,         /* every vCPU it ran on is in mask */
    EXPECT_NEVER_ON,        /* no vCPU it ran on is in mask */
    EXPECT_CPUS_USED,       /* the vCPUs it ran on are mask */
    EXPECT_AFFINITY_HISTORY, /* its affinity changes, "OLD -> NEW (RULE)" each */
    EXPECT_SAVED_MASK,      /* its saved mask when it ended, or after each execve */
    /* Quantitative (quant.c), of the task's threads or those a pattern names. */
    EXPECT_RESIDENCY,       /* share of its running time spent on mask */
    EXPECT_MIGRATIONS,      /* moves between vCPUs */
    EXPECT_WAKEUP_LATENCY,  /* a percentile of its wake-up to running times */
    EXPECT_RUNNABLE_WAIT,   /* time runnable but not running, in all */
    EXPECT_UTILISATION,     /* vCPU `number`'s share of the run spent running tasks */
    EXPECT_DEADLINE_MISSES, /* periodic activations whose run ended after the next period */
    EXPECT_THROUGHPUT,      /* completions of the phase named `text` per second of the run */
};

struct expectation {
    enum expect_kind kind;
    int line;               /* of the expectation's key, for messages */
    int task;               /* index in tasks, or -1 */
    long number;            /* exit status, signal */
    struct cpumask mask;    /* affinity */
    char *text;             /* stdout, file content, regex */
    char **texts;           /* kernel log texts, affinity changes, saved masks */
    size_t ntexts;
    uint64_t ns;            /* time bound */
    int read;               /* EXPECT_FILE: index of its read in the script's actions */
    const char *isa;        /* only_on, never_on, cpus_used: "aarch64", "arm" or NULL (both) */
    unsigned policies;      /* bit per enum sched_policy_id where it applies; 0: every policy */
    /* Quantitative: whose threads (task, or a glob on their comm), the
     * bounds (percentages in thousandths of a percent, rates in
     * thousandths per second), as written. */
    const char *pattern;
    unsigned percentile;    /* wakeup_latency: 50, 90, 99, or 100 for max */
    bool has_lo, has_hi;
    uint64_t lo, hi;
    const char *bound;      /* "at least 90%", "about 3 (tolerance 1)" */
};

struct scenario_task {
    char *name;
    char *path;             /* host path */
    const char *exe;        /* guest path (in VFS_PROGRAMS_DIR), or NULL: path as the guest sees it */
    char **argv;
    int argc;
    char **envp;
    bool has_affinity;
    struct cpumask affinity;
    const char *cgroup;     /* cgroup: its group below the v2 root ("bg/fg"), or NULL */
    uint64_t start_ns;
};

struct scenario {
    char *file;             /* as named on the command line */
    void **owned;           /* every allocation below, freed by scenario_free */
    size_t nowned, owned_cap;
    struct emu_config cfg;  /* machine: the `asymu run` options' meanings */
    bool check_invariants;
    uint64_t time_limit_ns;
    struct script_file *files; /* placed in the guest's /tmp */
    size_t nfiles;
    struct script_program *programs; /* shown to the guest in VFS_PROGRAMS_DIR */
    size_t nprograms;
    struct scenario_task *tasks;
    size_t ntasks;
    struct script_cgroup *cgroups; /* every group the tasks and phases name, ancestors first */
    size_t ncgroups;
    struct script_action *actions; /* events and file reads, sorted by time */
    size_t nactions;
    struct expectation *expects;
    size_t nexpects;
    const char *input; /* input: a recording to feed the machine (docs/recording.md), or NULL */
};

/* `asymu run`'s option parser (cli/options.c, options_parse_to), given by
 * cli/ so that the machine section means what the options mean: parses
 * argv into cfg, bad values reported to errors; 0 on success. */
typedef int (*scenario_options_fn)(int argc, char **argv, struct emu_config *cfg, FILE *errors);

/* Parses path. On error returns NULL after writing one line
 * "FILE:LINE:COLUMN: what was expected there" to errors. */
struct scenario *scenario_load(const char *path, FILE *errors, scenario_options_fn options);
/* The same for a scenario's text (len bytes) named name, whose relative
 * paths are in dir (scenario_load's second half; the fuzzer's entry). */
struct scenario *scenario_parse(const char *name, const char *dir, const char *text, size_t len,
                                FILE *errors, scenario_options_fn options);
void scenario_free(struct scenario *sc);

/* The policy (enum sched_policy_id) a name or alias names, or -1. */
int scenario_policy_parse(const char *name);

/* Runs sc under its policy (in this process: call it in a child) and
 * returns the outcome (json.c documents its fields), or NULL after a message
 * on stderr when the machine could not start. */
json_t *scenario_execute(struct scenario *sc);

/* Checks every expectation that applies under policy (all of them when
 * every_policy) against an outcome. Appends one string per failure,
 * "FILE:LINE: expected ..., got ...", to failures; returns how many
 * expectations applied. holds[i] (when not NULL) says whether expectation i
 * holds, whatever its scope. */
size_t scenario_check(const struct scenario *sc, json_t *outcome, int policy, bool every_policy,
                      json_t *failures, bool *holds);

/* "2ms", "500us", "123ns": the largest unit that divides ns. */
void scenario_format_ns(uint64_t ns, char *out, size_t len);
/* How an outcome's task ended: "exit status 0", "killed by SIGKILL", ... */
void scenario_task_ending(json_t *task, char *out, size_t len);

/* One run of a scenario file under a policy, in a child process. */
struct scenario_job {
    const char *file;
    int policy;
    char *trace, *timeline; /* files to write (malloc'ed), or NULL */
    const char *trace_format; /* "json" or "ftrace" */
    const char *control;      /* replay --control: the socket its machine listens on, or NULL */
    const char *record, *input; /* replay --record/--input: the recording to write or feed */
    char *out;          /* the child's stdout: the outcome JSON */
    size_t len;
    int64_t exit_status;
    int term_signal;
    int stage;          /* runner.c's: 0 waiting, then running, then done */
};

/* Runs every job as `asymu scenario-exec FILE POLICY` from a libuv loop, at
 * most `parallel` at once; with progress, a line on stdout (a terminal)
 * counts the jobs done. Returns 0 or a negative errno. */
int scenario_run_jobs(struct scenario_job *jobs, size_t n, unsigned parallel, bool progress);
/* The outcome of a finished job, or NULL (a message naming the file is on
 * stderr) if the child did not give one. */
json_t *scenario_job_outcome(const struct scenario_job *job);

/* An rt-app JSON file's text as the YAML scenario it means (rtapp.c), or
 * NULL after "FILE: rt-app key 'K' in WHERE: why" on errors. malloc'ed. */
char *scenario_rtapp_to_yaml(const char *file, const char *text, size_t len, FILE *errors);

/* Quantitative expectations (quant.c). Whether e is one. */
bool scenario_is_quant(const struct expectation *e);
/* e's measured value on outcome into out ("92.1%", "3", "180us"): true, or
 * false with why there is none ("no running time"). */
bool scenario_measure(const struct scenario *sc, const struct expectation *e, json_t *outcome,
                      char *out, size_t len);
/* Whether e holds on outcome; if not, writes "expected ..., got ..." to f. */
bool scenario_quant_matches(const struct scenario *sc, const struct expectation *e,
                            json_t *outcome, FILE *f);
/* Its row label in compare: "hog residency on 2 at least 100%". */
void scenario_quant_describe(const struct scenario *sc, const struct expectation *e, char *out,
                             size_t len);

/* One line describing expectation i, for compare's table. */
void scenario_describe(const struct scenario *sc, size_t i, char *out, size_t len);

/* --shard auto (shard.c): this job's shard of a CI's or batch system's
 * parallel jobs, from its environment, as *index of *total (from 1); 0 with
 * why saying where it came from, or -1 with why naming the variables. */
int scenario_shard_auto(unsigned *index, unsigned *total, char *why, size_t len);

/* Reports (report.c). The digest of a scenario set: the FILEs' names and
 * bytes, files sorted by name; 16 hex digits and a NUL in out. */
void scenario_set_digest(char *const *files, size_t n, char out[17]);
/* A report without results: what it is part of (docs/scenarios.md
 * "Reports"); policy -1 when each scenario ran under its own. */
json_t *scenario_report_new(const char *set, size_t nfiles, int policy, bool every_policy,
                            unsigned shard, unsigned shards);
int scenario_report_write(json_t *report, const char *path);
/* A JUnit XML file of a report's results. 0 or a negative errno. */
int scenario_junit_write(const char *path, json_t *results);

/* The commands (replay.c, compare.c, report.c): argv[0] is the first argument after
 * the command's name. Return the exit status. */
int scenario_cmd_replay(int argc, char **argv, scenario_options_fn options);
int scenario_cmd_compare(int argc, char **argv, scenario_options_fn options);
/* `asymu report merge OUT.json [--junit OUT.xml] SHARD.json...`. */
int scenario_cmd_report(int argc, char **argv);
/* `asymu scenario-exec FILE POLICY [--trace F] [--trace-format json|ftrace|dat]
 * [--timeline F]`: the child side, outcome JSON on stdout. */
int scenario_cmd_exec(int argc, char **argv, scenario_options_fn options);

#endif
