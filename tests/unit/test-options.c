/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-options.c - cli/options.c: `asymu run` option parsing, defaults,
 * every bad value and the messages that name it, and the generated usage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

#define MAX_ARGS 24

/* One options_parse call: its arguments (which cfg.argv points into), its
 * result and what it printed. */
struct parsed {
    char *argv[MAX_ARGS];
    int argc;
    struct emu_config cfg;
    int rc;
    char out[8192];
    char err[1024];
};

/* A directory and a regular file inside it, made once for the whole group. */
static char tmpdir[] = "/tmp/test-options-XXXXXX";
static char tmpfile_path[sizeof tmpdir + 16];
static char missing_path[sizeof tmpdir + 16];

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(tmpfile_path, sizeof tmpfile_path, "%s/file", tmpdir);
    snprintf(missing_path, sizeof missing_path, "%s/missing", tmpdir);
    FILE *f = fopen(tmpfile_path, "w");
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(tmpfile_path);
    return rmdir(tmpdir);
}

/* Points the descriptor of stream at a fresh temporary file; returns the
 * saved descriptor for capture_end. */
static int capture_begin(FILE *stream, FILE **tmp)
{
    fflush(stream);
    *tmp = tmpfile();
    assert_non_null(*tmp);
    int saved = dup(fileno(stream));
    assert_true(saved >= 0);
    assert_true(dup2(fileno(*tmp), fileno(stream)) >= 0);
    return saved;
}

/* Restores stream and copies what was written to it into buf. */
static void capture_end(FILE *stream, FILE *tmp, int saved, char *buf, size_t len)
{
    fflush(stream);
    dup2(saved, fileno(stream));
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, len - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
}

/* Runs options_parse on the NULL-terminated args, capturing stdout and stderr. */
static int parse_args(struct parsed *p, const char *const *args)
{
    memset(p, 0, sizeof *p);
    while (args[p->argc]) {
        assert_true(p->argc < MAX_ARGS - 1);
        p->argv[p->argc] = (char *)args[p->argc];
        p->argc++;
    }
    FILE *out, *err;
    int saved_out = capture_begin(stdout, &out);
    int saved_err = capture_begin(stderr, &err);
    p->rc = options_parse(p->argc, p->argv, &p->cfg);
    capture_end(stderr, err, saved_err, p->err, sizeof p->err);
    capture_end(stdout, out, saved_out, p->out, sizeof p->out);
    return p->rc;
}

#define PARSE(p, ...) parse_args((p), (const char *const[]){__VA_ARGS__, NULL})

/* The accepted case: rc 0, nothing printed, and the guest argv starting at
 * args[first]. */
static void assert_accepted(const struct parsed *p, int first)
{
    assert_string_equal(p->err, "");
    assert_string_equal(p->out, "");
    assert_int_equal(p->rc, 0);
    assert_int_equal(p->cfg.argc, p->argc - first);
    assert_ptr_equal(p->cfg.argv, p->argv + first);
}

static void assert_aarch32(const struct parsed *p, const char *list)
{
    char buf[4096];
    cpulist_format(&p->cfg.aarch32, buf, sizeof buf);
    assert_string_equal(buf, list);
}

static void test_defaults(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "prog");
    assert_accepted(&p, 0);
    assert_int_equal(p.cfg.cpus, 8);
    assert_aarch32(&p, "0-3");
    assert_int_equal(cpumask_weight(&p.cfg.aarch32), 4);
    assert_string_equal(p.cfg.cmdline, "allow_mismatched_32bit_el0");
    assert_int_equal(p.cfg.policy, SCHED_POLICY_UPSTREAM);
    assert_int_equal(p.cfg.seed, 0);
    assert_string_equal(p.cfg.sysroot, "/");
    assert_null(p.cfg.libprefix);
    assert_false(p.cfg.strace);
    assert_int_equal(p.cfg.argc, 1);
    assert_string_equal(p.cfg.argv[0], "prog");
    assert_null(p.cfg.envp);
    for (unsigned cpu = 0; cpu < 8; cpu++)
        assert_int_equal(p.cfg.capacity[cpu], 1024);
}

