/* SPDX-License-Identifier: GPL-2.0-or-later */
/* expect.c - the verdict of each expectation on a run's outcome (exec.c's
 * JSON): one matcher per kind, each saying what it expected and what it
 * got. The history ones (only_on, never_on, cpus_used, affinity_history,
 * saved_mask) read what the machine's event stream recorded per task. */
#include "scenario.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* A growing message buffer. */
struct text {
    char *s;
    size_t len;
    FILE *f;
};

static void text_open(struct text *t)
{
    t->s = NULL;
    t->f = open_memstream(&t->s, &t->len);
}

static char *text_close(struct text *t)
{
    fclose(t->f);
    return t->s;
}

/* s as a C string literal, cut after 200 bytes. */
static void quote(FILE *f, const char *s)
{
    fputc('"', f);
    size_t n = 0;
    for (; *s && n < 200; s++, n++) {
        if (*s == '\n')
            fputs("\\n", f);
        else if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\x%02x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputs(*s ? "\"..." : "\"", f);
}

void scenario_format_ns(uint64_t ns, char *out, size_t len)
{
    if (ns % 1000000 == 0)
        snprintf(out, len, "%llums", (unsigned long long)(ns / 1000000));
    else if (ns % 1000 == 0)
        snprintf(out, len, "%lluus", (unsigned long long)(ns / 1000));
    else
        snprintf(out, len, "%lluns", (unsigned long long)ns);
}

static const char *signal_name(long sig, char *buf, size_t len)
{
    const char *abbrev = sig > 0 && sig < 32 ? sigabbrev_np((int)sig) : NULL;
    if (abbrev)
        snprintf(buf, len, "SIG%s", abbrev);
    else
        snprintf(buf, len, "signal %ld", sig);
    return buf;
}

void scenario_task_ending(json_t *task, char *out, size_t len)
{
    char sig[32];
    if (json_is_string(json_object_get(task, "error")))
        snprintf(out, len, "not started (%s)", json_string_value(json_object_get(task, "error")));
    else if (json_object_get(task, "exit"))
        snprintf(out, len, "exit status %lld",
                 (long long)json_integer_value(json_object_get(task, "exit")));
    else if (json_object_get(task, "signal"))
        snprintf(out, len, "killed by %s",
                 signal_name((long)json_integer_value(json_object_get(task, "signal")), sig,
                             sizeof sig));
    else
        snprintf(out, len, "still running at the end");
}

static const char *task_string(json_t *task, const char *key)
{
    const char *s = json_string_value(json_object_get(task, key));
    return s ? s : "";
}

/* Whether the kernel log has lines containing texts[0..n), in that order;
 * *missing is the first one not found. */
static bool log_has_in_order(const char *log, char *const *texts, size_t n, size_t *missing)
{
    size_t next = 0;
    for (const char *line = log; *line && next < n;) {
        size_t len = strcspn(line, "\n");
        char *copy = strndup(line, len);
        if (strstr(copy, texts[next]))
            next++;
        free(copy);
        line += len + (line[len] == '\n');
    }
    *missing = next;
    return next == n;
}

static const char *log_line_with(const char *log, const char *text, size_t *len)
{
    for (const char *line = log; *line;) {
        size_t n = strcspn(line, "\n");
        char *copy = strndup(line, n);
        bool hit = strstr(copy, text) != NULL;
        free(copy);
        if (hit) {
            *len = n;
            return line;
        }
        line += n + (line[n] == '\n');
    }
    return NULL;
}

/* The vCPUs the task's process ran on (running code of isa, if not NULL),
 * as recorded. */
static struct cpumask cpus_used(const struct scenario *sc, json_t *task, const char *isa)
{
    struct cpumask used;
    cpumask_clear(&used);
    char key[32];
    snprintf(key, sizeof key, "cpus_used%s%s", isa ? "_" : "", isa ? isa : "");
    const char *list = json_string_value(json_object_get(task, key));
    if (list)
        cpulist_parse(list, sc->cfg.cpus, &used, NULL, 0);
    return used;
}

/* The task's affinity changes, "OLD -> NEW (RULE)" each, as a JSON array. */
static json_t *affinity_changes(json_t *task)
{
    json_t *out = json_array(), *change;
    size_t i;
    json_array_foreach(json_object_get(task, "affinity_history"), i, change)
    {
        char line[8300];
        snprintf(line, sizeof line, "%s -> %s (%s)",
                 json_string_value(json_object_get(change, "old")),
                 json_string_value(json_object_get(change, "new")),
                 json_string_value(json_object_get(change, "rule")));
        json_array_append_new(out, json_string(line));
    }
    return out;
}

static const char *mask_or_none(json_t *mask)
{
    return json_is_string(mask) ? json_string_value(mask) : "none";
}

/* The task's saved masks after each execve, each a cpulist or "none". */
static json_t *saved_masks(json_t *task)
{
    json_t *out = json_array(), *entry;
    size_t i;
    json_array_foreach(json_object_get(task, "saved_mask_history"), i, entry)
        json_array_append_new(out, json_string(mask_or_none(json_object_get(entry, "mask"))));
    return out;
}

/* Whether a list of strings equals texts; else writes it as ["a", "b"]. */
static bool same_list(json_t *have, char *const *texts, size_t n, FILE *f)
{
    bool same = json_array_size(have) == n;
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(json_string_value(json_array_get(have, i)), texts[i]) == 0;
    if (same)
        return true;
    fputc('[', f);
    for (size_t i = 0; i < json_array_size(have); i++) {
        fputs(i ? ", " : "", f);
        quote(f, json_string_value(json_array_get(have, i)));
    }
    fputc(']', f);
    return false;
}

static void quote_list(FILE *f, char *const *texts, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        quote(f, texts[i]);
    }
    fputc(']', f);
}

