/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c - the `asymu run` options as one table (name, argument, default,
 * help, handler) from which parsing, --help and docs/options.md come. */
#include "emu.h"
#include "options.h"
#include "energy.h"
#include "sched_policy.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

#define DEFAULT_CPUS 8
#define DEFAULT_AARCH32 "0-3"
#define DEFAULT_CMDLINE "allow_mismatched_32bit_el0"

/* Parse state: values that are checked against each other after parsing,
 * and where one parse reports its errors. Each parse has its own, on
 * options_parse's stack (asymu replay parses the machine sections of
 * several scenarios). */
struct parse {
    struct emu_config *cfg;
    FILE *errors;        /* where bad values are reported: stderr, or a scenario's error text */
    const char *aarch32; /* text of --aarch32, checked once --cpus is known */
    const char *capacity; /* text of --capacity, likewise */
    const char *soc;      /* --soc NAME */
    const char *cpu_model; /* text of --cpu-model */
    const char *energy_model; /* --energy-model FILE or none */
    bool cpus_set;        /* --cpus was given */
    bool list_socs;       /* --soc list */
    /* finish_layout's: each CPU's capacity-dmips-mhz and maximum MHz, from
     * which cfg->capacity is computed. */
    uint16_t dmips[NR_CPUS_MAX];
    uint32_t mhz[NR_CPUS_MAX];
};

typedef int (*option_fn)(struct parse *ps, const char *opt, const char *val);

struct option_def {
    const char *name;  /* "--cpus" */
    const char *alias; /* "-L" or NULL */
    const char *arg;   /* metavariable, NULL for a flag */
    const char *deflt; /* default, as text */
    const char *help;
    option_fn fn;
};