/* The default --aarch32 is 0-3 cut to the vCPUs that exist. */
static void test_default_aarch32_follows_cpus(void **state)
{
    (void)state;
    static const struct {
        const char *cpus, *aarch32;
    } cases[] = {{"1", "0"}, {"2", "0-1"}, {"3", "0-2"}, {"4", "0-3"}, {"1024", "0-3"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct parsed p;
        PARSE(&p, "--cpus", cases[i].cpus, "prog");
        assert_accepted(&p, 2);
        assert_int_equal(p.cfg.cpus, (unsigned)atoi(cases[i].cpus));
        assert_aarch32(&p, cases[i].aarch32);
    }
}

static void test_cpus(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--cpus", "3", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.cpus, 3);
    PARSE(&p, "--cpus=5", "prog");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.cpus, 5);
    PARSE(&p, "--cpus", "1", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.cpus, 1);
    PARSE(&p, "--cpus=1024", "prog");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.cpus, 1024);
    /* The last one wins. */
    PARSE(&p, "--cpus", "3", "--cpus=6", "prog");
    assert_accepted(&p, 3);
    assert_int_equal(p.cfg.cpus, 6);
    assert_aarch32(&p, "0-3");
}

static void test_aarch32(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--aarch32", "0-3,6", "prog");
    assert_accepted(&p, 2);
    assert_aarch32(&p, "0-3,6");
    assert_int_equal(p.cfg.cpus, 8);
    PARSE(&p, "--aarch32=7", "prog");
    assert_accepted(&p, 1);
    assert_aarch32(&p, "7");
    /* Empty: a machine without 32-bit EL0. */
    PARSE(&p, "--aarch32", "", "prog");
    assert_accepted(&p, 2);
    assert_aarch32(&p, "");
    assert_int_equal(cpumask_weight(&p.cfg.aarch32), 0);
    PARSE(&p, "--aarch32=", "prog");
    assert_accepted(&p, 1);
    assert_true(cpumask_empty(&p.cfg.aarch32));
    /* Checked against the final --cpus, whatever the order. */
    PARSE(&p, "--aarch32", "6-7", "--cpus", "8", "prog");
    assert_accepted(&p, 4);
    assert_aarch32(&p, "6-7");
    PARSE(&p, "--cpus", "16", "--aarch32=8-15", "--cpus", "16", "prog");
    assert_accepted(&p, 5);
    assert_int_equal(p.cfg.cpus, 16);
    assert_aarch32(&p, "8-15");
}

/* --capacity: cpulists (commas allowed inside) each ended by =VALUE; the
 * vCPUs not named keep 1024. */
static void test_capacity(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--capacity", "0-3=512,4-7=1024", "prog");
    assert_accepted(&p, 2);
    for (unsigned cpu = 0; cpu < 8; cpu++)
        assert_int_equal(p.cfg.capacity[cpu], cpu < 4 ? 512 : 1024);
    PARSE(&p, "--capacity=0,2=1,5=100", "prog");
    assert_accepted(&p, 1);
    static const unsigned want[8] = {1, 1024, 1, 1024, 1024, 100, 1024, 1024};
    for (unsigned cpu = 0; cpu < 8; cpu++)
        assert_int_equal(p.cfg.capacity[cpu], want[cpu]);
    /* Checked against the final --cpus, whatever the order. */
    PARSE(&p, "--capacity", "8-15=300", "--cpus", "16", "prog");
    assert_accepted(&p, 4);
    assert_int_equal(p.cfg.capacity[7], 1024);
    assert_int_equal(p.cfg.capacity[8], 300);
    assert_int_equal(p.cfg.capacity[15], 300);
}

/* --soc: the preset's layout per CPU (core type, cluster, core_id, cpufreq
 * domain and its maximum), the CPU count, the 32-bit set and the capacities
 * of topology_normalize_cpu_scale() (docs/socs.md). */