/* The history matchers: the vCPUs used, the affinity changes, the saved
 * masks. */
static bool history_matches(const struct scenario *sc, const struct expectation *e, json_t *task,
                            const char *name, FILE *f)
{
    char list[4096], used_list[4096];
    cpulist_format(&e->mask, list, sizeof list);
    struct cpumask used = cpus_used(sc, task, e->isa), both;
    char as_isa[32] = "";
    if (e->isa)
        snprintf(as_isa, sizeof as_isa, " as %s", e->isa);
    cpulist_format(&used, used_list, sizeof used_list);
    switch (e->kind) {
    case EXPECT_ONLY_ON:
        if (cpumask_subset(&used, &e->mask))
            return true;
        fprintf(f, "expected task %s to run%s only on %s, got %s", name, as_isa, list, used_list);
        return false;
    case EXPECT_NEVER_ON:
        if (!cpumask_and(&both, &used, &e->mask))
            return true;
        fprintf(f, "expected task %s never to run%s on %s, got %s", name, as_isa, list,
                used_list);
        return false;
    case EXPECT_CPUS_USED:
        if (cpumask_equal(&used, &e->mask))
            return true;
        fprintf(f, "expected task %s to run%s on %s, got %s", name, as_isa, list, used_list);
        return false;
    default:
        break;
    }
    if (e->kind == EXPECT_SAVED_MASK && e->text) {
        const char *have = mask_or_none(json_object_get(task, "saved_mask"));
        if (strcmp(have, e->text) == 0)
            return true;
        fprintf(f, "expected task %s's final saved mask %s, got %s", name, e->text, have);
        return false;
    }
    bool changes = e->kind == EXPECT_AFFINITY_HISTORY;
    json_t *have = changes ? affinity_changes(task) : saved_masks(task);
    struct text got;
    text_open(&got);
    bool ok = same_list(have, e->texts, e->ntexts, got.f);
    char *got_text = text_close(&got);
    json_decref(have);
    if (!ok) {
        fprintf(f, "expected task %s's %s ", name,
                changes ? "affinity changes" : "saved masks after each execve");
        quote_list(f, e->texts, e->ntexts);
        fprintf(f, ", got %s", got_text);
    }
    free(got_text);
    return ok;
}

/* One matcher: whether e holds on outcome; if not, writes "expected ...,
 * got ..." to f. */
