/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysfs-read.c - reads the virtual /sys, /proc and /dev and prints what it
 * finds, for the sysfs end-to-end tests. Each argument is one command, run
 * in order:
 *
 *   walk:DIR        every entry below DIR on its file system (as find -xdev:
 *                   a mount point is shown, not entered), sorted: "d MODE PATH", "f MODE
 *                   PATH "content"" (escaped), "l MODE PATH -> TARGET",
 *                   "c MODE PATH MAJ:MIN"
 *   ls:DIR          the names getdents64 gives, sorted, with d_type
 *   cat:FILE        the file's bytes as they are
 *   head:FILE       its first line (confinement checks)
 *   line:FILE:TEXT  its lines that start with TEXT
 *   shape:FILE      the file with every run of digits shown as N and every
 *                   run of spaces as one
 *   readlink:PATH   the target of a symbolic link
 *   stat:FILE       the fields of a /proc stat file, one "N=value" each;
 *                   run-dependent ones (times, sizes, addresses) as "N=set";
 *                   field 39 (the CPU it last ran on) checked: the caller's
 *                   own is sched_getcpu()'s, another task's is in its affinity
 *   pin:CPU         sched_setaffinity of the caller to that CPU
 *   cmdline:FILE    a cmdline file, NULs shown as '|'
 *   maps            /proc/self/maps checked line by line; the names it has, in
 *                   order, and the stack's permissions (how many mappings
 *                   there are depends on the image and on merging)
 *   fds             opens a pipe, /dev/null and a /proc file, then lists
 *                   /proc/self/fd (pipe inode numbers shown as N)
 *   threads         two more threads, then /proc/self/task as each sees it
 *   child           a child that sleeps, then one that exits: their stat
 *   write:FILE:TEXT writes TEXT (\n for a newline) and prints the result
 *   devfull         reads and writes /dev/full
 *   linux32         personality(PER_LINUX32) for the commands after it
 *   exec            execs /proc/self/exe with the arguments after it
 *   arg:TEXT, ""    nothing (arguments for cmdline to show)
 *
 * Errors print as the errno's name. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err(void)
{
    const char *name = strerrorname_np(errno);
    return name ? name : "unknown errno";
}

/* The whole file, NUL-terminated; its length in *len. NULL on error. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    ssize_t r;
    /* Small reads: generated files must read the same piece by piece. */
    while (buf && (r = read(fd, buf + n, 100)) > 0) {
        n += (size_t)r;
        if (n + 100 > cap) {
            char *b = realloc(buf, (cap *= 2) + 1);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    int saved = errno;
    close(fd);
    if (buf && r < 0) {
        free(buf);
        buf = NULL;
    }
    errno = saved;
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static void print_escaped(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 32 || c > 126)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* Entries carry their d_type in front of the name. */
static int by_name_after_type(const void *a, const void *b)
{
    return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/* The sorted names in dir (without . and ..), and their d_type. */
static int list_dir(const char *dir, char ***names, unsigned char **types)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 16;
    *names = malloc(cap * sizeof **names);
    *types = malloc(cap);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap *= 2;
            *names = realloc(*names, cap * sizeof **names);
            *types = realloc(*types, cap);
        }
        (*names)[n] = malloc(strlen(e->d_name) + 2);
        /* d_type travels with the name through the sort. */
        (*names)[n][0] = (char)e->d_type;
        strcpy((*names)[n] + 1, e->d_name);
        n++;
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof **names, by_name_after_type);
    for (int i = 0; i < n; i++) {
        (*types)[i] = (unsigned char)(*names)[i][0];
        memmove((*names)[i], (*names)[i] + 1, strlen((*names)[i] + 1) + 1);
    }
    return n;
}