static void test_soc(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--soc", "gs201", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.cpus, 8);
    assert_true(p.cfg.layout.custom);
    assert_string_equal(p.cfg.layout.soc->name, "gs201");
    assert_aarch32(&p, "0-7");
    static const char *const type[8] = {"cortex-a55", "cortex-a55", "cortex-a55", "cortex-a55",
                                        "cortex-a78", "cortex-a78", "cortex-x1",  "cortex-x1"};
    static const unsigned cluster[8] = {0, 0, 0, 0, 1, 1, 2, 2};
    static const unsigned core[8] = {0, 1, 2, 3, 0, 1, 0, 1};
    static const unsigned cap[8] = {158, 158, 158, 158, 510, 510, 1024, 1024};
    static const uint32_t khz[8] = {1803000, 1803000, 1803000, 1803000,
                                    2348000, 2348000, 2850000, 2850000};
    for (unsigned cpu = 0; cpu < 8; cpu++) {
        assert_string_equal(cpu_types[p.cfg.layout.type[cpu]].name, type[cpu]);
        assert_int_equal(p.cfg.layout.cluster[cpu], cluster[cpu]);
        assert_int_equal(p.cfg.layout.core[cpu], core[cpu]);
        assert_int_equal(p.cfg.capacity[cpu], cap[cpu]);
        assert_int_equal(cpu_layout_max_khz(&p.cfg.layout, cpu), khz[cpu]);
    }
    assert_int_equal(cpu_layout_midr(&p.cfg.layout, 6, true), 0x411fd441);

    /* No capacity-dmips-mhz in the tree: every CPU keeps 1024;
     * --capacity replaces the named ones. */
    PARSE(&p, "--soc", "sm8450", "--capacity", "7=1000", "prog");
    assert_accepted(&p, 4);
    assert_aarch32(&p, "4-6");
    assert_int_equal(p.cfg.capacity[0], 1024);
    assert_int_equal(p.cfg.capacity[7], 1000);
    assert_int_equal(cpu_layout_midr(&p.cfg.layout, 0, false), 0x411fd460);

    PARSE(&p, "--soc", "sm8650", "--cpus", "8", "prog");
    assert_accepted(&p, 4);
    assert_aarch32(&p, "");
    assert_int_equal(p.cfg.capacity[0], 393);
    assert_int_equal(p.cfg.capacity[2], 956);
    assert_int_equal(p.cfg.capacity[7], 1024);

    /* --soc list prints and stops: no PROGRAM needed. */
    PARSE(&p, "--soc", "list");
    assert_int_equal(p.rc, 1);
    assert_non_null(strstr(p.out, "sm8550: Qualcomm Snapdragon 8 Gen 2, 8 CPUs: 0-2 Cortex-A510, "
                                  "3-4 Cortex-A715, 5-6 Cortex-A710, 7 Cortex-X3; aarch32_el0: 5-6\n"));
}

/* --cpu-model: the CPU count from the CPUs named, capacities from
 * capacity-dmips-mhz alone (no cpufreq), no policies, and --aarch32 only
 * among cores that can run AArch32. */
static void test_cpu_model(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--cpu-model", "0,2=cortex-a510,1,3=cortex-a710,4=cortex-x2", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.cpus, 5);
    assert_null(p.cfg.layout.soc);
    assert_aarch32(&p, "1,3");
    assert_int_equal(p.cfg.capacity[0], 326);
    assert_int_equal(p.cfg.capacity[1], 693);
    assert_int_equal(p.cfg.capacity[4], 1024);
    for (unsigned cpu = 0; cpu < 5; cpu++) {
        assert_int_equal(cpu_layout_max_khz(&p.cfg.layout, cpu), 0);
        assert_int_equal(p.cfg.layout.cluster[cpu], 0);
    }
    PARSE(&p, "--cpu-model", "0-1=cortex-a510,2-3=cortex-a710", "--aarch32", "0,3", "prog");
    assert_accepted(&p, 4);
    assert_aarch32(&p, "0,3");
    PARSE(&p, "--cpus", "4", "--cpu-model", "0-1=cortex-a510", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value '0-1=cortex-a510' for --cpu-model: CPU 2 "
                               "has no core type (name every CPU from 0 to 3) (LIST=NAME,...)\n");
    PARSE(&p, "--cpu-model", "0=cortex-a55", "--aarch32", "", "prog");
    assert_accepted(&p, 4);
    assert_aarch32(&p, "");
}

