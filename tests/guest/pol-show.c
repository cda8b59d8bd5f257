/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pol-show.c - what a task of the policy tests sees and does on the
 * asymmetric machine: its affinity, the vCPUs it runs on, its own
 * sched_setaffinity calls, hotplug writes, sysfs files, personality, uname,
 * AT_PLATFORM and the kernel log. The arguments are commands run in order;
 * every line printed starts with "ISA PID:" so a test's output tells which
 * program (and which process) said it.
 *
 *   show:N            the affinity (sched_getaffinity, and the byte count the
 *                     raw syscall returns for a 128-byte mask), the set of
 *                     vCPUs seen by sched_getcpu after each of N sched_yield
 *                     calls, and /proc/self/status Cpus_allowed(_list)
 *   aff               the affinity only
 *   yield:N           the vCPUs seen after each of N sched_yield calls only
 *   set:LIST          sched_setaffinity(0, LIST): 0 or the errno, then aff
 *   set-pid:PID:LIST  sched_setaffinity(PID, LIST): 0 or the errno
 *   thread-set:LIST   a second thread does set:LIST and yields; the main
 *                     thread joins it and says so
 *   pfr0:CPU          pins itself to CPU and reads ID_AA64PFR0_EL1 with MRS
 *                     (AArch64 only): the EL0 field
 *   online:CPU:VALUE  writes VALUE to /sys/devices/system/cpu/cpuCPU/online
 *   cpus              /sys/devices/system/cpu/online and offline
 *   cpuinfo           the processor numbers /proc/cpuinfo lists, as a cpulist
 *   status:PID        /proc/PID/status Cpus_allowed(_list)
 *   cat:PATH          the file's contents (newlines as \n), or the errno
 *   deadline          sched_setattr(SCHED_DEADLINE, 1 ms every 100 ms): 0 or
 *                     the errno (rule U9)
 *   rt-runtime:VALUE  writes VALUE to /proc/sys/kernel/sched_rt_runtime_us
 *                     (-1 turns deadline admission control off)
 *   linux32           personality(PER_LINUX32): the old value or the errno
 *   uname             uname(2)'s machine
 *   platform          getauxval(AT_PLATFORM)
 *   dmesg:TEXT        kernel log lines (syslog(2), timestamps cut) with TEXT
 *   dmesg-order       how many kernel log lines there are and which ones have
 *                     a timestamp earlier than the line before (spec 6)
 *   sleep:MS          nanosleep, in (virtual) milliseconds
 *   spin:N            N busy-loop iterations and a sched_yield every 1000
 *   exec:PROG ARGS... execv(PROG, PROG ARGS...): takes the rest; on failure
 *                     prints the errno and exits 1
 *   fork              the commands after it run in a child; the parent waits
 *                     for it, prints how it ended and exits 0
 *   fork-exec:PROG ARGS...  exec in a child; the parent waits for it, prints
 *                     how it ended and exits 0
 *   spawn:PROG ARGS... --   exec in a child, without waiting: the commands
 *                     after "--" go on in the parent
 *   wait              waits for the spawned children, in order, and prints
 *                     how each ended */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pol-common.h"
#include "sched-attr.h"

#define MAX_SPAWNED 16
/* syslog(2) actions (linux/syslog.h names, not in glibc's headers). */
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static pid_t spawned[MAX_SPAWNED];
static int nr_spawned;

/* Every line is "ISA PID: ...". */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    printf("%s %d: ", ISA, (int)getpid());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void print_affinity(void)
{
    cpu_set_t set;
    char buf[512];
    CPU_ZERO(&set);
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof set, &set);
    if (bytes < 0)
        say("sched_getaffinity: %s", err_name(errno));
    else
        say("affinity %s (sched_getaffinity returned %ld)", format_cpulist(&set, buf, sizeof buf),
            bytes);
}

