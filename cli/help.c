/* SPDX-License-Identifier: GPL-2.0-or-later */
/* help.c - each subcommand's help page: `asymu help COMMAND` and
 * `asymu COMMAND --help` (run's own comes from the option table,
 * options.c). */
#include "help.h"

#include <string.h>

struct help_page {
    const char *command;
    const char *text;
};

static const struct help_page pages[] = {
    {"replay",
     "usage: asymu replay FILE... [OPTIONS]\n"
     "Runs each scenario FILE (YAML, docs/scenarios.md) on the machine it describes and\n"
     "checks its expectations; exits 0 when all are met, 1 when one is not, 2 for a\n"
     "broken scenario or a bad option.\n"
     "\n"
     "options:\n"
     "  --policy NAME        run under this --policy instead of the scenario's own\n"
     "  --all-expectations   check every expectation, whatever its policies\n"
     "  --report F.json      write the verdicts and what each task did as JSON\n"
     "  --junit F.xml        write the verdicts as JUnit XML\n"
     "  --jobs N             run N scenarios at once (1 to 256, default 1)\n"
     "  --shard I/N          run the I-th of N equal shares of the FILEs\n"
     "  --shard auto         the share from the CI's variables (GitLab, Kubernetes, Slurm,\n"
     "                       CircleCI, Buildkite: docs/scenarios.md \"Shards\")\n"
     "  --trace F            write one run's trace (docs/tracing.md)\n"
     "  --trace-format FMT   json (default), ftrace or dat\n"
     "  --timeline F.svg     draw one run as an SVG timeline\n"
     "  --control PATH       serve control requests for one scenario's machine (docs/control.md)\n"
     "  --record F           record one scenario's host input (docs/recording.md)\n"
     "  --input F            replay one scenario's recorded input\n"},
    {"compare",
     "usage: asymu compare FILE [--policies P,...] [--jobs N]\n"
     "Runs the scenario FILE under each policy (default: upstream, linux-6.6, override,\n"
     "kill, fixup) and prints, side by side, what each task did and which expectations\n"
     "each policy meets (docs/scenarios.md); exits 2 for a broken scenario.\n"
     "\n"
     "options:\n"
     "  --policies P,...     the policies to compare, by name (linux-5.15 names upstream)\n"
     "  --jobs N             run N policies at once\n"},
    {"report",
     "usage: asymu report TRACE [--json]\n"
     "       asymu report merge OUT.json [--junit OUT.xml] SHARD.json...\n"
     "With a TRACE (a trace of `asymu run --trace`: JSON, ftrace text or trace.dat, told\n"
     "by its content; docs/tracing.md \"asymu report\"):\n"
     "prints per task (pid, tid, comm) its time running per CPU, per CPU type (the\n"
     "aarch32-capable CPUs and the 64-bit-only ones) and per capacity, its time runnable\n"
     "but waiting, its migrations and why, its wake-up latency percentiles (p50, p90,\n"
     "p99, max) and its affinity changes with their rule; per CPU its busy, idle and\n"
     "offline time and utilisation; and totals. --json prints the same as a JSON\n"
     "document. Exits 0, or 2 for a trace it cannot read (said with FILE:LINE, or the\n"
     "trace.dat's record).\n"
     "\n"
     "With merge: joins the --report files of the shards of one `asymu replay --shard`\n"
     "run into the report the run without --shard writes, and with --junit its JUnit\n"
     "XML; refuses reports of other scenario sets, asymu versions or replay options, a\n"
     "shard twice and a missing shard (docs/scenarios.md \"Shards\"). Exits 0, or 2 on\n"
     "an error.\n"},
    {"ctl",
     "usage: asymu ctl PATH COMMAND [ARGS...]\n"
     "Sends one request to the --control socket PATH of a running asymu and prints the\n"
     "answer, one JSON line (docs/control.md lists the requests). Exits 0 when the\n"
     "request succeeded, 1 when the answer is an error, 2 when PATH cannot be reached\n"
     "or the machine ends before answering.\n"},
    {"binfmt",
     "usage: asymu binfmt register|unregister [--dir DIR] [--interpreter PATH]\n"
     "Registers (or removes) asymu as the binfmt_misc interpreter of AArch64 and ARM ELF\n"
     "programs, entries asymu-aarch64 and asymu-arm with flags F and P, so that running\n"
     "an Arm program on the host runs it in an asymu machine of the default options\n"
     "(docs/guest-root.md). Needs root, or a user namespace with its own binfmt_misc.\n"
     "\n"
     "options:\n"
     "  --dir DIR            binfmt_misc's mount (default /proc/sys/fs/binfmt_misc)\n"
     "  --interpreter PATH   the interpreter to name (default: asymu-binfmt next to asymu\n"
     "                       or in its installation's libexec/asymu, a link to asymu)\n"},
    {"top",
     "usage: asymu top PATH [--interval MS]\n"
     "A live view of a running machine through its --control socket PATH: each vCPU\n"
     "with the task it runs, and the tasks with their CPU time and affinity, refreshed\n"
     "every MS milliseconds (10 to 60000, default 500), until the machine ends or q is\n"
     "pressed. Exits 2 when PATH cannot be reached.\n"},
    {"options-doc",
     "usage: asymu options-doc [--man | --bash-completion | --syscalls]\n"
     "Prints the reference of `asymu run`'s options in Markdown (docs/options.md), or,\n"
     "generated from the same table and these help pages, the asymu(1) manual page in\n"
     "roff (--man) or the bash completion script (--bash-completion); --syscalls\n"
     "prints docs/syscalls.md, every syscall of Linux 5.15's two tables and whether\n"
     "asymu handles it.\n"},
};

static const char overview[] =
    "usage: asymu run [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "       asymu replay FILE... [--policy P] [--report F.json] [--jobs N]\n"
    "                    [--junit F.xml] [--shard I/N|auto] [--all-expectations]\n"
    "       asymu compare FILE [--policies upstream,linux-6.6,override,kill,fixup]\n"
    "       asymu report TRACE [--json]          what a --trace says, per task and CPU\n"
    "       asymu report merge OUT.json [--junit OUT.xml] SHARD.json...\n"
    "       asymu ctl PATH COMMAND [ARGS...]   one request to a --control socket\n"
    "       asymu top PATH [--interval MS]     a live view through that socket\n"
    "       asymu binfmt register|unregister   run Arm programs directly, in asymu\n"
    "       asymu options-doc [--man | --bash-completion | --syscalls]   the references\n"
    "       asymu help [COMMAND] | COMMAND --help\n"
    "       asymu --help | --version\n"
    "asymu runs AArch64 and AArch32 Linux programs on an emulated asymmetric arm64\n"
    "machine. See `asymu run --help` for the options.\n";

const char *help_overview(void)
{
    return overview;
}

const char *help_page(const char *command)
{
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++)
        if (strcmp(pages[i].command, command) == 0)
            return pages[i].text;
    return NULL;
}

const char *help_command(size_t i)
{
    return i < sizeof pages / sizeof *pages ? pages[i].command : NULL;
}

bool help_asked(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}