static void test_cmdline(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--cmdline", "quiet console=ttyAMA0", "prog");
    assert_accepted(&p, 2);
    assert_string_equal(p.cfg.cmdline, "quiet console=ttyAMA0");
    PARSE(&p, "--cmdline=a=b", "prog");
    assert_accepted(&p, 1);
    assert_string_equal(p.cfg.cmdline, "a=b");
    PARSE(&p, "--cmdline=", "prog");
    assert_accepted(&p, 1);
    assert_string_equal(p.cfg.cmdline, "");
    PARSE(&p, "--cmdline", "", "prog");
    assert_accepted(&p, 2);
    assert_string_equal(p.cfg.cmdline, "");
}

static void test_policy(void **state)
{
    (void)state;
    static const struct {
        const char *name, *eq;
        enum sched_policy_id policy;
    } cases[] = {
        {"upstream", "--policy=upstream", SCHED_POLICY_UPSTREAM},
        {"override", "--policy=override", SCHED_POLICY_OVERRIDE},
        {"kill", "--policy=kill", SCHED_POLICY_KILL},
        {"fixup", "--policy=fixup", SCHED_POLICY_FIXUP},
        {"linux-6.6", "--policy=linux-6.6", SCHED_POLICY_LINUX66},
        {"linux-5.15", "--policy=linux-5.15", SCHED_POLICY_UPSTREAM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct parsed p;
        PARSE(&p, "--policy", cases[i].name, "prog");
        assert_accepted(&p, 2);
        assert_int_equal(p.cfg.policy, cases[i].policy);
        PARSE(&p, cases[i].eq, "prog");
        assert_accepted(&p, 1);
        assert_int_equal(p.cfg.policy, cases[i].policy);
    }
}

static void test_seed(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--seed", "9", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.seed, 9);
    PARSE(&p, "--seed=0", "prog");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.seed, 0);
    PARSE(&p, "--seed", "18446744073709551615", "prog");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.seed, UINT64_MAX);
    PARSE(&p, "--seed=4294967296", "prog");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.seed, UINT64_C(4294967296));
}

static void test_sysroot(void **state)
{
    (void)state;
    struct parsed p;
    char eq[sizeof tmpdir + 16];
    snprintf(eq, sizeof eq, "--sysroot=%s", tmpdir);
    PARSE(&p, "--sysroot", tmpdir, "prog");
    assert_accepted(&p, 2);
    assert_ptr_equal(p.cfg.sysroot, tmpdir);
    PARSE(&p, eq, "prog");
    assert_accepted(&p, 1);
    assert_string_equal(p.cfg.sysroot, tmpdir);
    assert_null(p.cfg.libprefix);
}

static void test_libprefix(void **state)
{
    (void)state;
    struct parsed p;
    char joined[sizeof tmpdir + 16];
    snprintf(joined, sizeof joined, "-L%s", tmpdir);
    PARSE(&p, "-L", tmpdir, "prog");
    assert_accepted(&p, 2);
    assert_ptr_equal(p.cfg.libprefix, tmpdir);
    assert_string_equal(p.cfg.sysroot, "/");
    PARSE(&p, joined, "prog");
    assert_accepted(&p, 1);
    assert_string_equal(p.cfg.libprefix, tmpdir);
}

static void test_strace(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--strace", "prog");
    assert_accepted(&p, 1);
    assert_true(p.cfg.strace);
}