static void print_ran_on(long yields)
{
    cpu_set_t seen;
    char buf[512];
    CPU_ZERO(&seen);
    for (long i = 0; i < yields; i++) {
        sched_yield();
        int cpu = sched_getcpu();
        if (cpu < 0) {
            say("sched_getcpu: %s", err_name(errno));
            return;
        }
        CPU_SET(cpu, &seen);
    }
    say("ran on %s (%ld yields)", format_cpulist(&seen, buf, sizeof buf), yields);
}

static void print_status_cpus(const char *pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        say("%s: %s", path, err_name(errno));
        return;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Cpus_allowed", 12) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        for (char *p = line; *p; p++)
            if (*p == '\t')
                *p = ' ';
        if (strcmp(pid, "self") == 0)
            say("%s", line);
        else
            say("%s: %s", path, line);
    }
    fclose(f);
}

static void print_cpuinfo(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512], buf[512];
    cpu_set_t listed;
    int cpu;
    if (!f) {
        say("/proc/cpuinfo: %s", err_name(errno));
        return;
    }
    CPU_ZERO(&listed);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "processor : %d", &cpu) == 1 && cpu >= 0 && cpu < CPU_SETSIZE)
            CPU_SET(cpu, &listed);
    fclose(f);
    say("/proc/cpuinfo lists processors %s", format_cpulist(&listed, buf, sizeof buf));
}

static void print_file(const char *path)
{
    char buf[4096], out[8192];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        say("%s: %s", path, err_name(errno));
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    int e = errno;
    close(fd);
    if (n < 0) {
        say("%s: read: %s", path, err_name(e));
        return;
    }
    size_t at = 0;
    for (ssize_t i = 0; i < n && at + 3 < sizeof out; i++) {
        if (buf[i] == '\n') {
            out[at++] = '\\';
            out[at++] = 'n';
        } else {
            out[at++] = buf[i];
        }
    }
    out[at] = '\0';
    say("%s: \"%s\"", path, out);
}

static void become_deadline(void)
{
    struct attr a = {.size = sizeof a,
                     .policy = SCHED_DEADLINE,
                     .runtime = 1000000,
                     .deadline = 100000000,
                     .period = 100000000};
    say("sched_setattr SCHED_DEADLINE: %s", setattr(0, &a, 0) < 0 ? err_name(errno) : "0");
}

static void write_rt_runtime(const char *value)
{
    int fd = open("/proc/sys/kernel/sched_rt_runtime_us", O_WRONLY);
    ssize_t n = fd < 0 ? -1 : write(fd, value, strlen(value));
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        say("echo %s > sched_rt_runtime_us: %s", value, err_name(e));
    else
        say("echo %s > sched_rt_runtime_us: wrote %zd", value, n);
}

static void write_online(const char *arg)
{
    char path[64];
    unsigned cpu;
    char value[16];
    if (sscanf(arg, "%u:%15s", &cpu, value) != 2) {
        say("bad online argument \"%s\"", arg);
        exit(2);
    }
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/online", cpu);
    int fd = open(path, O_WRONLY);
    if (fd < 0) {
        say("open cpu%u/online: %s", cpu, err_name(errno));
        return;
    }
    size_t len = strlen(value);
    ssize_t n = write(fd, value, len);
    int e = errno;
    close(fd);
    if (n < 0)
        say("echo %s > cpu%u/online: %s", value, cpu, err_name(e));
    else
        say("echo %s > cpu%u/online: wrote %zd", value, cpu, n);
}

/* The whole kernel log through syslog(2), "<level>[time] text" lines; NULL
 * once it said why not. The caller frees it. */
