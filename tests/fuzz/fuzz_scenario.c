/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_scenario.c - scenario_parse (scenario/parse.c) on arbitrary bytes as
 * a scenario file's text: libyaml's events, the document built from them,
 * every section's checks, and the machine section through `asymu run`'s
 * option parser. Relative paths resolve in a fresh directory holding one
 * file, note.txt (so from: reads something), and programs by name are
 * looked for in the harness's directory ($ASYMU_PROGRAMS), where the two
 * fuzz-target programs are: the seeds (make-seeds.py) name those. */
#include "options.h"
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/asymu-fuzz-scenario.XXXXXX";
static FILE *errors;

static char note[sizeof dir + 16];

static void cleanup(void)
{
    unlink(note);
    rmdir(dir);
}

static void setup(void)
{
    if (!mkdtemp(dir))
        abort();
    snprintf(note, sizeof note, "%s/note.txt", dir);
    atexit(cleanup);
    const char *path = note;
    FILE *f = fopen(path, "w");
    if (!f || fputs("a file next to the scenario\n", f) < 0 || fclose(f) != 0)
        abort();
    char programs[4096];
    snprintf(programs, sizeof programs, "%s", FUZZ_GUEST_AARCH64);
    *strrchr(programs, '/') = '\0';
    setenv("ASYMU_PROGRAMS", programs, 1);
    errors = fopen("/dev/null", "w");
    if (!errors)
        abort();
}

/* What scenario.h promises of a scenario that parsed. */
static void check(const struct scenario *sc)
{
    if (sc->ntasks < 1 || sc->ntasks > SCENARIO_MAX_TASKS)
        abort();
    for (size_t i = 0; i < sc->ntasks; i++) {
        const struct scenario_task *t = &sc->tasks[i];
        if (!t->name || !t->path || t->argc < 1 || !t->argv[0] || t->argv[t->argc] || !t->envp)
            abort();
    }
    uint64_t bytes = 0;
    for (size_t i = 0; i < sc->nfiles; i++) {
        if (!sc->files[i].name || strchr(sc->files[i].name, '/') || !sc->files[i].data)
            abort();
        bytes += sc->files[i].len;
    }
    if (bytes > SCENARIO_MAX_FILES_BYTES)
        abort();
    for (size_t i = 0; i + 1 < sc->nactions; i++)
        if (sc->actions[i].at_ns > sc->actions[i + 1].at_ns)
            abort();
    for (size_t i = 0; i < sc->nactions; i++)
        if (sc->actions[i].task >= (int)sc->ntasks || sc->actions[i].on_task >= (int)sc->ntasks)
            abort();
    for (size_t i = 0; i < sc->nexpects; i++)
        if (sc->expects[i].task >= (int)sc->ntasks ||
            sc->expects[i].read >= (int)sc->nactions)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!errors)
        setup();
    if (size > SCENARIO_MAX_BYTES)
        return 0;
    /* An exact-size copy: a read past the end is ASan's to see. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    struct scenario *sc = scenario_parse("fuzz.yaml", dir, text, size, errors, options_parse_to);
    if (sc)
        check(sc);
    scenario_free(sc);
    free(text);
    return 0;
}