/* Every option at once, in both spellings. */
static void test_all_options(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--cpus", "6", "--aarch32", "4-5", "--cmdline", "quiet", "--policy", "kill", "--seed",
          "42", "--sysroot", tmpdir, "-L", tmpdir, "--strace", "--", "prog", "x");
    assert_accepted(&p, 16);
    assert_int_equal(p.cfg.cpus, 6);
    assert_aarch32(&p, "4-5");
    assert_string_equal(p.cfg.cmdline, "quiet");
    assert_int_equal(p.cfg.policy, SCHED_POLICY_KILL);
    assert_int_equal(p.cfg.seed, 42);
    assert_string_equal(p.cfg.sysroot, tmpdir);
    assert_string_equal(p.cfg.libprefix, tmpdir);
    assert_true(p.cfg.strace);
    assert_int_equal(p.cfg.argc, 2);
    assert_string_equal(p.cfg.argv[0], "prog");
    assert_string_equal(p.cfg.argv[1], "x");

    char sysroot[sizeof tmpdir + 16], lib[sizeof tmpdir + 16];
    snprintf(sysroot, sizeof sysroot, "--sysroot=%s", tmpdir);
    snprintf(lib, sizeof lib, "-L%s", tmpdir);
    PARSE(&p, "--cpus=2", "--aarch32=1", "--cmdline=quiet", "--policy=fixup", "--seed=7", sysroot,
          lib, "--strace", "prog");
    assert_accepted(&p, 8);
    assert_int_equal(p.cfg.cpus, 2);
    assert_aarch32(&p, "1");
    assert_string_equal(p.cfg.cmdline, "quiet");
    assert_int_equal(p.cfg.policy, SCHED_POLICY_FIXUP);
    assert_int_equal(p.cfg.seed, 7);
    assert_string_equal(p.cfg.sysroot, tmpdir);
    assert_string_equal(p.cfg.libprefix, tmpdir);
    assert_true(p.cfg.strace);
    assert_int_equal(p.cfg.argc, 1);
}

/* `--` ends the options: what follows is PROGRAM and its arguments. */
static void test_dashdash(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--", "prog");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.argc, 1);
    assert_string_equal(p.cfg.argv[0], "prog");

    PARSE(&p, "--cpus", "2", "--", "--cpus", "3");
    assert_accepted(&p, 3);
    assert_int_equal(p.cfg.cpus, 2);
    assert_string_equal(p.cfg.argv[0], "--cpus");
    assert_string_equal(p.cfg.argv[1], "3");

    PARSE(&p, "--", "prog", "--", "--strace");
    assert_accepted(&p, 1);
    assert_int_equal(p.cfg.argc, 3);
    assert_string_equal(p.cfg.argv[1], "--");
    assert_string_equal(p.cfg.argv[2], "--strace");
    assert_false(p.cfg.strace);

    /* A lone "-" is a program name, not an option. */
    PARSE(&p, "-", "x");
    assert_accepted(&p, 0);
    assert_string_equal(p.cfg.argv[0], "-");
}

/* Without `--`, the first non-option is PROGRAM and the rest is the guest's. */
static void test_options_after_program(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "prog", "--cpus", "3");
    assert_accepted(&p, 0);
    assert_int_equal(p.cfg.cpus, 8);
    assert_int_equal(p.cfg.argc, 3);
    assert_string_equal(p.cfg.argv[0], "prog");
    assert_string_equal(p.cfg.argv[1], "--cpus");
    assert_string_equal(p.cfg.argv[2], "3");

    PARSE(&p, "--seed", "1", "prog", "--seed", "2", "--help", "--frobnicate");
    assert_accepted(&p, 2);
    assert_int_equal(p.cfg.seed, 1);
    assert_int_equal(p.cfg.argc, 5);
    assert_string_equal(p.cfg.argv[4], "--frobnicate");
}

static void test_help(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--help");
    assert_int_equal(p.rc, 1);
    assert_string_equal(p.err, "");
    assert_ptr_equal(strstr(p.out, "usage: asymu run [OPTIONS] [--] PROGRAM [ARGS...]\n"), p.out);
    PARSE(&p, "--cpus", "2", "-h", "prog");
    assert_int_equal(p.rc, 1);
    assert_ptr_equal(strstr(p.out, "usage: asymu run "), p.out);
}

static void test_version(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "--version", "prog");
    assert_int_equal(p.rc, 1);
    assert_string_equal(p.err, "");
    assert_ptr_equal(strstr(p.out, "asymu " ASYMU_VERSION " (Unicorn "), p.out);
}