static void walk_dev(const char *dir, dev_t dev)
{
    char **names;
    unsigned char *types;
    int n = list_dir(dir, &names, &types);
    if (n < 0) {
        printf("%s: %s\n", dir, err());
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (lstat(path, &st) < 0) {
            printf("? %s: %s\n", path, err());
            continue;
        }
        unsigned mode = st.st_mode & 07777;
        if (S_ISDIR(st.st_mode)) {
            printf("d %04o %s\n", mode, path);
            if (st.st_dev == dev)
                walk_dev(path, dev);
        } else if (S_ISLNK(st.st_mode)) {
            char target[4096];
            ssize_t len = readlink(path, target, sizeof target - 1);
            target[len > 0 ? len : 0] = '\0';
            printf("l %04o %s -> %s\n", mode, path, len < 0 ? err() : target);
        } else if (S_ISCHR(st.st_mode)) {
            printf("c %04o %s %u:%u\n", mode, path, major(st.st_rdev), minor(st.st_rdev));
        } else {
            size_t len;
            char *data = (mode & 0444) ? slurp(path, &len) : NULL;
            printf("f %04o %s ", mode, path);
            /* cgroup's cpu.stat counts the time this very run used; a
             * node's meminfo the memory it uses (and the ISA's limit). */
            if (data && (strcmp(names[i], "cpu.stat") == 0 || strcmp(names[i], "meminfo") == 0))
                fputs("(run-dependent)", stdout);
            else if (data)
                print_escaped(data, len);
            else
                fputs((mode & 0444) ? err() : "(write-only)", stdout);
            putchar('\n');
            free(data);
        }
        free(names[i]);
    }
    free(names);
    free(types);
}

static void walk(const char *dir)
{
    struct stat st;
    walk_dev(dir, stat(dir, &st) == 0 ? st.st_dev : 0);
}

static void ls(const char *dir)
{
    char **names;
    unsigned char *types;
    int n = list_dir(dir, &names, &types);
    if (n < 0) {
        printf("ls %s: %s\n", dir, err());
        return;
    }
    printf("ls %s:", dir);
    for (int i = 0; i < n; i++) {
        char t = types[i] == DT_DIR ? '/' : types[i] == DT_LNK ? '@' : types[i] == DT_CHR ? '%' : 0;
        printf(" %s", names[i]);
        if (t)
            putchar(t);
        free(names[i]);
    }
    putchar('\n');
    free(names);
    free(types);
}

static void cat(const char *path)
{
    size_t len;
    char *data = slurp(path, &len);
    if (!data) {
        printf("%s: %s\n", path, err());
        return;
    }
    fwrite(data, 1, len, stdout);
    free(data);
}

static void head(const char *path)
{
    size_t len;
    char *data = slurp(path, &len);
    if (!data) {
        printf("%s: %s\n", path, err());
        return;
    }
    printf("%s: %.*s\n", path, (int)strcspn(data, "\n"), data);
    free(data);
}