static int bad(const struct parse *ps, const char *opt, const char *val, const char *allowed)
{
    fprintf(ps->errors, "asymu run: invalid value '%s' for %s: %s\n", val, opt, allowed);
    return -1;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!*s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* "4096", "64K", "512M", "3G": bytes. */
static bool parse_size(const char *s, uint64_t *out)
{
    if (!*s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    else if (*end == 'G' || *end == 'g')
        shift = 30, end++;
    if (errno || *end || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

static int opt_cpus(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v < 1 || v > NR_CPUS_MAX)
        return bad(ps, opt, val, "a number of vCPUs from 1 to 1024");
    ps->cfg->cpus = (unsigned)v;
    ps->cpus_set = true;
    return 0;
}

static int opt_aarch32(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->aarch32 = val;
    return 0;
}

static int opt_capacity(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->capacity = val;
    return 0;
}

static int opt_soc(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    if (strcmp(val, "list") == 0)
        ps->list_socs = true;
    else
        ps->soc = val;
    return 0;
}

static int opt_energy_model(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->energy_model = val;
    return 0;
}

static int opt_cpu_model(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cpu_model = val;
    return 0;
}

/* "0-3=cortex-a510,4-7=cortex-x2": cpulists, each ended by =NAME of
 * cpu_types (a list may hold commas: "0,2=cortex-a55"). Every vCPU from 0
 * to the highest named must be named once. nr_cpus is --cpus, or 0 when
 * the highest CPU named decides it (*nr_out). */
static int parse_cpu_model(const char *text, unsigned nr_cpus, struct cpu_layout *l,
                           unsigned *nr_out, char *why, size_t whylen)
{
    struct cpumask seen;
    cpumask_clear(&seen);
    memset(l, 0, sizeof *l);
    l->custom = true;
    const char *p = text;
    do {
        const char *eq = strchr(p, '=');
        if (!eq) {
            snprintf(why, whylen, "'%s' has no =NAME", p);
            return -1;
        }
        char list[4096], name[32], sub[128];
        snprintf(list, sizeof list, "%.*s", (int)(eq - p), p);
        struct cpumask m, both;
        if (cpulist_parse(list, nr_cpus ? nr_cpus : NR_CPUS_MAX, &m, sub, sizeof sub) < 0) {
            snprintf(why, whylen, "%s", sub);
            return -1;
        }
        if (cpumask_empty(&m)) { /* "", or only blanks: a cpulist may be empty, a core type's may not */
            snprintf(why, whylen, "no CPUs before '%s'", eq);
            return -1;
        }
        const char *v = eq + 1;
        size_t len = strcspn(v, ",");
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), v);
        const struct cpu_type *t = len < sizeof name ? cpu_type_find(name) : NULL;
        if (!t) {
            int n = snprintf(why, whylen, "'%.*s' is not a core type; one of", (int)len, v);
            for (size_t i = 0; i < cpu_types_count && n > 0 && (size_t)n < whylen; i++)
                n += snprintf(why + n, whylen - (size_t)n, "%s %s", i ? "," : "", cpu_types[i].name);
            return -1;
        }
        if (cpumask_and(&both, &m, &seen)) {
            snprintf(why, whylen, "CPU %u is given two core types", cpumask_first(&both));
            return -1;
        }
        cpumask_or(&seen, &seen, &m);
        unsigned cpu;
        for_each_cpu(cpu, &m) {
            l->type[cpu] = (uint8_t)(t - cpu_types);
            l->core[cpu] = (uint16_t)cpu; /* one cluster, as a DynamIQ cpu-map */
            l->domain[cpu] = -1;          /* no cpufreq without a preset's OPP tables */
        }
        p = v + len;
        if (*p == ',' && !*++p) {
            snprintf(why, whylen, "nothing after the last ','");
            return -1;
        }
    } while (*p);
    unsigned nr = nr_cpus;
    if (!nr) {
        unsigned cpu;
        for_each_cpu(cpu, &seen) nr = cpu + 1;
    }
    for (unsigned cpu = 0; cpu < nr; cpu++) {
        if (!cpumask_test_cpu(cpu, &seen)) {
            snprintf(why, whylen, "CPU %u has no core type (name every CPU from 0 to %u)", cpu,
                     nr - 1);
            return -1;
        }
    }
    *nr_out = nr;
    return 0;
}

/* "0-3=512,4-7=1024": cpulists, each ended by =VALUE (a list may hold
 * commas: "0,2=512"). Unnamed vCPUs keep 1024; a vCPU named twice is an
 * error. */
static int parse_capacity(const char *text, unsigned nr_cpus, uint16_t *out, char *why,
                          size_t whylen)
{
    struct cpumask seen;
    cpumask_clear(&seen);
    const char *p = text;
    do {
        const char *eq = strchr(p, '=');
        if (!eq) {
            snprintf(why, whylen, "'%s' has no =VALUE", p);
            return -1;
        }
        char list[4096];
        snprintf(list, sizeof list, "%.*s", (int)(eq - p), p);
        struct cpumask m, both;
        char sub[128];
        if (cpulist_parse(list, nr_cpus, &m, sub, sizeof sub) < 0) {
            snprintf(why, whylen, "%s", sub);
            return -1;
        }
        if (cpumask_empty(&m)) {
            snprintf(why, whylen, "no CPUs before '%s'", eq);
            return -1;
        }
        const char *v = eq + 1;
        size_t digits = strspn(v, "0123456789");
        unsigned long value = digits && digits < 6 ? strtoul(v, NULL, 10) : 0;
        if (value < 1 || value > 1024 || (v[digits] != ',' && v[digits] != '\0')) {
            snprintf(why, whylen, "capacity '%.*s' is not a number from 1 to 1024",
                     (int)strcspn(v, ","), v);
            return -1;
        }
        if (cpumask_and(&both, &m, &seen)) {
            snprintf(why, whylen, "CPU %u is given two capacities", cpumask_first(&both));
            return -1;
        }
        cpumask_or(&seen, &seen, &m);
        unsigned cpu;
        for_each_cpu(cpu, &m)
            out[cpu] = (uint16_t)value;
        p = v + digits;
        if (*p == ',' && !*++p) {
            snprintf(why, whylen, "nothing after the last ','");
            return -1;
        }
    } while (*p);
    return 0;
}

static int opt_cmdline(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->cmdline = val;
    return 0;
}

static int opt_policy(struct parse *ps, const char *opt, const char *val)
{
    if (sched_policy_from_name(val, &ps->cfg->policy) == 0)
        return 0;
    char accepted[256];
    sched_policy_accepted(accepted, sizeof accepted);
    return bad(ps, opt, val, accepted);
}

static int opt_seed(struct parse *ps, const char *opt, const char *val)
{
    if (!parse_u64(val, &ps->cfg->seed))
        return bad(ps, opt, val, "an unsigned 64-bit number");
    return 0;
}

static int need_dir(const struct parse *ps, const char *opt, const char *val)
{
    struct stat st;
    if (stat(val, &st) < 0)
        return bad(ps, opt, val, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return bad(ps, opt, val, "not a directory");
    return 0;
}

static int opt_sysroot(struct parse *ps, const char *opt, const char *val)
{
    ps->cfg->sysroot = val;
    return need_dir(ps, opt, val);
}

/* -E VAR=VALUE and -U VAR (qemu-user's): kept in order, applied to the
 * guest's environment by env_apply(). */
static int add_env_edit(struct parse *ps, const char *opt, const char *val, bool set)
{
    const char *eq = strchr(val, '=');
    if (!val[0] || val[0] == '=' || (set ? !eq : eq != NULL))
        return bad(ps, opt, val, set ? "VAR=VALUE" : "a variable's name, without =");
    if (ps->cfg->nenv_edits == EMU_ENV_EDITS_MAX)
        return bad(ps, opt, val, "at most 256 -E and -U options");
    ps->cfg->env_edits[ps->cfg->nenv_edits++] = val; /* an = tells a set from an unset */
    return 0;
}

static int opt_env_set(struct parse *ps, const char *opt, const char *val)
{
    return add_env_edit(ps, opt, val, true);
}

static int opt_env_unset(struct parse *ps, const char *opt, const char *val)
{
    return add_env_edit(ps, opt, val, false);
}

static int opt_cwd(struct parse *ps, const char *opt, const char *val)
{
    if (!val[0])
        return bad(ps, opt, val, "a directory of the guest");
    ps->cfg->cwd = val;
    return 0;
}

static int opt_libprefix(struct parse *ps, const char *opt, const char *val)
{
    ps->cfg->libprefix = val;
    return need_dir(ps, opt, val);
}

static int opt_strace(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->strace = true;
    return 0;
}

static int opt_dmesg(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->dmesg = true;
    return 0;
}

static int opt_check_invariants(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->check_invariants = true;
    return 0;
}

static int opt_trace(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->trace_path = val;
    return 0;
}

const char *const options_trace_formats[] = {
    [EMU_TRACE_JSON] = "json", [EMU_TRACE_FTRACE] = "ftrace", [EMU_TRACE_DAT] = "dat"};
const size_t options_trace_formats_count =
    sizeof options_trace_formats / sizeof *options_trace_formats;

static int opt_trace_format(struct parse *ps, const char *opt, const char *val)
{
    for (size_t i = 0; i < options_trace_formats_count; i++) {
        if (strcmp(val, options_trace_formats[i]) == 0) {
            ps->cfg->trace_format = (enum emu_trace_format)i;
            return 0;
        }
    }
    return bad(ps, opt, val, "json, ftrace or dat");
}

static int opt_timeline(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->timeline_path = val;
    return 0;
}

static int opt_slice(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v < 100 || v > 10000000)
        return bad(ps, opt, val, "a number of guest basic blocks from 100 to 10000000");
    ps->cfg->slice_blocks = (unsigned)v;
    return 0;
}

/* CONFIG_HZ: the values Linux's kernel/Kconfig.hz offers. */
static int opt_hz(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || (v != 100 && v != 250 && v != 300 && v != 1000))
        return bad(ps, opt, val, "100, 250, 300 or 1000 (the CONFIG_HZ values Linux offers)");
    ps->cfg->hz = (unsigned)v;
    return 0;
}