static bool matches(const struct scenario *sc, const struct expectation *e, json_t *outcome,
                    FILE *f)
{
    json_t *task = e->task >= 0 ? json_array_get(json_object_get(outcome, "tasks"), (size_t)e->task)
                                : NULL;
    const char *name = e->task >= 0 ? sc->tasks[e->task].name : "";
    const char *log = json_string_value(json_object_get(outcome, "kernel_log"));
    char got[512], want[64];
    if (task)
        scenario_task_ending(task, got, sizeof got);
    switch (e->kind) {
    case EXPECT_EXIT: {
        json_t *code = json_object_get(task, "exit");
        if (code && json_integer_value(code) == e->number)
            return true;
        fprintf(f, "expected task %s to exit with status %ld, got %s", name, e->number, got);
        return false;
    }
    case EXPECT_SIGNAL: {
        json_t *sig = json_object_get(task, "signal");
        if (sig && json_integer_value(sig) == e->number)
            return true;
        fprintf(f, "expected task %s to be killed by %s, got %s", name,
                signal_name(e->number, want, sizeof want), got);
        return false;
    }
    case EXPECT_AFFINITY: {
        char list[4096];
        cpulist_format(&e->mask, list, sizeof list);
        const char *have = json_string_value(json_object_get(task, "affinity"));
        if (have && strcmp(have, list) == 0)
            return true;
        fprintf(f, "expected task %s's final affinity %s, got %s", name, list,
                have ? have : got);
        return false;
    }
    case EXPECT_STDOUT:
    case EXPECT_STDOUT_CONTAINS:
    case EXPECT_STDOUT_MATCHES: {
        const char *out = task_string(task, "stdout");
        bool ok;
        if (e->kind == EXPECT_STDOUT) {
            ok = strcmp(out, e->text) == 0;
        } else if (e->kind == EXPECT_STDOUT_CONTAINS) {
            ok = strstr(out, e->text) != NULL;
        } else {
            regex_t re;
            ok = regcomp(&re, e->text, REG_EXTENDED | REG_NOSUB) == 0 &&
                 regexec(&re, out, 0, NULL, 0) == 0;
            regfree(&re);
        }
        if (ok)
            return true;
        fprintf(f, "expected task %s's stdout %s", name,
                e->kind == EXPECT_STDOUT ? "" : e->kind == EXPECT_STDOUT_CONTAINS ? "to contain "
                                                                                  : "to match ");
        quote(f, e->text);
        fputs(", got ", f);
        quote(f, out);
        return false;
    }
    case EXPECT_KLOG_CONTAINS: {
        size_t missing;
        if (log_has_in_order(log, e->texts, e->ntexts, &missing))
            return true;
        fputs("expected a kernel log line with ", f);
        quote(f, e->texts[missing]);
        if (missing > 0) {
            fputs(" after one with ", f);
            quote(f, e->texts[missing - 1]);
        }
        fputs(", got none", f);
        return false;
    }
    case EXPECT_KLOG_LACKS:
        for (size_t i = 0; i < e->ntexts; i++) {
            size_t len;
            const char *line = log_line_with(log, e->texts[i], &len);
            if (!line)
                continue;
            char *copy = strndup(line, len);
            fputs("expected no kernel log line with ", f);
            quote(f, e->texts[i]);
            fputs(", got ", f);
            quote(f, copy);
            free(copy);
            return false;
        }
        return true;
    case EXPECT_FILE: {
        json_t *read = json_array_get(json_object_get(outcome, "actions"), (size_t)e->read);
        const char *content = json_string_value(json_object_get(read, "content"));
        const char *err = json_string_value(json_object_get(read, "error"));
        if (content && strcmp(content, e->text) == 0)
            return true;
        char at[32];
        scenario_format_ns(sc->actions[e->read].at_ns, at, sizeof at);
        fprintf(f, "expected %s at %s to read ", sc->actions[e->read].path, at);
        quote(f, e->text);
        fputs(", got ", f);
        if (content)
            quote(f, content);
        else
            fputs(err ? err : "nothing", f);
        return false;
    }
    case EXPECT_INVARIANTS: {
        const char *state = json_string_value(json_object_get(outcome, "machine"));
        if (strcmp(state, "invariant violated") != 0)
            return true;
        fputs("expected the invariant checker clean, got a violation (asymu's stderr says "
              "which)", f);
        return false;
    }
    case EXPECT_ONLY_ON:
    case EXPECT_NEVER_ON:
    case EXPECT_CPUS_USED:
    case EXPECT_AFFINITY_HISTORY:
    case EXPECT_SAVED_MASK:
        return history_matches(sc, e, task, name, f);
    case EXPECT_RESIDENCY:
    case EXPECT_MIGRATIONS:
    case EXPECT_WAKEUP_LATENCY:
    case EXPECT_RUNNABLE_WAIT:
    case EXPECT_UTILISATION:
    case EXPECT_DEADLINE_MISSES:
    case EXPECT_THROUGHPUT:
        return scenario_quant_matches(sc, e, outcome, f);
    case EXPECT_TIME_UNDER: {
        uint64_t end = (uint64_t)json_integer_value(json_object_get(outcome, "end_ns"));
        const char *state = json_string_value(json_object_get(outcome, "machine"));
        if (end < e->ns && strcmp(state, "ok") == 0)
            return true;
        char bound[32], end_text[32];
        scenario_format_ns(e->ns, bound, sizeof bound);
        scenario_format_ns(end, end_text, sizeof end_text);
        fprintf(f, "expected every task to end before %s, got %s (%s)", bound, end_text, state);
        return false;
    }
    }
    return false;
}