static void line(char *arg)
{
    char *sep = strchr(arg, ':');
    if (!sep) {
        printf("line: no TEXT\n");
        return;
    }
    *sep = '\0';
    size_t len;
    char *data = slurp(arg, &len);
    if (!data) {
        printf("%s: %s\n", arg, err());
        return;
    }
    char *save;
    for (char *l = strtok_r(data, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (strncmp(l, sep + 1, strlen(sep + 1)) == 0)
            printf("%s: %s\n", arg, l);
    free(data);
}

static void shape(const char *path)
{
    size_t len;
    char *data = slurp(path, &len);
    if (!data) {
        printf("%s: %s\n", path, err());
        return;
    }
    printf("%s:\n", path);
    for (size_t i = 0; i < len; i++) {
        if (data[i] >= '0' && data[i] <= '9') {
            while (i + 1 < len && data[i + 1] >= '0' && data[i + 1] <= '9')
                i++;
            putchar('N');
        } else if (data[i] == ' ') {
            while (i + 1 < len && data[i + 1] == ' ')
                i++;
            putchar(' ');
        } else {
            putchar(data[i]);
        }
    }
    free(data);
}

static void show_link(const char *path)
{
    char target[4096];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) {
        printf("readlink %s: %s\n", path, err());
        return;
    }
    target[n] = '\0';
    printf("readlink %s: %s\n", path, target);
}

/* Fields of /proc/PID/stat whose values depend on how long things ran and
 * how the image is laid out: utime, vsize, rss, start_brk, arg_start, arg_end. */
static int run_dependent(int field)
{
    return field == 14 || field == 23 || field == 24 || (field >= 47 && field <= 49);
}

/* Prints the fields of a stat file; with `only`, just those it lists
 * (0-terminated). */
/* Field 39 of the stat file at path: for the calling thread the CPU it
 * runs on, for another live task one it may run on; a zombie's as it is. */
static void print_cpu_field(const char *path, const char *value, char state)
{
    int cpu = atoi(value), tid = 0;
    const char *task = strstr(path, "/task/");
    if (task)
        tid = atoi(task + 6);
    else if (strncmp(path, "/proc/self/", 11) == 0 || strncmp(path, "/proc/thread-self/", 18) == 0)
        tid = gettid();
    else
        tid = atoi(path + 6);
    if (state == 'Z') {
        printf(" 39=%s", value);
        return;
    }
    if (tid == gettid()) {
        int now = sched_getcpu();
        printf(" 39=%s", now == cpu ? value : "not the current CPU");
        return;
    }
    cpu_set_t set;
    if (sched_getaffinity(tid, sizeof set, &set) < 0)
        printf(" 39=%s (affinity: %s)", value, err());
    else
        printf(" 39=%s", CPU_ISSET(cpu, &set) ? "in-affinity" : "OUTSIDE-affinity");
}

static void stat_some(const char *path, const int *only)
{
    size_t len;
    char *data = slurp(path, &len);
    if (!data) {
        printf("%s: %s\n", path, err());
        return;
    }
    char *close_paren = strrchr(data, ')');
    char *open_paren = strchr(data, '(');
    if (!close_paren || !open_paren) {
        printf("%s: no (comm)\n", path);
        free(data);
        return;
    }
    printf("%s: 1=%.*s 2=%.*s", path, (int)(open_paren - data - 1), data,
           (int)(close_paren - open_paren + 1), open_paren);
    int field = 3;
    char state = '?';
    bool newline = data[len - 1] == '\n';
    char *save;
    for (char *tok = strtok_r(close_paren + 1, " \n", &save); tok;
         tok = strtok_r(NULL, " \n", &save), field++) {
        bool wanted = !only;
        for (const int *o = only; o && *o; o++)
            wanted |= *o == field;
        if (!wanted)
            continue;
        if (field == 3)
            state = tok[0];
        if (field == 39)
            print_cpu_field(path, tok, state);
        else if (run_dependent(field) && strcmp(tok, "0") != 0)
            printf(" %d=set", field);
        else
            printf(" %d=%s", field, tok);
    }
    printf(" (%d fields%s)\n", field - 1, newline ? "" : ", no newline");
    free(data);
}

static void stat_fields(const char *path)
{
    stat_some(path, NULL);
}

static void cmdline(const char *path)
{
    size_t len;
    char *data = slurp(path, &len);
    if (!data) {
        printf("%s: %s\n", path, err());
        return;
    }
    printf("%s: ", path);
    for (size_t i = 0; i < len; i++)
        putchar(data[i] ? data[i] : '|');
    printf(" (%s)\n", len == 0 ? "empty" : data[len - 1] ? "no NUL at the end" : "NUL-terminated");
    free(data);
}

/* Each line: start-end perms offset dev inode, then the name at column 73. */
static void maps(void)
{
    size_t len;
    char *data = slurp("/proc/self/maps", &len);
    if (!data) {
        printf("/proc/self/maps: %s\n", err());
        return;
    }
    unsigned long long prev_end = 0;
    int lines = 0, bad = 0;
    char names[256] = "";
    char *save;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned long long start, end, off, ino;
        unsigned maj, min;
        char perms[5];
        int n = 0;
        if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
                   &ino, &n) != 7 ||
            start >= end || start % 4096 || end % 4096 || start < prev_end) {
            printf("bad line: %s\n", line);
            bad++;
            continue;
        }
        prev_end = end;
        lines++;
        const char *name = line + n;
        if (*name && name - line != 73)
            printf("name not at column 73: %s\n", line);
        /* A file's pages name it and its inode; everything else is anonymous. */
        int file = name[0] == '/';
        if (file ? ino == 0 : (off || maj || min || ino))
            printf("%s: %s\n", file ? "file without an inode" : "not anonymous", line);
        if (strcmp(name, "[stack]") == 0)
            printf("maps: [stack] %s\n", perms);
        const char *shown = file ? strrchr(name, '/') + 1 : name;
        if (*shown && !strstr(names, shown) && strlen(names) + strlen(shown) + 2 < sizeof names)
            strcat(strcat(names, " "), shown);
    }
    printf("maps: %s lines, %d bad, names%s\n", lines > 3 ? "several" : "few", bad, names);
    free(data);
}