/* "0.5", "3", "2.25": instructions per ns, in thousandths. */
static int opt_insn_rate(struct parse *ps, const char *opt, const char *val)
{
    const char *p = val;
    uint64_t whole = 0, milli = 0;
    unsigned digits = 0, frac = 0;
    for (; isdigit((unsigned char)*p) && digits < 4; p++, digits++)
        whole = whole * 10 + (uint64_t)(*p - '0');
    if (digits && *p == '.')
        for (p++; isdigit((unsigned char)*p) && frac < 3; p++, frac++)
            milli = milli * 10 + (uint64_t)(*p - '0');
    for (unsigned f = frac; f < 3; f++)
        milli *= 10;
    uint64_t v = whole * 1000 + milli;
    if (!digits || *p || (val[digits] == '.' && !frac) || v < 1 || v > 100000)
        return bad(ps, opt, val,
                   "instructions per ns from 0.001 to 100, with at most 3 decimals, like 0.5");
    ps->cfg->insn_rate_milli = (uint32_t)v;
    return 0;
}

/* The table --costs gives is kept in the configuration it is for. */
static int opt_costs(struct parse *ps, const char *opt, const char *val)
{
    char why[512];
    if (emu_costs_load(val, &ps->cfg->costs_file, why, sizeof why) < 0) {
        fprintf(ps->errors, "asymu run: %s: %s\n", opt, why);
        return -1;
    }
    ps->cfg->costs = &ps->cfg->costs_file;
    return 0;
}

static int opt_control(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->control_path = val;
    return 0;
}

static int opt_record(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->record_path = val;
    return 0;
}

static int opt_input(struct parse *ps, const char *opt, const char *val)
{
    (void)opt;
    ps->cfg->input_path = val;
    return 0;
}

static int opt_gdb(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v > 65535)
        return bad(ps, opt, val, "a TCP port from 0 (any free one) to 65535");
    ps->cfg->gdb = true;
    ps->cfg->gdb_port = (int)v;
    return 0;
}

static int opt_gdb_wait(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->gdb_wait = true;
    return 0;
}

static int opt_sysfs_mount(struct parse *ps, const char *opt, const char *val)
{
    ps->cfg->sysfs_mount = val;
    /* A FUSE mount whose server died answers ENOTCONN once the cached
     * attributes are bypassed. */
    struct statx stx;
    if (statx(AT_FDCWD, val, AT_STATX_FORCE_SYNC, STATX_TYPE, &stx) < 0 && errno == ENOTCONN) {
        char allowed[4096 + 128];
        snprintf(allowed, sizeof allowed,
                 "a leftover mount of an asymu that was killed is still there; remove it with: "
                 "fusermount3 -u %s",
                 val);
        return bad(ps, opt, val, allowed);
    }
    return need_dir(ps, opt, val);
}

static int opt_no_kvm(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->no_kvm = true;
    return 0;
}

static int opt_no_sandbox(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->no_sandbox = true;
    return 0;
}