static char *read_dmesg(void)
{
    int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
    if (size <= 0) {
        say("syslog size: %s", size < 0 ? err_name(errno) : "0");
        return NULL;
    }
    char *buf = malloc((size_t)size + 1);
    int n = buf ? klogctl(SYSLOG_ACTION_READ_ALL, buf, size) : -1;
    if (n < 0) {
        say("syslog read: %s", err_name(errno));
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* Spec 6: each line's timestamp is at least the one before it. */
static void check_dmesg_order(void)
{
    char *buf = read_dmesg();
    if (!buf)
        return;
    unsigned long long prev = 0, sec, usec;
    unsigned lines = 0, back = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (sscanf(line, "<%*d>[%llu.%llu]", &sec, &usec) != 2) {
            say("dmesg: no timestamp in \"%s\"", line);
            continue;
        }
        unsigned long long us = sec * 1000000 + usec;
        lines++;
        if (us < prev) {
            back++;
            say("dmesg: goes back at \"%s\"", strchr(line, ']') + 1);
        }
        prev = us;
    }
    say("dmesg: %u lines, %u earlier than the line before", lines, back);
    free(buf);
}

static void print_dmesg(const char *text)
{
    char *buf = read_dmesg();
    if (!buf)
        return;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        char *text_at = strchr(line, ']');
        text_at = text_at ? text_at + 1 : line;
        while (*text_at == ' ')
            text_at++;
        if (strstr(text_at, text))
            say("dmesg: %s", text_at);
    }
    free(buf);
}

static void set_affinity(const char *list)
{
    cpu_set_t set;
    if (parse_cpulist(list, &set) != 0) {
        say("bad cpulist \"%s\"", list);
        exit(2);
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        say("sched_setaffinity %s: %s", list, err_name(errno));
    else
        say("sched_setaffinity %s: 0", list);
    print_affinity();
}

static void set_other_affinity(const char *arg)
{
    int pid;
    char list[256];
    cpu_set_t set;
    if (sscanf(arg, "%d:%255s", &pid, list) != 2 || parse_cpulist(list, &set) != 0) {
        say("bad set-pid argument \"%s\"", arg);
        exit(2);
    }
    if (sched_setaffinity(pid, sizeof set, &set) != 0)
        say("sched_setaffinity pid %d %s: %s", pid, list, err_name(errno));
    else
        say("sched_setaffinity pid %d %s: 0", pid, list);
}

static void *thread_set(void *list)
{
    set_affinity(list);
    print_ran_on(5);
    return NULL;
}

static void print_pfr0(const char *cpu)
{
#ifdef __aarch64__
    cpu_set_t set;
    if (parse_cpulist(cpu, &set) != 0 || sched_setaffinity(0, sizeof set, &set) != 0) {
        say("cannot pin to cpu%s: %s", cpu, err_name(errno));
        return;
    }
    sched_yield();
    unsigned long v;
    __asm__ volatile("mrs %0, ID_AA64PFR0_EL1" : "=r"(v));
    say("cpu%d ID_AA64PFR0_EL1.EL0 0x%lx", sched_getcpu(), v & 0xf);
#else
    say("cpu%s ID_AA64PFR0_EL1: not readable from AArch32", cpu);
#endif
}

static void print_wait(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid)
        say("waitpid %d: %s", (int)pid, err_name(errno));
    else if (WIFSIGNALED(status))
        say("child %d killed by signal %d", (int)pid, WTERMSIG(status));
    else
        say("child %d exited %d", (int)pid, WEXITSTATUS(status));
}