static void fds(void)
{
    int p[2];
    if (pipe(p) < 0 || open("/dev/null", O_WRONLY) < 0 || open("/proc/version", O_RDONLY) < 0 ||
        open("/dev/full", O_RDWR) < 0) {
        printf("fds: %s\n", err());
        return;
    }
    char **names;
    unsigned char *types;
    int n = list_dir("/proc/self/fd", &names, &types);
    if (n < 0) {
        printf("/proc/self/fd: %s\n", err());
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[64], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%s", names[i]);
        ssize_t len = readlink(path, target, sizeof target - 1);
        target[len > 0 ? len : 0] = '\0';
        struct stat st;
        if (strncmp(target, "pipe:[", 6) == 0)
            strcpy(target, "pipe:[N]");
        /* opendir's own descriptor is listed too, and gone by now, as on Linux. */
        if (lstat(path, &st) < 0)
            printf("fd %s %c %s\n", names[i], types[i] == DT_LNK ? 'l' : '?', err());
        else
            printf("fd %s %c %04o -> %s\n", names[i], types[i] == DT_LNK ? 'l' : '?',
                   st.st_mode & 07777, len < 0 ? err() : target);
        free(names[i]);
    }
    free(names);
    free(types);
}

static pthread_barrier_t started;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static int finished;

static void *sleeper(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&started);
    pthread_mutex_lock(&lock);
    while (!finished)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void threads(void)
{
    pthread_t th[2];
    pthread_barrier_init(&started, NULL, 3);
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, sleeper, NULL);
    pthread_barrier_wait(&started);
    /* Let both reach their wait. */
    for (int i = 0; i < 20; i++)
        sched_yield();
    ls("/proc/self/task");
    char **names;
    unsigned char *types;
    int n = list_dir("/proc/self/task", &names, &types);
    for (int i = 0; i < n; i++) {
        char path[128];
        snprintf(path, sizeof path, "/proc/self/task/%s", names[i]);
        ls(path);
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", names[i]);
        stat_fields(path);
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", names[i]);
        cat(path);
        free(names[i]);
    }
    free(names);
    free(types);
    head("/proc/thread-self/status");
    show_link("/proc/thread-self");
    pthread_mutex_lock(&lock);
    finished = 1;
    pthread_cond_broadcast(&done);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    ls("/proc/self/task");
}