static int opt_rw(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->rw = true;
    return 0;
}

static int opt_keep_tmp(struct parse *ps, const char *opt, const char *val)
{
    (void)opt, (void)val;
    ps->cfg->keep_tmp = true;
    return 0;
}

static int opt_tmp_size(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_size(val, &v) || v < 4096 || v > (UINT64_C(1) << 50))
        return bad(ps, opt, val, "a size from 4K, like 64M or 2G");
    ps->cfg->tmp_size = v;
    return 0;
}

static int opt_max_procs(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v < 1 || v > 1000000)
        return bad(ps, opt, val, "a number of processes from 1 to 1000000");
    ps->cfg->max_procs = (unsigned)v;
    return 0;
}

static int opt_host_reserve(struct parse *ps, const char *opt, const char *val)
{
    if (!parse_size(val, &ps->cfg->host_reserve) || ps->cfg->host_reserve > (UINT64_C(1) << 50))
        return bad(ps, opt, val, "a size like 512M or 2G");
    return 0;
}

static int opt_max_kmem(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_size(val, &v) || v < (1u << 20) || v > (UINT64_C(1) << 40))
        return bad(ps, opt, val, "a size from 1M to 1024G, like 256M or 2G");
    ps->cfg->max_kmem = v;
    return 0;
}

static int opt_warm_engines(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_u64(val, &v) || v < 1 || v > 1000000)
        return bad(ps, opt, val, "a number of engines from 1 to 1000000");
    ps->cfg->warm_engines = (unsigned)v;
    return 0;
}

static int opt_max_mem(struct parse *ps, const char *opt, const char *val)
{
    uint64_t v;
    if (!parse_size(val, &v) || v < (1u << 20) || v > (UINT64_C(1) << 40))
        return bad(ps, opt, val, "a size from 1M to 1024G, like 512M or 2G");
    ps->cfg->max_mem = v;
    return 0;
}