/* Forks a child that execs argv[0] with argv (ended by NULL). */
static pid_t start(char **argv)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        say("fork: %s", err_name(errno));
        exit(1);
    }
    if (pid == 0) {
        execv(argv[0], argv);
        say("execve %s: %s", argv[0], err_name(errno));
        _exit(1);
    }
    return pid;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        char *cmd = argv[i];
        char *arg = strchr(cmd, ':');
        arg = arg ? arg + 1 : "";
        if (strncmp(cmd, "show:", 5) == 0) {
            print_affinity();
            print_ran_on(atol(arg));
            print_status_cpus("self");
        } else if (strcmp(cmd, "aff") == 0) {
            print_affinity();
        } else if (strncmp(cmd, "yield:", 6) == 0) {
            print_ran_on(atol(arg));
        } else if (strncmp(cmd, "set:", 4) == 0) {
            set_affinity(arg);
        } else if (strncmp(cmd, "set-pid:", 8) == 0) {
            set_other_affinity(arg);
        } else if (strncmp(cmd, "thread-set:", 11) == 0) {
            pthread_t thread;
            int err = pthread_create(&thread, NULL, thread_set, arg);
            if (err)
                say("pthread_create: %s", err_name(err));
            else if ((err = pthread_join(thread, NULL)) != 0)
                say("pthread_join: %s", err_name(err));
            else
                say("thread joined");
        } else if (strncmp(cmd, "pfr0:", 5) == 0) {
            print_pfr0(arg);
        } else if (strncmp(cmd, "online:", 7) == 0) {
            write_online(arg);
        } else if (strcmp(cmd, "cpus") == 0) {
            print_file("/sys/devices/system/cpu/online");
            print_file("/sys/devices/system/cpu/offline");
        } else if (strcmp(cmd, "cpuinfo") == 0) {
            print_cpuinfo();
        } else if (strncmp(cmd, "status:", 7) == 0) {
            print_status_cpus(arg);
        } else if (strcmp(cmd, "deadline") == 0) {
            become_deadline();
        } else if (strncmp(cmd, "rt-runtime:", 11) == 0) {
            write_rt_runtime(arg);
        } else if (strncmp(cmd, "cat:", 4) == 0) {
            print_file(arg);
        } else if (strcmp(cmd, "linux32") == 0) {
            int old = personality(PER_LINUX32);
            if (old == -1)
                say("personality(PER_LINUX32): %s", err_name(errno));
            else
                say("personality(PER_LINUX32): 0x%04x", (unsigned)old);
        } else if (strcmp(cmd, "uname") == 0) {
            struct utsname u;
            if (uname(&u) != 0)
                say("uname: %s", err_name(errno));
            else
                say("uname -m: %s", u.machine);
        } else if (strcmp(cmd, "platform") == 0) {
            const char *p = (const char *)getauxval(AT_PLATFORM);
            say("AT_PLATFORM: %s", p ? p : "(none)");
        } else if (strcmp(cmd, "dmesg-order") == 0) {
            check_dmesg_order();
        } else if (strncmp(cmd, "dmesg:", 6) == 0) {
            print_dmesg(arg);
        } else if (strncmp(cmd, "sleep:", 6) == 0) {
            long ms = atol(arg);
            struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        } else if (strncmp(cmd, "spin:", 5) == 0) {
            spin(atol(arg));
        } else if (strncmp(cmd, "exec:", 5) == 0) {
            argv[i] = arg;
            fflush(stdout);
            execv(arg, argv + i);
            say("execve %s: %s", arg, err_name(errno));
            return 1;
        } else if (strcmp(cmd, "fork") == 0) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) {
                say("fork: %s", err_name(errno));
                return 1;
            }
            if (pid > 0) {
                print_wait(pid);
                return 0;
            }
        } else if (strncmp(cmd, "fork-exec:", 10) == 0) {
            argv[i] = arg;
            print_wait(start(argv + i));
            return 0;
        } else if (strncmp(cmd, "spawn:", 6) == 0) {
            int end = i + 1;
            while (end < argc && strcmp(argv[end], "--") != 0)
                end++;
            if (nr_spawned == MAX_SPAWNED) {
                say("too many spawned children");
                return 2;
            }
            argv[i] = arg;
            char *saved = argv[end];
            argv[end] = NULL;
            spawned[nr_spawned++] = start(argv + i);
            argv[end] = saved;
            i = end;
        } else if (strcmp(cmd, "wait") == 0) {
            for (int k = 0; k < nr_spawned; k++)
                print_wait(spawned[k]);
            nr_spawned = 0;
        } else {
            say("unknown command \"%s\"", cmd);
            return 2;
        }
    }
    return 0;
}