static void child(void)
{
    int ready[2];
    if (pipe(ready) < 0)
        return;
    pid_t sleeping = fork();
    if (sleeping == 0) {
        close(ready[0]);
        close(ready[1]);
        pause();
        _exit(0);
    }
    pid_t exiting = fork();
    if (exiting == 0)
        _exit(3);
    /* The first child sleeps in pause once the second has exited. */
    close(ready[1]);
    char c;
    read(ready[0], &c, 1);
    siginfo_t info;
    waitid(P_PID, (id_t)exiting, &info, WEXITED | WNOWAIT);
    for (int i = 0; i < 20; i++)
        sched_yield();
    /* Not the memory layout: a forked child's argument bounds are its parent's. */
    static const int fields[] = {3, 4, 5, 6, 20, 23, 35, 38, 39, 52, 0};
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", sleeping);
    stat_some(path, fields);
    snprintf(path, sizeof path, "/proc/%d/stat", exiting);
    stat_some(path, fields);
    snprintf(path, sizeof path, "/proc/%d/status", exiting);
    cat(path);
    snprintf(path, sizeof path, "/proc/%d/cmdline", exiting);
    cmdline(path);
    snprintf(path, sizeof path, "/proc/%d/exe", exiting);
    show_link(path);
    ls("/proc");
    kill(sleeping, SIGKILL);
    waitpid(sleeping, NULL, 0);
    waitpid(exiting, NULL, 0);
    snprintf(path, sizeof path, "/proc/%d/stat", exiting);
    stat_fields(path);
}

static void do_write(char *arg)
{
    char *sep = strchr(arg, ':');
    if (!sep) {
        printf("write: no TEXT\n");
        return;
    }
    *sep = '\0';
    char text[256];
    size_t n = 0;
    for (const char *s = sep + 1; *s && n < sizeof text; s++)
        text[n++] = s[0] == '\\' && s[1] == 'n' ? (s++, '\n') : *s;
    int fd = open(arg, O_WRONLY);
    if (fd < 0) {
        printf("write %s: open %s\n", arg, err());
        return;
    }
    ssize_t r = write(fd, text, n);
    printf("write %s: %zd%s%s\n", arg, r, r < 0 ? " " : "", r < 0 ? err() : "");
    close(fd);
}

static void devfull(void)
{
    int fd = open("/dev/full", O_RDWR);
    if (fd < 0) {
        printf("/dev/full: %s\n", err());
        return;
    }
    unsigned char buf[64];
    memset(buf, 0xff, sizeof buf);
    ssize_t n = read(fd, buf, sizeof buf);
    int zero = 1;
    for (size_t i = 0; i < sizeof buf; i++)
        zero &= buf[i] == 0;
    printf("read /dev/full: %zd %s\n", n, zero ? "all zero" : "NOT zero");
    ssize_t w = write(fd, "x", 1);
    printf("write /dev/full: %zd %s\n", w, w < 0 ? err() : "");
    close(fd);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *v = strchr(a, ':');
        const char *val = v ? v + 1 : "";
        size_t cmd = v ? (size_t)(v - a) : strlen(a);
#define IS(name) (cmd == strlen(name) && strncmp(a, name, cmd) == 0)
        fflush(stdout);
        if (IS("walk"))
            walk(val);
        else if (IS("ls"))
            ls(val);
        else if (IS("cat"))
            cat(val);
        else if (IS("head"))
            head(val);
        else if (IS("line"))
            line(v + 1);
        else if (IS("shape"))
            shape(val);
        else if (IS("readlink"))
            show_link(val);
        else if (IS("stat"))
            stat_fields(val);
        else if (IS("cmdline"))
            cmdline(val);
        else if (IS("maps"))
            maps();
        else if (IS("fds"))
            fds();
        else if (IS("threads"))
            threads();
        else if (IS("child"))
            child();
        else if (IS("write"))
            do_write(v + 1);
        else if (IS("devfull"))
            devfull();
        else if (IS("pin")) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(atoi(val), &set);
            printf("pin %s: %s\n", val, sched_setaffinity(0, sizeof set, &set) < 0 ? err() : "ok");
        } else if (IS("linux32"))
            printf("personality: %s\n", personality(PER_LINUX32) < 0 ? err() : "PER_LINUX32");
        else if (IS("exec")) {
            argv[i] = argv[0];
            execv("/proc/self/exe", argv + i);
            printf("exec: %s\n", err());
            return 1;
        } else if (!IS("arg") && *a)
            printf("unknown command %s\n", a);
#undef IS
    }
    return 0;
}