static const struct option_def options[] = {
    {"--cpus", NULL, "N", "8", "number of vCPUs, 1 to 1024", opt_cpus},
    {"--aarch32", NULL, "LIST", DEFAULT_AARCH32 " (those that exist)",
     "cpulist of the vCPUs that run 32-bit (AArch32) code, e.g. 0-3,6; may be empty",
     opt_aarch32},
    {"--capacity", NULL, "LIST=VALUE,...", "1024 for every vCPU",
     "cpu_capacity of vCPUs (1 to 1024), e.g. 0-3=512,4-7=1024 for little and big cores: "
     "in sysfs, how fast each runs (capacity 512 takes twice as long, docs/timing.md), and "
     "where the scheduler places tasks and migrates misfit ones (docs/scheduler.md); "
     "vCPUs not named keep 1024",
     opt_capacity},
    {"--soc", NULL, "NAME", "none (a generic machine)",
     "a SoC preset: sm8450, mt6983, sm8550, gs201 or sm8650 (--soc list prints each with its "
     "sources, docs/socs.md): core type (MIDR), 32-bit capability, cpu_capacity, topology and "
     "cpufreq policies per CPU; --aarch32 may pick its 32-bit CPUs among cores that can run AArch32, --capacity override "
     "capacities, --cpus only repeat its CPU count",
     opt_soc},
    {"--cpu-model", NULL, "LIST=NAME,...", "none (Cortex-A710 where 32-bit, else Cortex-X2)",
     "the core type of every vCPU, e.g. 0-3=cortex-a55,4-7=cortex-x1 (cortex-a55, -a78, -x1, "
     "-a510, -a520, -a710, -a715, -a720, -x2, -x3, -x4): MIDR, 32-bit capability and "
     "capacity-dmips-mhz from the core-type table (docs/socs.md); --cpus defaults to the "
     "CPUs named",
     opt_cpu_model},
    {"--energy-model", NULL, "FILE", "the --soc preset's (sm8550, sm8650), else none",
     "performance domains with their OPPs and power (docs/socs.md, \"Energy model\"): lines "
     "'domain CPULIST' then 'kHz mW' per OPP; every vCPU in one domain. schedutil sets each "
     "domain's frequency (guest code runs slower below the maximum) and, on a machine of "
     "several capacities, wake-ups are placed where they cost least energy "
     "(find_energy_efficient_cpu(), docs/scheduler.md); 'none' turns the model off",
     opt_energy_model},
    {"--cmdline", NULL, "STRING", DEFAULT_CMDLINE,
     "the emulated kernel command line; without allow_mismatched_32bit_el0 an asymmetric "
     "machine runs 64-bit user space only",
     opt_cmdline},
    {"--policy", NULL, "NAME", "upstream",
     "how the kernel keeps 32-bit tasks on 32-bit vCPUs: ", opt_policy},
    {"--seed", NULL, "N", "0",
     "seed of every random value the guest sees (AT_RANDOM, getrandom, /dev/urandom)", opt_seed},
    {"--sysroot", NULL, "DIR", "/",
     "host directory that is the guest's /, read-only; PROGRAM may then be a path inside it "
     "(as chroot and qemu-user -L take it), or a host path",
     opt_sysroot},
    {"--cwd", NULL, "DIR", "the host's working directory if the guest has it, else /",
     "the guest's starting directory (a guest path)", opt_cwd},
    {"-E", NULL, "VAR=VALUE", "none",
     "set VAR in the guest's environment (which is asymu's otherwise), as qemu-user's -E; "
     "may be repeated", opt_env_set},
    {"-U", NULL, "VAR", "none", "remove VAR from the guest's environment, as qemu-user's -U",
     opt_env_unset},
    {"-L", NULL, "DIR", "none",
     "library prefix tried first for absolute paths such as the ELF interpreter (as qemu-user)",
     opt_libprefix},
    {"--strace", NULL, NULL, "off", "print one line per guest syscall on stderr, as strace does",
     opt_strace},
    {"--dmesg", NULL, NULL, "off", "print the emulated kernel log on stderr when the run ends",
     opt_dmesg},
    {"--check-invariants", NULL, NULL, "off",
     "after every switch, check that no 32-bit task runs outside the 32-bit vCPUs, that every "
     "task runs inside its affinity and sits on one runqueue; stop with a report (status 70) if not",
     opt_check_invariants},
    {"--trace", NULL, "FILE", "none",
     "write a trace of the run to FILE: which task ran on which vCPU when, exec, fork, exit, "
     "affinity changes with the rule behind them, migrations, kills, hotplug "
     "(docs/tracing.md); open it at ui.perfetto.dev",
     opt_trace},
    {"--trace-format", NULL, "FORMAT", "json",
     "format of --trace: json (Chrome Trace Event / Perfetto), ftrace (the text Linux "
     "5.15's /sys/kernel/tracing/trace prints, which Perfetto also opens) or dat "
     "(trace-cmd's trace.dat, for trace-cmd report and KernelShark)",
     opt_trace_format},
    {"--timeline", NULL, "FILE", "none",
     "draw the run as an SVG timeline in FILE: a row per vCPU grouped by type and capacity, a "
     "colour per task, markers for exec, kill, migration, affinity changes and hotplug, and "
     "beside them what asymu report prints of the run (docs/tracing.md)",
     opt_timeline},
    {"--slice", NULL, "BLOCKS", "10000",
     "guest basic blocks in a batch of a KVM guest's vCPU; a task's own code runs in batches "
     "that end at every 100 us of virtual time, whatever BLOCKS is (docs/timing.md)",
     opt_slice},
    {"--hz", NULL, "HZ", "250",
     "the scheduler tick's frequency, CONFIG_HZ: 100, 250, 300 or 1000 (docs/timing.md)", opt_hz},
    {"--insn-rate", NULL, "RATE", "0.5",
     "guest instructions per ns of a capacity-1024 vCPU at its maximum frequency; a vCPU of "
     "capacity C runs C/1024 as fast (docs/timing.md)",
     opt_insn_rate},
    {"--costs", NULL, "FILE", "the built-in table",
     "virtual times of kernel work, lines 'name value_ns' (syscall, page_fault, fork, clone, "
     "execve, exit, signal, context_switch) over the built-in table (docs/timing.md)",
     opt_costs},
    {"--rw", NULL, NULL, "off", "let the guest write to the sysroot (it is read-only otherwise)",
     opt_rw},
    {"--no-sandbox", NULL, NULL, "off",
     "do not confine the emulator once it runs: Landlock to the guest's host directories, "
     "seccomp with argument checks to the host syscalls it needs",
     opt_no_sandbox},
    {"--no-kvm", NULL, NULL, "off",
     "remove /dev/kvm: guest VMMs find no KVM, as on a kernel without it (docs/kvm.md)",
     opt_no_kvm},
    {"--sysfs-mount", NULL, "DIR", "none",
     "mount the machine's live /sys and /proc at the host directory DIR (FUSE) while it runs; "
     "writing 0 or 1 (or what the kernel's strtobool takes: y, n, on, off) to "
     "DIR/sys/devices/system/cpu/cpuN/online hotplugs vCPU N",
     opt_sysfs_mount},
    {"--control", NULL, "PATH", "none",
     "listen on the Unix socket PATH (mode 0600; a socket already there is replaced) for "
     "control requests while the machine runs: look at tasks, vCPUs, registers, memory and "
     "the kernel log, stop, step and continue the machine or one task, hotplug vCPUs, set "
     "affinities, send signals (`asymu ctl PATH COMMAND`, docs/control.md)",
     opt_control},
    {"--record", NULL, "FILE", "none",
     "record every input from outside the machine in FILE (JSON lines), with the point of the "
     "run that took it: stdin bytes as the guest read them, SIGINT/SIGTERM/SIGHUP to asymu, "
     "control requests that change the machine, writes through --sysfs-mount "
     "(docs/recording.md); the console is then not a terminal",
     opt_record},
    {"--input", NULL, "FILE", "none",
     "replay the recording FILE (made by --record for the same program, arguments and machine) "
     "instead of the host's stdin, signals and control requests: the run repeats byte for byte, "
     "trace included; a recording that does not match the run stops it with status 2",
     opt_input},
    {"--gdb", NULL, "PORT", "none",
     "serve the GDB remote protocol on 127.0.0.1:PORT (0: a free port, printed on stderr) for "
     "the guest processes of either ISA; each stop of gdb's stops the whole machine "
     "(docs/ptrace.md)",
     opt_gdb},
    {"--gdb-wait", NULL, NULL, "off",
     "with --gdb: run no guest instruction until gdb has connected and continues",
     opt_gdb_wait},
    {"--keep-tmp", NULL, NULL, "off",
     "keep the host directory behind the guest's private /tmp at exit (its path is printed)",
     opt_keep_tmp},
    {"--tmp-size", NULL, "SIZE", "a quarter of the free space where /tmp's host directory is, at "
     "most 16G",
     "size limit of the guest's private /tmp, counted in 4 KiB pages of file sizes; beyond, "
     "writes fail with ENOSPC, and a file larger than SIZE with EFBIG; also one entry (file, "
     "directory, symlink) per 4 KiB page, as tmpfs's nr_inodes, creating more fails with ENOSPC",
     opt_tmp_size},
    {"--max-procs", NULL, "N", "4096", "live guest processes; fork beyond fails with EAGAIN",
     opt_max_procs},
    {"--host-reserve", NULL, "SIZE", "512M",
     "host memory asymu leaves alone: with less available, new guest processes and mappings "
     "that commit memory fail with ENOMEM in the guest (PROT_NONE and MAP_NORESERVE "
     "reservations are not checked), the first touch of each 2 MiB of MAP_NORESERVE memory "
     "is the guest's SIGSEGV, kernel buffers fail as past --max-kmem, and every Unicorn "
     "engine is closed to free its translated code (checked every 1,024 slices)",
     opt_host_reserve},
    {"--max-kmem", NULL, "SIZE", "256M",
     "kernel memory of the whole machine: queued System V messages, pipe buffers, socket "
     "queues and pseudo-terminals together; beyond (or below --host-reserve), the call that "
     "wanted more fails as in Linux when the kernel cannot allocate (msgsnd ENOMEM, pipe "
     "ENFILE, F_SETPIPE_SZ ENOMEM, send ENOBUFS, opening /dev/ptmx ENOMEM)",
     opt_max_kmem},
    {"--max-mem", NULL, "SIZE", "4G (64-bit), 3G (32-bit)",
     "the machine's RAM as a guest process sees it (/proc/meminfo MemTotal, no swap) and what "
     "one process may commit (Linux's Committed_AS): its private writable mappings without "
     "MAP_NORESERVE, shared anonymous memory and private copies of files; beyond, mmap, brk, "
     "mremap and an mprotect making memory writable fail with ENOMEM, as does one mapping "
     "larger than SIZE (Linux's heuristic overcommit). PROT_NONE and MAP_NORESERVE "
     "reservations are not counted: what of them is touched is bounded by --host-reserve "
     "(shared mappings of files and segments: up to 16 times SIZE)", opt_max_mem},
    {"--warm-engines", NULL, "N", "64",
     "Unicorn engines kept open for address spaces that are not running; the least recently "
     "run beyond N are closed (about 2 MB each) and reopened, their code translated again, "
     "when they next run; the guest sees no difference",
     opt_warm_engines},
};

