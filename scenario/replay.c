/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay.c - `asymu replay FILE... [--policy P] [--report F.json] [--jobs N]
 * [--junit F.xml] [--shard I/N|auto] [--all-expectations] [--trace F]
 * [--trace-format json|ftrace|dat] [--timeline F.svg] [--control PATH] [--record F]
 * [--input F]`: every selected
 * scenario is parsed first (a broken one stops everything with status 2),
 * run in a child process, and its expectations checked; one PASS or FAIL
 * line per scenario in name order, the failures under it, and a last line
 * "N passed, N failed". */
#include "scenario.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct replay_args {
    char **files;
    size_t nfiles;
    int policy; /* -1: each scenario's own */
    const char *report, *junit;
    const char *trace, *trace_format, *timeline;
    const char *control; /* --control PATH: the one scenario's machine listens there */
    const char *record, *input; /* --record/--input F: the one scenario's recording */
    unsigned jobs;
    unsigned shard, shards; /* 1-based shard of shards */
    bool shard_auto;        /* --shard auto: from the CI's variables (shard.c) */
    bool every_policy;
};

static int usage_error(const char *what)
{
    fprintf(stderr, "asymu replay: %s\n"
                    "usage: asymu replay FILE... [--policy P] [--report F.json] [--jobs N] "
                    "[--junit F.xml] [--shard I/N|auto] [--all-expectations] [--trace F] "
                    "[--trace-format json|ftrace|dat] [--timeline F.svg] [--control PATH] "
                    "[--record F] [--input F]\n", what);
    return SCENARIO_EXIT_BROKEN;
}

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi || *s == '-')
        return false;
    *out = (unsigned)v;
    return true;
}

static int parse_args(int argc, char **argv, struct replay_args *a)
{
    *a = (struct replay_args){.policy = -1, .jobs = 1, .shard = 1, .shards = 1,
                              .trace_format = "json"};
    a->files = calloc((size_t)argc + 1, sizeof *a->files);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(arg, "--all-expectations") == 0) {
            a->every_policy = true;
        } else if (arg[0] == '-' && arg[1] == '-' && !has_value) {
            return usage_error("an option without its value, or an unknown option");
        } else if (strcmp(arg, "--policy") == 0) {
            if ((a->policy = scenario_policy_parse(argv[++i])) < 0)
                return usage_error("--policy takes upstream, linux-5.15, linux-6.6, override, "
                                   "kill or fixup");
        } else if (strcmp(arg, "--report") == 0) {
            a->report = argv[++i];
        } else if (strcmp(arg, "--junit") == 0) {
            a->junit = argv[++i];
        } else if (strcmp(arg, "--trace") == 0) {
            a->trace = argv[++i];
        } else if (strcmp(arg, "--timeline") == 0) {
            a->timeline = argv[++i];
        } else if (strcmp(arg, "--control") == 0) {
            a->control = argv[++i];
        } else if (strcmp(arg, "--record") == 0) {
            a->record = argv[++i];
        } else if (strcmp(arg, "--input") == 0) {
            a->input = argv[++i];
        } else if (strcmp(arg, "--trace-format") == 0) {
            a->trace_format = argv[++i];
            if (strcmp(a->trace_format, "json") != 0 && strcmp(a->trace_format, "ftrace") != 0 &&
                strcmp(a->trace_format, "dat") != 0)
                return usage_error("--trace-format takes json, ftrace or dat");
        } else if (strcmp(arg, "--jobs") == 0) {
            if (!parse_uint(argv[++i], 1, 256, &a->jobs))
                return usage_error("--jobs takes a number from 1 to 256");
        } else if (strcmp(arg, "--shard") == 0 && strcmp(argv[i + 1], "auto") == 0) {
            a->shard_auto = true;
            i++;
        } else if (strcmp(arg, "--shard") == 0) {
            a->shard_auto = false;
            char *slash = strchr(argv[++i], '/');
            if (!slash)
                return usage_error("--shard takes I/N, like 1/4, or auto");
            *slash = '\0';
            if (!parse_uint(argv[i], 1, 100000, &a->shard) ||
                !parse_uint(slash + 1, 1, 100000, &a->shards) || a->shard > a->shards)
                return usage_error("--shard takes I/N with 1 <= I <= N, like 1/4");
        } else if (arg[0] == '-' && arg[1] == '-') {
            return usage_error("unknown option");
        } else {
            a->files[a->nfiles++] = argv[i];
        }
    }
    if (a->nfiles == 0)
        return usage_error("no scenario file");
    if (a->control && a->nfiles > 1)
        return usage_error("--control steers one scenario's machine: give one FILE");
    if ((a->record || a->input) && a->nfiles > 1)
        return usage_error("--record and --input are one scenario's recording: give one FILE");
    if (a->record && a->input)
        return usage_error("--record and --input: a replay is not recorded again");
    if (a->shard_auto) {
        char why[1024];
        if (scenario_shard_auto(&a->shard, &a->shards, why, sizeof why) < 0) {
            fprintf(stderr, "asymu replay: --shard auto: %s\n", why);
            return SCENARIO_EXIT_BROKEN;
        }
        fprintf(stderr, "asymu replay: --shard auto: %s\n", why);
    }
    return 0;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Sorted by name, then every shards-th from shard: the same slice on every
 * machine of a CI matrix. */