size_t scenario_check(const struct scenario *sc, json_t *outcome, int policy, bool every_policy,
                      json_t *failures, bool *holds)
{
    size_t applied = 0;
    for (size_t i = 0; i < sc->nexpects; i++) {
        const struct expectation *e = &sc->expects[i];
        bool applies = every_policy || !e->policies || (e->policies & (1u << policy));
        struct text msg;
        text_open(&msg);
        fprintf(msg.f, "%s:%d: ", sc->file, e->line);
        bool ok = matches(sc, e, outcome, msg.f);
        char *s = text_close(&msg);
        if (holds)
            holds[i] = ok;
        if (applies) {
            applied++;
            if (!ok && failures)
                json_array_append_new(failures, json_string(s));
        }
        free(s);
    }
    return applied;
}

void scenario_describe(const struct scenario *sc, size_t i, char *out, size_t len)
{
    const struct expectation *e = &sc->expects[i];
    const char *name = e->task >= 0 ? sc->tasks[e->task].name : "";
    char buf[4096], sig[32];
    switch (e->kind) {
    case EXPECT_EXIT:
        snprintf(out, len, "%s exits %ld", name, e->number);
        return;
    case EXPECT_SIGNAL:
        snprintf(out, len, "%s killed by %s", name, signal_name(e->number, sig, sizeof sig));
        return;
    case EXPECT_AFFINITY:
        cpulist_format(&e->mask, buf, sizeof buf);
        snprintf(out, len, "%s ends with affinity %s", name, buf);
        return;
    case EXPECT_STDOUT:
        snprintf(out, len, "%s's stdout is as given", name);
        return;
    case EXPECT_STDOUT_CONTAINS:
    case EXPECT_STDOUT_MATCHES:
        snprintf(out, len, "%s's stdout %s \"%.40s\"", name,
                 e->kind == EXPECT_STDOUT_CONTAINS ? "has" : "matches", e->text);
        return;
    case EXPECT_KLOG_CONTAINS:
    case EXPECT_KLOG_LACKS:
        snprintf(out, len, "kernel log %s \"%.40s\"%s", e->kind == EXPECT_KLOG_LACKS ? "lacks" : "has",
                 e->texts[0], e->ntexts > 1 ? ", ..." : "");
        return;
    case EXPECT_FILE:
        scenario_format_ns(sc->actions[e->read].at_ns, sig, sizeof sig);
        snprintf(out, len, "%s at %s", sc->actions[e->read].path, sig);
        return;
    case EXPECT_INVARIANTS:
        snprintf(out, len, "invariants clean");
        return;
    case EXPECT_TIME_UNDER:
        scenario_format_ns(e->ns, buf, sizeof buf);
        snprintf(out, len, "ends before %s", buf);
        return;
    case EXPECT_ONLY_ON:
    case EXPECT_NEVER_ON:
    case EXPECT_CPUS_USED:
        cpulist_format(&e->mask, buf, sizeof buf);
        snprintf(out, len, "%s %s %s%s%s", name,
                 e->kind == EXPECT_ONLY_ON    ? "runs only on"
                 : e->kind == EXPECT_NEVER_ON ? "never runs on"
                                              : "runs on",
                 buf, e->isa ? " as " : "", e->isa ? e->isa : "");
        return;
    case EXPECT_AFFINITY_HISTORY:
        snprintf(out, len, "%s's affinity changes as given", name);
        return;
    case EXPECT_SAVED_MASK:
        if (e->text)
            snprintf(out, len, "%s ends with saved mask %s", name, e->text);
        else
            snprintf(out, len, "%s's saved masks as given", name);
        return;
    case EXPECT_RESIDENCY:
    case EXPECT_MIGRATIONS:
    case EXPECT_WAKEUP_LATENCY:
    case EXPECT_RUNNABLE_WAIT:
    case EXPECT_UTILISATION:
    case EXPECT_DEADLINE_MISSES:
    case EXPECT_THROUGHPUT:
        scenario_quant_describe(sc, e, out, len);
        return;
    }
}