#define NOPTIONS (sizeof options / sizeof *options)

/* Options whose help ends with a list kept where it is defined. */
static const struct {
    const char *option;
    void (*list)(char *buf, size_t len);
} help_lists[] = {
    {"--policy", sched_policy_describe},
};

/* The help text of o, completed by its list if it has one. */
static void option_help(const struct option_def *o, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", o->help);
    for (size_t i = 0; i < sizeof help_lists / sizeof *help_lists; i++)
        if (strcmp(o->name, help_lists[i].option) == 0 && n < len)
            help_lists[i].list(buf + n, len - n);
}

size_t options_count(void)
{
    return NOPTIONS;
}

void options_describe(size_t i, struct option_info *info, char *help, size_t len)
{
    info->name = options[i].name;
    info->alias = options[i].alias;
    info->arg = options[i].arg;
    info->deflt = options[i].deflt;
    option_help(&options[i], help, len);
}

void options_usage(FILE *out)
{
    fprintf(out, "usage: asymu run [OPTIONS] [--] PROGRAM [ARGS...]\n"
                 "Runs PROGRAM (a static or dynamic AArch64 or AArch32 Linux ELF) as pid 1 of an\n"
                 "emulated asymmetric arm64 machine; exits with its status (128+N if killed by\n"
                 "signal N).\n\noptions:\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        char help[1024];
        option_help(&options[i], help, sizeof help);
        fprintf(out, "  %-18s %s (default: %s)\n", head, help, options[i].deflt);
    }
    fprintf(out, "  %-18s %s\n", "--help", "print this help");
    fprintf(out, "  %-18s %s\n", "--version",
            "print asymu's and Unicorn's versions and the confinement this kernel gives");
    char confinement[160];
    emu_confinement(confinement, sizeof confinement);
    fprintf(out, "\nThe emulator confines itself once the machine is up, unless --no-sandbox:\n"
                 "  confinement: %s\n",
            confinement);
}