static void test_limits_and_tmp_options(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "prog");
    assert_int_equal(p.cfg.max_procs, 4096);
    assert_int_equal(p.cfg.max_mem, 0);
    assert_int_equal(p.cfg.host_reserve, UINT64_C(512) << 20);
    assert_false(p.cfg.rw);
    assert_false(p.cfg.keep_tmp);
    PARSE(&p, "--max-procs", "5", "--max-mem=512M", "--rw", "--keep-tmp", "prog");
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.cfg.max_procs, 5);
    assert_int_equal(p.cfg.max_mem, UINT64_C(512) << 20);
    assert_true(p.cfg.rw);
    assert_true(p.cfg.keep_tmp);
    PARSE(&p, "--max-mem", "2G", "prog");
    assert_int_equal(p.cfg.max_mem, UINT64_C(2) << 30);
    PARSE(&p, "--host-reserve", "1G", "prog");
    assert_int_equal(p.cfg.host_reserve, UINT64_C(1) << 30);
    PARSE(&p, "--host-reserve", "lots", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value 'lots' for --host-reserve: a size like "
                               "512M or 2G\n");
    assert_int_equal(p.cfg.max_kmem, 0);
    PARSE(&p, "--max-kmem", "16M", "prog");
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.cfg.max_kmem, UINT64_C(16) << 20);
    PARSE(&p, "--max-kmem", "4k", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value '4k' for --max-kmem: a size from 1M to "
                               "1024G, like 256M or 2G\n");
    PARSE(&p, "--max-mem", "64k", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value '64k' for --max-mem: a size from 1M to "
                               "1024G, like 512M or 2G\n");
    PARSE(&p, "--max-procs", "0", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value '0' for --max-procs: a number of "
                               "processes from 1 to 1000000\n");
    PARSE(&p, "--cpus", "010", "prog");
    assert_int_equal(p.cfg.cpus, 10);
    PARSE(&p, "--cpus", "0x10", "prog");
    assert_int_equal(p.rc, -1);
}

/* --gdb PORT (0 for any) and --gdb-wait, which needs it. */
static void test_gdb(void **state)
{
    (void)state;
    struct parsed p;
    PARSE(&p, "prog");
    assert_false(p.cfg.gdb);
    assert_false(p.cfg.gdb_wait);
    PARSE(&p, "--gdb", "1234", "--gdb-wait", "prog");
    assert_accepted(&p, 3);
    assert_true(p.cfg.gdb);
    assert_int_equal(p.cfg.gdb_port, 1234);
    assert_true(p.cfg.gdb_wait);
    PARSE(&p, "--gdb=0", "prog");
    assert_accepted(&p, 1);
    assert_true(p.cfg.gdb);
    assert_int_equal(p.cfg.gdb_port, 0);
    PARSE(&p, "--gdb", "65536", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: invalid value '65536' for --gdb: a TCP port from 0 "
                               "(any free one) to 65535\n");
    PARSE(&p, "--gdb-wait", "prog");
    assert_int_equal(p.rc, -1);
    assert_string_equal(p.err, "asymu run: option --gdb-wait needs --gdb PORT\n");
}

/* The usage text lists every option with its argument. */
static void test_usage_lists_every_option(void **state)
{
    (void)state;
    static const char *const heads[] = {
        "  --cpus N ",      "  --aarch32 LIST ", "  --cmdline STRING ",
        "  --policy NAME ", "  --seed N ",       "  --sysroot DIR ",
        "  -L DIR ",        "  --strace ",       "  --rw ",
        "  --keep-tmp ",    "  --max-procs N ",  "  --max-mem SIZE ",
        "  --help ",        "  --version "};
    char out[32768];
    FILE *tmp;
    int saved = capture_begin(stdout, &tmp);
    options_usage(stdout);
    capture_end(stdout, tmp, saved, out, sizeof out);
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        if (!strstr(out, heads[i]))
            fail_msg("usage does not list \"%s\":\n%s", heads[i], out);
}

/* A rejected command line: rc -1, nothing on stdout, exactly this on stderr. */
struct bad_case {
    const char *args[6];
    const char *err;
};

static void check_bad(const struct bad_case *c)
{
    struct parsed p;
    parse_args(&p, c->args);
    if (p.rc != -1 || strcmp(p.err, c->err) != 0)
        fail_msg("args starting \"%s\": rc %d (want -1), stderr:\n%s\nwant:\n%s",
                 c->args[0] ? c->args[0] : "", p.rc, p.err, c->err);
    assert_string_equal(p.out, "");
}