static void select_shard(struct replay_args *a)
{
    qsort(a->files, a->nfiles, sizeof *a->files, by_name);
    size_t kept = 0;
    for (size_t i = 0; i < a->nfiles; i++)
        if (i % a->shards == a->shard - 1)
            a->files[kept++] = a->files[i];
    a->nfiles = kept;
}

/* A trace file of one scenario: path itself for a lone scenario, else path
 * with the scenario's name before its extension (trace.json ->
 * trace.article-execve.json), so that every scenario has its own. */
static char *trace_path(const char *path, const char *scenario, bool alone)
{
    if (!path)
        return NULL;
    if (alone)
        return strdup(path);
    const char *base = strrchr(scenario, '/') ? strrchr(scenario, '/') + 1 : scenario;
    size_t name_len = strcspn(base, ".");
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    size_t head = dot && dot != (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
    char *out = malloc(strlen(path) + name_len + 2);
    if (out)
        sprintf(out, "%.*s.%.*s%s", (int)head, path, (int)name_len, base, path + head);
    return out;
}

/* The report's view of a task: what it is and how it ended, without its
 * output. */
static json_t *report_task(json_t *task)
{
    json_t *t = json_object();
    static const char *const keys[] = {"pid", "name", "isa", "error", "exit", "signal",
                                       "affinity", "kills", "cpus_used", "cpus_used_aarch64",
                                       "cpus_used_arm", "affinity_history",
                                       "saved_mask", "saved_mask_history"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        json_t *v = json_object_get(task, keys[i]);
        if (v)
            json_object_set(t, keys[i], v);
    }
    return t;
}

static json_t *result_of(const struct scenario *sc, const struct scenario_job *job, bool every)
{
    json_t *r = json_object(), *failures = json_array(), *tasks = json_array();
    json_object_set_new(r, "scenario", json_string(sc->file));
    json_object_set_new(r, "policy", json_string(sched_policy_name(job->policy)));
    json_t *outcome = scenario_job_outcome(job);
    if (outcome) {
        scenario_check(sc, outcome, job->policy, every, failures, NULL);
        json_t *task;
        size_t i;
        json_array_foreach(json_object_get(outcome, "tasks"), i, task)
            json_array_append_new(tasks, report_task(task));
        json_object_set(r, "machine", json_object_get(outcome, "machine"));
        json_object_set(r, "end_ns", json_object_get(outcome, "end_ns"));
    } else {
        char msg[512];
        snprintf(msg, sizeof msg, "%s: expected an outcome, got none (see stderr)", sc->file);
        json_array_append_new(failures, json_string(msg));
    }
    json_object_set_new(r, "passed", json_boolean(json_array_size(failures) == 0));
    json_object_set_new(r, "failures", failures);
    json_object_set_new(r, "tasks", tasks);
    json_decref(outcome);
    return r;
}

int scenario_cmd_replay(int argc, char **argv, scenario_options_fn options)
{
    struct replay_args a;
    if (parse_args(argc, argv, &a) != 0) {
        free(a.files);
        return SCENARIO_EXIT_BROKEN;
    }
    /* The whole set's digest, before the slice: every shard's report
     * names the same set (report merge checks it). */
    qsort(a.files, a.nfiles, sizeof *a.files, by_name);
    char set[17];
    scenario_set_digest(a.files, a.nfiles, set);
    size_t nset = a.nfiles;
    select_shard(&a);
    struct scenario **sc = calloc(a.nfiles + 1, sizeof *sc);
    struct scenario_job *jobs = calloc(a.nfiles + 1, sizeof *jobs);
    bool broken = false;
    for (size_t i = 0; i < a.nfiles; i++) {
        sc[i] = scenario_load(a.files[i], stderr, options);
        broken |= !sc[i];
        if (sc[i])
            jobs[i] = (struct scenario_job){
                .file = a.files[i], .policy = a.policy >= 0 ? a.policy : (int)sc[i]->cfg.policy,
                .trace = trace_path(a.trace, a.files[i], a.nfiles == 1),
                .timeline = trace_path(a.timeline, a.files[i], a.nfiles == 1),
                .trace_format = a.trace_format, .control = a.control, .record = a.record,
                .input = a.input};
    }
    int status = SCENARIO_EXIT_BROKEN;
    if (!broken && scenario_run_jobs(jobs, a.nfiles, a.jobs, isatty(STDOUT_FILENO)) == 0) {
        json_t *report = scenario_report_new(set, nset, a.policy, a.every_policy, a.shard,
                                             a.shards);
        json_t *results = json_object_get(report, "results");
        size_t passed = 0;
        for (size_t i = 0; i < a.nfiles; i++) {
            json_t *r = result_of(sc[i], &jobs[i], a.every_policy);
            bool ok = json_is_true(json_object_get(r, "passed"));
            passed += ok;
            printf("%s %s (%s)\n", ok ? "PASS" : "FAIL", sc[i]->file,
                   sched_policy_name(jobs[i].policy));
            json_t *msg;
            size_t k;
            json_array_foreach(json_object_get(r, "failures"), k, msg)
                printf("%s\n", json_string_value(msg));
            json_array_append_new(results, r);
        }
        printf("%zu passed, %zu failed\n", passed, a.nfiles - passed);
        status = passed == a.nfiles ? SCENARIO_EXIT_PASS : SCENARIO_EXIT_FAIL;
        for (size_t i = 0; i < a.nfiles; i++)
            if (jobs[i].exit_status == SCENARIO_EXIT_BROKEN) /* a recording that does not fit */
                status = SCENARIO_EXIT_BROKEN;
        int err = 0;
        if (a.junit && (err = scenario_junit_write(a.junit, results)) < 0)
            fprintf(stderr, "asymu replay: cannot write %s: %s\n", a.junit, strerror(-err));
        if (a.report && scenario_report_write(report, a.report) < 0)
            fprintf(stderr, "asymu replay: cannot write %s\n", a.report), err = -EIO;
        if (err < 0)
            status = SCENARIO_EXIT_BROKEN;
        json_decref(report);
    }
    for (size_t i = 0; i < a.nfiles; i++) {
        scenario_free(sc[i]);
        free(jobs[i].out);
        free(jobs[i].trace);
        free(jobs[i].timeline);
    }
    free(sc);
    free(jobs);
    free(a.files);
    return status;
}