void options_version(FILE *out)
{
    char confinement[160], unicorn[32];
    emu_confinement(confinement, sizeof confinement);
    emu_unicorn_version(unicorn, sizeof unicorn);
    fprintf(out, "asymu %s (Unicorn %s)\nconfinement: %s\n", ASYMU_VERSION, unicorn, confinement);
}

void options_markdown(FILE *out)
{
    fprintf(out, "# `asymu run` options\n\n"
                 "Generated from the option table in `cli/options.c` by `asymu options-doc`;\n"
                 "a test checks that this file is current.\n\n"
                 "`asymu run [OPTIONS] [--] PROGRAM [ARGS...]`\n\n"
                 "| option | default | meaning |\n| --- | --- | --- |\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        char help[1024];
        option_help(&options[i], help, sizeof help);
        fprintf(out, "| `%s%s%s` | %s | %s |\n", options[i].name, options[i].arg ? " " : "",
                options[i].arg ? options[i].arg : "", options[i].deflt, help);
    }
    fprintf(out, "\nA bad value is refused before anything runs, naming the option, the value and\n"
                 "what is allowed; the exit status is then 2. A PROGRAM that does not exist exits\n"
                 "127, one that cannot be executed (not an ELF for arm64/arm, malformed) 126.\n");
}

static const struct option_def *find_option(const char *name, size_t len)
{
    for (size_t i = 0; i < NOPTIONS; i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
            return &options[i];
    return NULL;
}

/* --soc and --cpu-model: the layout, the CPU count, the CPUs able to run
 * 32-bit code and the capacities the kernel computes for them. */
static int finish_layout(struct parse *ps, struct cpumask *capable)
{
    struct emu_config *cfg = ps->cfg;
    char why[512], allowed[640];
    uint16_t *dmips = ps->dmips;
    uint32_t *mhz = ps->mhz;
    memset(ps->dmips, 0, sizeof ps->dmips);
    memset(ps->mhz, 0, sizeof ps->mhz);
    if (ps->soc && ps->cpu_model)
        return bad(ps, "--cpu-model", ps->cpu_model,
                   "cannot be combined with --soc, which sets every CPU's core type");
    if (ps->soc) {
        const struct soc *s = soc_find(ps->soc);
        if (!s) {
            int n = snprintf(allowed, sizeof allowed, "not a known SoC; one of");
            for (size_t i = 0; i < socs_count; i++)
                n += snprintf(allowed + n, sizeof allowed - (size_t)n, "%s %s", i ? "," : "",
                              socs[i].name);
            snprintf(allowed + n, sizeof allowed - (size_t)n, " (asymu run --soc list)");
            return bad(ps, "--soc", ps->soc, allowed);
        }
        if (ps->cpus_set && cfg->cpus != s->nr_cpus) {
            char val[16];
            snprintf(val, sizeof val, "%u", cfg->cpus);
            snprintf(allowed, sizeof allowed, "--soc %s has %u CPUs (leave --cpus out)", s->name,
                     s->nr_cpus);
            return bad(ps, "--cpus", val, allowed);
        }
        cfg->cpus = s->nr_cpus;
        if (cpu_layout_from_soc(&cfg->layout, s, dmips, mhz, capable, why, sizeof why) < 0)
            return bad(ps, "--soc", ps->soc, why);
    } else {
        unsigned nr;
        if (parse_cpu_model(ps->cpu_model, ps->cpus_set ? cfg->cpus : 0, &cfg->layout, &nr, why,
                            sizeof why) < 0) {
            snprintf(allowed, sizeof allowed, "%s (LIST=NAME,...)", why);
            return bad(ps, "--cpu-model", ps->cpu_model, allowed);
        }
        cfg->cpus = nr;
        cpumask_clear(capable);
        for (unsigned cpu = 0; cpu < nr; cpu++) {
            const struct cpu_type *t = &cpu_types[cfg->layout.type[cpu]];
            dmips[cpu] = t->dmips_mhz;
            if (t->aarch32_el0)
                cpumask_set_cpu(cpu, capable);
        }
    }
    cpu_capacity_normalize(cfg->cpus, dmips, mhz, cfg->capacity);
    return 0;
}

/* --aarch32 with --soc or --cpu-model: only CPUs whose core implements
 * AArch32 at EL0 (a SoC whose kernel lists fewer), or may as a build-time
 * option (the Cortex-A510), can be listed. */
static int check_aarch32(struct parse *ps, const struct cpumask *capable)
{
    struct emu_config *cfg = ps->cfg;
    struct cpumask extra;
    unsigned cpu;
    cpumask_andnot(&extra, &cfg->aarch32, capable);
    for_each_cpu(cpu, &extra) {
        if (cpu_types[cfg->layout.type[cpu]].aarch32_optional)
            cpumask_clear_cpu(cpu, &extra);
    }
    if (cpumask_empty(&extra))
        return 0;
    cpu = cpumask_first(&extra);
    char list[4096], allowed[4400];
    cpulist_format(capable, list, sizeof list);
    snprintf(allowed, sizeof allowed,
             "CPU %u is a %s, which does not implement AArch32 at EL0 (this machine's 32-bit "
             "CPUs: %s)",
             cpu, cpu_types[cfg->layout.type[cpu]].title, *list ? list : "none");
    return bad(ps, "--aarch32", ps->aarch32, allowed);
}

static int finish(struct parse *ps)
{
    struct emu_config *cfg = ps->cfg;
    char why[128];
    struct cpumask capable;
    bool custom = ps->soc || ps->cpu_model;
    if (custom && finish_layout(ps, &capable) < 0)
        return -1;
    if (ps->aarch32) {
        if (cpulist_parse(ps->aarch32, cfg->cpus, &cfg->aarch32, why, sizeof why) < 0) {
            char allowed[256];
            snprintf(allowed, sizeof allowed, "%s (a cpulist within 0-%u, or empty)", why,
                     cfg->cpus - 1);
            return bad(ps, "--aarch32", ps->aarch32, allowed);
        }
        if (custom && check_aarch32(ps, &capable) < 0)
            return -1;
    } else if (custom) {
        cfg->aarch32 = capable;
    } else {
        cpumask_clear(&cfg->aarch32);
        for (unsigned cpu = 0; cpu < 4 && cpu < cfg->cpus; cpu++)
            cpumask_set_cpu(cpu, &cfg->aarch32);
    }
    for (unsigned cpu = 0; !custom && cpu < cfg->cpus; cpu++)
        cfg->capacity[cpu] = 1024;
    if (ps->capacity && parse_capacity(ps->capacity, cfg->cpus, cfg->capacity, why, sizeof why)) {
        char allowed[256];
        snprintf(allowed, sizeof allowed, "%s (LIST=VALUE,... with cpulists within 0-%u)", why,
                 cfg->cpus - 1);
        return bad(ps, "--capacity", ps->capacity, allowed);
    }
    char emwhy[512];
    if (energy_model_build(ps->energy_model, cfg, &cfg->em, emwhy, sizeof emwhy) < 0)
        return bad(ps, "--energy-model", ps->energy_model ? ps->energy_model : "", emwhy);
    if (cfg->gdb_wait && !cfg->gdb) {
        fprintf(stderr, "asymu run: option --gdb-wait needs --gdb PORT\n");
        return -1;
    }
    return 0;
}

/* options_parse, bad values reported to errors. */
static int parse_options(int argc, char **argv, struct emu_config *cfg, FILE *errors)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->cpus = DEFAULT_CPUS;
    cfg->cmdline = DEFAULT_CMDLINE;
    cfg->policy = SCHED_POLICY_UPSTREAM;
    cfg->sysroot = "/";
    cfg->max_procs = 4096;
    cfg->host_reserve = UINT64_C(512) << 20;
    struct parse ps = {.cfg = cfg, .errors = errors};
    int i = 0;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            options_usage(stdout);
            return 1;
        }
        if (strcmp(arg, "--version") == 0) {
            options_version(stdout);
            return 1;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            break;
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct option_def *o = find_option(arg, namelen);
        const char *val = NULL;
        if (!o && arg[1] == 'L' && arg[2]) { /* -LDIR */
            o = find_option("-L", 2);
            val = arg + 2;
        }
        if (!o) {
            fprintf(stderr, "asymu run: unknown option '%.*s' (see asymu run --help)\n",
                    (int)namelen, arg);
            return -1;
        }
        if (o->arg && !val) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                fprintf(stderr, "asymu run: option %s needs a value (%s)\n", o->name, o->arg);
                return -1;
            }
        } else if (!o->arg && eq) {
            fprintf(stderr, "asymu run: option %s takes no value\n", o->name);
            return -1;
        }
        if (o->fn(&ps, o->name, val) < 0)
            return -1;
    }
    if (ps.list_socs) {
        soc_list(stdout);
        return 1;
    }
    if (finish(&ps) < 0)
        return -1;
    if (i >= argc) {
        fprintf(stderr, "asymu run: missing PROGRAM (see asymu run --help)\n");
        return -1;
    }
    cfg->argc = argc - i;
    cfg->argv = argv + i;
    return 0;
}

int options_parse(int argc, char **argv, struct emu_config *cfg)
{
    return parse_options(argc, argv, cfg, stderr);
}

int options_parse_to(int argc, char **argv, struct emu_config *cfg, FILE *errors)
{
    return parse_options(argc, argv, cfg, errors ? errors : stderr);
}