static void test_bad_values(void **state)
{
    (void)state;
    static const struct bad_case cases[] = {
        {{"--cpus", "0", "prog"},
         "asymu run: invalid value '0' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "1025", "prog"},
         "asymu run: invalid value '1025' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "abc", "prog"},
         "asymu run: invalid value 'abc' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "8x", "prog"},
         "asymu run: invalid value '8x' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "", "prog"},
         "asymu run: invalid value '' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus=", "prog"},
         "asymu run: invalid value '' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "-1", "prog"},
         "asymu run: invalid value '-1' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", " 8", "prog"},
         "asymu run: invalid value ' 8' for --cpus: a number of vCPUs from 1 to 1024\n"},
        {{"--cpus", "18446744073709551617", "prog"},
         "asymu run: invalid value '18446744073709551617' for --cpus: a number of vCPUs from 1 "
         "to 1024\n"},
        {{"--aarch32", "4-7", "--cpus", "4", "prog"},
         "asymu run: invalid value '4-7' for --aarch32: CPU 4 is out of range 0-3 (a cpulist "
         "within 0-3, or empty)\n"},
        {{"--aarch32=2", "--cpus=2", "prog"},
         "asymu run: invalid value '2' for --aarch32: CPU 2 is out of range 0-1 (a cpulist "
         "within 0-1, or empty)\n"},
        {{"--aarch32", "8", "prog"},
         "asymu run: invalid value '8' for --aarch32: CPU 8 is out of range 0-7 (a cpulist "
         "within 0-7, or empty)\n"},
        {{"--aarch32", "3-1", "prog"},
         "asymu run: invalid value '3-1' for --aarch32: bad range 3-1 (start after end) (a "
         "cpulist within 0-7, or empty)\n"},
        {{"--policy", "nope", "prog"},
         "asymu run: invalid value 'nope' for --policy: one of upstream (or linux-5.15), "
         "linux-6.6, override, kill, fixup\n"},
        {{"--policy=Upstream", "prog"},
         "asymu run: invalid value 'Upstream' for --policy: one of upstream (or linux-5.15), "
         "linux-6.6, override, kill, fixup\n"},
        {{"--policy", "", "prog"},
         "asymu run: invalid value '' for --policy: one of upstream (or linux-5.15), "
         "linux-6.6, override, kill, fixup\n"},
        {{"--seed", "-1", "prog"},
         "asymu run: invalid value '-1' for --seed: an unsigned 64-bit number\n"},
        {{"--seed", "abc", "prog"},
         "asymu run: invalid value 'abc' for --seed: an unsigned 64-bit number\n"},
        {{"--seed=18446744073709551616", "prog"},
         "asymu run: invalid value '18446744073709551616' for --seed: an unsigned 64-bit "
         "number\n"},
        {{"--seed", "", "prog"},
         "asymu run: invalid value '' for --seed: an unsigned 64-bit number\n"},
        {{"--capacity", "0-3", "prog"},
         "asymu run: invalid value '0-3' for --capacity: '0-3' has no =VALUE (LIST=VALUE,... "
         "with cpulists within 0-7)\n"},
        {{"--capacity", "0-3=1025", "prog"},
         "asymu run: invalid value '0-3=1025' for --capacity: capacity '1025' is not a number "
         "from 1 to 1024 (LIST=VALUE,... with cpulists within 0-7)\n"},
        {{"--capacity", "0=0", "prog"},
         "asymu run: invalid value '0=0' for --capacity: capacity '0' is not a number from 1 to "
         "1024 (LIST=VALUE,... with cpulists within 0-7)\n"},
        {{"--capacity", "1=4x", "prog"},
         "asymu run: invalid value '1=4x' for --capacity: capacity '4x' is not a number from 1 "
         "to 1024 (LIST=VALUE,... with cpulists within 0-7)\n"},
        {{"--capacity", "4=5", "--cpus", "4", "prog"},
         "asymu run: invalid value '4=5' for --capacity: CPU 4 is out of range 0-3 "
         "(LIST=VALUE,... with cpulists within 0-3)\n"},
        {{"--capacity", "0-3=5,3=6", "prog"},
         "asymu run: invalid value '0-3=5,3=6' for --capacity: CPU 3 is given two capacities "
         "(LIST=VALUE,... with cpulists within 0-7)\n"},
        {{"--capacity", "=5", "prog"},
         "asymu run: invalid value '=5' for --capacity: no CPUs before '=5' (LIST=VALUE,... "
         "with cpulists within 0-7)\n"},
        {{"--capacity", " \v=5", "prog"},
         "asymu run: invalid value ' \v=5' for --capacity: no CPUs before '=5' (LIST=VALUE,... "
         "with cpulists within 0-7)\n"},
        {{"--cpu-model", "\v\v=cortex-a510", "prog"},
         "asymu run: invalid value '\v\v=cortex-a510' for --cpu-model: no CPUs before "
         "'=cortex-a510' (LIST=NAME,...)\n"},
        {{"--capacity", "0=5,", "prog"},
         "asymu run: invalid value '0=5,' for --capacity: nothing after the last ',' "
         "(LIST=VALUE,... with cpulists within 0-7)\n"},
        {{"--capacity"}, "asymu run: option --capacity needs a value (LIST=VALUE,...)\n"},
        {{"--cpus"}, "asymu run: option --cpus needs a value (N)\n"},
        {{"--aarch32"}, "asymu run: option --aarch32 needs a value (LIST)\n"},
        {{"--cmdline"}, "asymu run: option --cmdline needs a value (STRING)\n"},
        {{"--policy"}, "asymu run: option --policy needs a value (NAME)\n"},
        {{"--seed"}, "asymu run: option --seed needs a value (N)\n"},
        {{"--sysroot"}, "asymu run: option --sysroot needs a value (DIR)\n"},
        {{"--strace", "-L"}, "asymu run: option -L needs a value (DIR)\n"},
        {{"--frobnicate", "prog"},
         "asymu run: unknown option '--frobnicate' (see asymu run --help)\n"},
        {{"--cpu", "4", "prog"}, "asymu run: unknown option '--cpu' (see asymu run --help)\n"},
        {{"--cpus-max=4", "prog"},
         "asymu run: unknown option '--cpus-max' (see asymu run --help)\n"},
        {{"-x", "prog"}, "asymu run: unknown option '-x' (see asymu run --help)\n"},
        {{"--strace=1", "prog"}, "asymu run: option --strace takes no value\n"},
        {{"--strace=", "prog"}, "asymu run: option --strace takes no value\n"},
        {{NULL}, "asymu run: missing PROGRAM (see asymu run --help)\n"},
        {{"--cpus", "2"}, "asymu run: missing PROGRAM (see asymu run --help)\n"},
        {{"--strace", "--"}, "asymu run: missing PROGRAM (see asymu run --help)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_bad(&cases[i]);
}

