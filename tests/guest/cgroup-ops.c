/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup-ops.c - drives /sys/fs/cgroup for the cgroup tests
 * (tests/e2e/cgroup.cmake, docs/cgroups.md): each argument is one step,
 * and each step prints one line (or a file's lines) with the result.
 *   mkdir:PATH rmdir:PATH            the result (0 or the errno name)
 *   write:PATH:TEXT                  write(2) of TEXT to PATH
 *   cat:PATH                         PATH's lines, prefixed with its name
 *   ls:PATH                          the entries of PATH, sorted
 *   join:DIR                         writes this pid to DIR/cgroup.procs
 *   aff                              sched_getaffinity(0) as a cpulist
 *   set:LIST                         sched_setaffinity(0, LIST)
 *   online:CPU:0|1                   hotplug through cpuN/online
 *   fork:STEP...                     the rest runs in a child; the parent waits
 *   exec:PROG                        execs PROG with the remaining steps
 *   mount:TYPE:DIR[:DATA] umount:DIR mount(2) "none" of TYPE on DIR with the
 *                                    options DATA, umount2(2)
 *   grep:PATH:TEXT                   PATH's lines that hold TEXT
 *   isa                              which ISA this program runs
 *   wait                             reads a line of stdin (a test acts
 *                                    from outside meanwhile) and prints it */
#define _GNU_SOURCE
#include "guest.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void result(const char *what, const char *path, int r)
{
    printf("%s %s: %s\n", what, path, r == 0 ? "0" : err_name(errno));
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return n < 0 ? -1 : 0;
}

static void cat(const char *path)
{
    FILE *f = fopen(path, "r");
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!f) {
        printf("%s: %s\n", name, err_name(errno));
        return;
    }
    char line[4096];
    while (fgets(line, sizeof line, f))
        printf("%s: %s", name, line);
    fclose(f);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void ls(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        printf("ls %s: %s\n", path, err_name(errno));
        return;
    }
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    printf("ls %s:", path);
    for (size_t i = 0; i < n; i++) {
        printf(" %s", names[i]);
        free(names[i]);
    }
    printf("\n");
}

static void print_list(const char *what, const cpu_set_t *set)
{
    printf("%s ", what);
    const char *sep = "";
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        printf(e > c ? "%s%d-%d" : "%s%d", sep, c, e);
        sep = ",";
        c = e;
    }
    printf("\n");
}

static int parse_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b; c++)
            CPU_SET((int)c, set);
        s = *end == ',' ? end + 1 : end;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *arg = strchr(a, ':');
        if (arg)
            arg++;
        if (!strncmp(a, "mkdir:", 6)) {
            result("mkdir", arg, mkdir(arg, 0755));
        } else if (!strncmp(a, "rmdir:", 6)) {
            result("rmdir", arg, rmdir(arg));
        } else if (!strncmp(a, "write:", 6)) {
            char *text = strchr(arg, ':');
            *text++ = '\0';
            printf("write %s %s: %s\n", strrchr(arg, '/') + 1, text,
                   write_file(arg, text) == 0 ? "0" : err_name(errno));
        } else if (!strncmp(a, "cat:", 4)) {
            cat(arg);
        } else if (!strncmp(a, "ls:", 3)) {
            ls(arg);
        } else if (!strncmp(a, "join:", 5)) {
            char path[512], pid[16];
            snprintf(path, sizeof path, "%s/cgroup.procs", arg);
            snprintf(pid, sizeof pid, "%d", getpid());
            printf("join %s: %s\n", arg, write_file(path, pid) == 0 ? "0" : err_name(errno));
        } else if (!strcmp(a, "aff")) {
            cpu_set_t set;
            CPU_ZERO(&set);
            sched_getaffinity(0, sizeof set, &set);
            print_list("aff", &set);
        } else if (!strncmp(a, "set:", 4)) {
            cpu_set_t set;
            parse_list(arg, &set);
            int r = sched_setaffinity(0, sizeof set, &set);
            printf("set %s: %s\n", arg, r == 0 ? "0" : err_name(errno));
        } else if (!strncmp(a, "online:", 7)) {
            char path[128];
            int cpu = atoi(arg);
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", cpu);
            char *v = strchr(arg, ':') + 1;
            printf("online cpu%d %s: %s\n", cpu, v,
                   write_file(path, v) == 0 ? "0" : err_name(errno));
        } else if (!strcmp(a, "fork")) {
            pid_t pid = fork();
            if (pid > 0) {
                int status;
                waitpid(pid, &status, 0);
                printf("child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
                return 0;
            }
        } else if (!strncmp(a, "exec:", 5)) {
            argv[i] = arg;
            execv(arg, argv + i);
            printf("exec %s: %s\n", arg, err_name(errno));
            return 1;
        } else if (!strncmp(a, "mount:", 6)) {
            char *dir = strchr(arg, ':');
            *dir++ = '\0';
            char *data = strchr(dir, ':');
            if (data)
                *data++ = '\0';
            printf("mount %s %s%s%s: %s\n", arg, dir, data ? " " : "", data ? data : "",
                   mount("none", dir, arg, 0, data) == 0 ? "0" : err_name(errno));
        } else if (!strncmp(a, "grep:", 5)) {
            char *text = strchr(arg, ':');
            *text++ = '\0';
            FILE *f = fopen(arg, "r");
            char line[4096];
            while (f && fgets(line, sizeof line, f))
                if (strstr(line, text))
                    printf("grep %s: %s", arg, line);
            if (f)
                fclose(f);
        } else if (!strncmp(a, "umount:", 7)) {
            result("umount", arg, umount2(arg, 0));
        } else if (!strcmp(a, "isa")) {
            printf("isa %s\n", ISA);
        } else if (!strcmp(a, "wait")) {
            char line[64];
            printf("wait: %s", fgets(line, sizeof line, stdin) ? line : "EOF\n");
        } else {
            printf("unknown step %s\n", a);
            return 2;
        }
    }
    return 0;
}
