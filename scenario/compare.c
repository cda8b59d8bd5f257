/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.c - `asymu compare FILE [--policies P,...] [--jobs N]`: one run of
 * the scenario per policy, then two tables: how each task ended under each
 * policy (exit status or signal, final affinity, the vCPUs it ran on), and which expectations
 * hold under which policy ("yes", "NO", with "*" where the scenario scopes
 * the expectation to that policy; a quantitative one's value measured under
 * each policy first, "92.1% yes"). Exits 1 when a scoped expectation fails
 * under one of its policies. */
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

#define CELL 28

/* Cells padded to their column, the last one not: no trailing blanks. */
static void cell(const char *text, int width, bool last)
{
    if (last)
        printf(" %s", text);
    else
        printf(" %-*s", width, text);
}

/* A label as one line of the table: a newline, tab or other control byte
 * in a scenario's text (stdout_contains: "a\nb", a task's name) is written
 * as C writes it (\n, \t, \r, \xNN); printed raw it broke the row in two. */
static void one_line(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in && o + 5 < len; in++) {
        unsigned char ch = (unsigned char)*in;
        if (ch == '\n' || ch == '\t' || ch == '\r')
            o += (size_t)snprintf(out + o, len - o, "\\%c", ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r');
        else if (ch < 0x20 || ch == 0x7f)
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", ch);
        else
            out[o++] = (char)ch;
    }
    out[o] = '\0';
}

static int parse_policies(const char *list, int *out)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    int n = 0;
    for (char *save, *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int policy = scenario_policy_parse(p);
        if (policy < 0 || n == SCHED_NR_POLICIES) {
            fprintf(stderr, "asymu compare: --policies takes up to %d of upstream, linux-6.6, "
                            "override, kill, fixup, comma-separated; not '%s'\n",
                    SCHED_NR_POLICIES, p);
            return -1;
        }
        out[n++] = policy;
    }
    return n;
}

static void task_cell(json_t *outcome, size_t task, char *out, size_t len)
{
    json_t *t = json_array_get(json_object_get(outcome, "tasks"), task);
    if (!t) {
        snprintf(out, len, "(no outcome)");
        return;
    }
    char ending[128];
    json_t *code = json_object_get(t, "exit"), *sig = json_object_get(t, "signal");
    const char *abbrev = sig ? sigabbrev_np((int)json_integer_value(sig)) : NULL;
    if (code)
        snprintf(ending, sizeof ending, "exit %lld", (long long)json_integer_value(code));
    else if (abbrev)
        snprintf(ending, sizeof ending, "SIG%s", abbrev);
    else
        scenario_task_ending(t, ending, sizeof ending);
    const char *aff = json_string_value(json_object_get(t, "affinity"));
    const char *used = json_string_value(json_object_get(t, "cpus_used"));
    snprintf(out, len, "%s%s%s, on %s", ending, aff ? ", " : "", aff ? aff : "",
             used && *used ? used : "none");
}

int scenario_cmd_compare(int argc, char **argv, scenario_options_fn options)
{
    int policies[SCHED_NR_POLICIES] = {SCHED_POLICY_UPSTREAM, SCHED_POLICY_LINUX66,
                                        SCHED_POLICY_OVERRIDE, SCHED_POLICY_KILL, SCHED_POLICY_FIXUP};
    int npolicies = SCHED_NR_POLICIES;
    const char *file = NULL;
    unsigned jobs = 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--policies") == 0 && i + 1 < argc) {
            if ((npolicies = parse_policies(argv[++i], policies)) <= 0)
                return SCENARIO_EXIT_BROKEN;
        } else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
            jobs = (unsigned)atoi(argv[++i]);
        } else if (argv[i][0] != '-' && !file) {
            file = argv[i];
        } else {
            fprintf(stderr, "usage: asymu compare FILE [--policies upstream,linux-6.6,override,"
                            "kill,fixup] [--jobs N]\n");
            return SCENARIO_EXIT_BROKEN;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: asymu compare FILE [--policies P,...] [--jobs N]\n");
        return SCENARIO_EXIT_BROKEN;
    }
    struct scenario *sc = scenario_load(file, stderr, options);
    if (!sc)
        return SCENARIO_EXIT_BROKEN;
    struct scenario_job job[SCHED_NR_POLICIES] = {0};
    for (int p = 0; p < npolicies; p++)
        job[p] = (struct scenario_job){.file = file, .policy = policies[p]};
    scenario_run_jobs(job, (size_t)npolicies, jobs ? jobs : 1, false);
    json_t *outcome[SCHED_NR_POLICIES];
    for (int p = 0; p < npolicies; p++)
        outcome[p] = scenario_job_outcome(&job[p]);

    printf("%s\n\n%-16s", file, "task");
    for (int p = 0; p < npolicies; p++)
        cell(sched_policy_name(policies[p]), CELL, p == npolicies - 1);
    printf("\n");
    for (size_t t = 0; t < sc->ntasks; t++) {
        char name[256];
        one_line(sc->tasks[t].name, name, sizeof name);
        printf("%-16s", name);
        for (int p = 0; p < npolicies; p++) {
            char text[256];
            task_cell(outcome[p], t, text, sizeof text);
            cell(text, CELL, p == npolicies - 1);
        }
        printf("\n");
    }
    bool *holds = calloc(sc->nexpects + 1, sizeof *holds);
    bool all_hold = true;
    /* A quantitative expectation's cell leads with the value measured
     * under that policy ("92.1% yes"): wider columns then. */
    int width = 10;
    for (size_t e = 0; e < sc->nexpects; e++)
        if (scenario_is_quant(&sc->expects[e]))
            width = 16;
    printf("\n%-5s %-44s", "line", "expectation");
    for (int p = 0; p < npolicies; p++)
        cell(sched_policy_name(policies[p]), width, p == npolicies - 1);
    printf("\n");
    for (size_t e = 0; e < sc->nexpects; e++) {
        char described[256], what[1024];
        scenario_describe(sc, e, described, sizeof described);
        one_line(described, what, sizeof what);
        printf("%-5d %-44.44s", sc->expects[e].line, what);
        for (int p = 0; p < npolicies; p++) {
            bool scoped = !sc->expects[e].policies || (sc->expects[e].policies & (1u << policies[p]));
            bool ok = false;
            if (outcome[p]) {
                scenario_check(sc, outcome[p], policies[p], true, NULL, holds);
                ok = holds[e];
            }
            all_hold &= ok || !scoped;
            char text[96], value[64] = "";
            if (scenario_is_quant(&sc->expects[e]))
                scenario_measure(sc, &sc->expects[e], outcome[p], value, sizeof value);
            snprintf(text, sizeof text, "%s%s%s", value, *value ? " " : "",
                     ok ? (scoped ? "yes*" : "yes") : (scoped ? "NO*" : "NO"));
            cell(text, width, p == npolicies - 1);
        }
        printf("\n");
    }
    printf("\n(* the scenario expects it under this policy)\n");
    for (int p = 0; p < npolicies; p++) {
        json_decref(outcome[p]);
        free(job[p].out);
    }
    free(holds);
    scenario_free(sc);
    return all_hold ? SCENARIO_EXIT_PASS : SCENARIO_EXIT_FAIL;
}