/* Directories are checked when parsed: they must exist and be directories. */
static void test_bad_directories(void **state)
{
    (void)state;
    char want[512], joined[sizeof missing_path + 4];
    struct bad_case c = {{"--sysroot", tmpfile_path, "prog"}, want};
    snprintf(want, sizeof want, "asymu run: invalid value '%s' for --sysroot: not a directory\n",
             tmpfile_path);
    check_bad(&c);

    c = (struct bad_case){{"--sysroot", missing_path, "prog"}, want};
    snprintf(want, sizeof want,
             "asymu run: invalid value '%s' for --sysroot: No such file or directory\n",
             missing_path);
    check_bad(&c);

    c = (struct bad_case){{"-L", tmpfile_path, "prog"}, want};
    snprintf(want, sizeof want, "asymu run: invalid value '%s' for -L: not a directory\n",
             tmpfile_path);
    check_bad(&c);

    snprintf(joined, sizeof joined, "-L%s", missing_path);
    c = (struct bad_case){{joined, "prog"}, want};
    snprintf(want, sizeof want, "asymu run: invalid value '%s' for -L: No such file or directory\n",
             missing_path);
    check_bad(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_gdb),
        cmocka_unit_test(test_default_aarch32_follows_cpus),
        cmocka_unit_test(test_cpus),
        cmocka_unit_test(test_aarch32),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_cmdline),
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_sysroot),
        cmocka_unit_test(test_libprefix),
        cmocka_unit_test(test_strace),
        cmocka_unit_test(test_all_options),
        cmocka_unit_test(test_dashdash),
        cmocka_unit_test(test_options_after_program),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_soc),
        cmocka_unit_test(test_cpu_model),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_limits_and_tmp_options),
        cmocka_unit_test(test_usage_lists_every_option),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_bad_directories),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
