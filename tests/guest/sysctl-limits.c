/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl-limits.c - the IPC, keys, AIO and inotify limits of /proc/sys
 * (emu/kernel/sysctl.c): one case per run (argv[1]):
 *   show     every file's mode (as ls -l prints it) and value
 *   write    root's writes of fs/mqueue/msg_max as proc_dointvec_minmax
 *            takes them (blanks, a newline, 0x and 0 prefixes, the range,
 *            garbage, a second number left unwritten, nothing at all), a
 *            second write on the same descriptor (position 2: ignored),
 *            a pwrite at 1, a read of one byte and then of nothing; sem's
 *            four numbers (ERANGE for semmni, the values before a bad one
 *            kept), aio-max-nr ignoring a negative number, queues_max
 *            taking one, aio-nr refused; as uid 1000: EACCES at open
 *            (sched_rt_runtime_us too), EPERM through a descriptor root
 *            opened
 *   enforce  the limits at work after root changed them: mq_open's
 *            msg_max, msg_default and queues_max (root's CAP_SYS_RESOURCE
 *            passes, uid 1000 does not), maxkeys for uid 1000, aio-max-nr
 *            for io_setup, max_user_instances for inotify_init,
 *            max_queued_events for a new instance's queue, msgmni,
 *            msgmax, shmmax, semmsl and semopm */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <mqueue.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char *const files[] = {
    "fs/aio-max-nr",
    "fs/aio-nr",
    "fs/inotify/max_queued_events",
    "fs/inotify/max_user_instances",
    "fs/inotify/max_user_watches",
    "fs/mqueue/msg_default",
    "fs/mqueue/msg_max",
    "fs/mqueue/msgsize_default",
    "fs/mqueue/msgsize_max",
    "fs/mqueue/queues_max",
    "kernel/keys/gc_delay",
    "kernel/keys/maxbytes",
    "kernel/keys/maxkeys",
    "kernel/keys/root_maxbytes",
    "kernel/keys/root_maxkeys",
    "kernel/msgmax",
    "kernel/msgmnb",
    "kernel/msgmni",
    "kernel/sem",
    "kernel/shmall",
    "kernel/shmmax",
    "kernel/shmmni",
};

static void path_of(char *out, size_t n, const char *name)
{
    snprintf(out, n, "/proc/sys/%s", name);
}

/* The value, tabs shown as spaces, without its newline. */
static void show_value(const char *name)
{
    char path[96], buf[128] = "";
    path_of(path, sizeof path, name);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (n < 0) {
        printf("%s = %s\n", name, err_name(errno));
        return;
    }
    buf[n] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == '\t')
            *p = ' ';
    printf("%s = %.*s\n", name, (int)strcspn(buf, "\n"), buf);
}

static void show_mode(const char *name)
{
    char path[96], m[11];
    struct stat st;
    path_of(path, sizeof path, name);
    if (stat(path, &st) < 0) {
        printf("%s: %s\n", name, err_name(errno));
        return;
    }
    const char *rwx = "rwxrwxrwx";
    m[0] = S_ISREG(st.st_mode) ? '-' : '?';
    for (int i = 0; i < 9; i++)
        m[1 + i] = st.st_mode & (0400 >> i) ? rwx[i] : '-';
    m[10] = '\0';
    printf("%s %u %u %s\n", m, (unsigned)st.st_uid, (unsigned)st.st_gid, name);
}

/* The text with its newlines and tabs escaped. */
static const char *shown(const char *s, size_t n)
{
    static char out[128];
    size_t o = 0;
    for (size_t i = 0; i < n && o < sizeof out - 3; i++) {
        if (s[i] == '\n' || s[i] == '\t') {
            out[o++] = '\\';
            out[o++] = s[i] == '\n' ? 'n' : 't';
        } else {
            out[o++] = s[i];
        }
    }
    out[o] = '\0';
    return out;
}

static void report(const char *what, const char *name, const char *text, size_t n, ssize_t r)
{
    if (r < 0)
        printf("%s %s \"%s\": %s\n", what, name, shown(text, n), err_name(errno));
    else
        printf("%s %s \"%s\": %zd\n", what, name, shown(text, n), r);
}

/* One open, one write of the text, one close. */
static void put(const char *name, const char *text)
{
    char path[96];
    path_of(path, sizeof path, name);
    int fd = open(path, O_WRONLY);
    if (fd < 0) {
        printf("open %s for writing: %s\n", name, err_name(errno));
        return;
    }
    report("write", name, text, strlen(text), write(fd, text, strlen(text)));
    close(fd);
}

static const char *res(long r)
{
    return r < 0 ? err_name(errno) : "ok";
}

static void case_show(void)
{
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        show_mode(files[i]);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        show_value(files[i]);
}

static void as_user(uid_t uid)
{
    if (setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0) {
        printf("setresuid: %s\n", err_name(errno));
        exit(1);
    }
}

static void case_write(void)
{
    static const char *const texts[] = {
        "20\n", "  30 \n", "\t0x10", "010\n", "0", "65537", "65536", "-1", "+5", "abc", "12abc",
        "5 6\n", "\n", "99999999999999999999999", "018", "7\n\n\n", "-", "1",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        put("fs/mqueue/msg_max", texts[i]);
        show_value("fs/mqueue/msg_max");
    }
    /* nothing at all: 0, and no change */
    int fd = open("/proc/sys/fs/mqueue/msg_max", O_WRONLY);
    report("write", "fs/mqueue/msg_max", "", 0, write(fd, "", 0));
    /* the second write is at position 2: taken and ignored */
    report("write", "fs/mqueue/msg_max", "25", 2, write(fd, "25", 2));
    report("write", "fs/mqueue/msg_max", "26", 2, write(fd, "26", 2));
    report("pwrite at 1", "fs/mqueue/msg_max", "27", 2, pwrite(fd, "27", 2, 1));
    report("pwrite at 0", "fs/mqueue/msg_max", "28", 2, pwrite(fd, "28", 2, 0));
    close(fd);
    show_value("fs/mqueue/msg_max");
    /* a read of one byte, then nothing past position 0 */
    char c[8] = "";
    fd = open("/proc/sys/fs/mqueue/msg_max", O_RDONLY);
    ssize_t n1 = read(fd, c, 1);
    ssize_t n2 = read(fd, c + 1, sizeof c - 2);
    printf("read 1: %zd \"%c\", then: %zd\n", n1, c[0], n2);
    close(fd);
    put("fs/mqueue/msg_max", "10");

    put("kernel/sem", "250 32000 32 40000");
    show_value("kernel/sem");
    put("kernel/sem", "1 2 x 4");
    show_value("kernel/sem");
    put("kernel/sem", "32000 1024000000 500 32000 77\n");
    show_value("kernel/sem");
    put("kernel/sem", "32000\t1024000000\t500\t32000\n");
    show_value("kernel/sem");
    put("fs/aio-max-nr", "-5");
    show_value("fs/aio-max-nr");
    put("fs/aio-max-nr", "18446744073709551615");
    show_value("fs/aio-max-nr");
    put("fs/aio-max-nr", "18446744073709551616");
    put("fs/aio-max-nr", "65536");
    put("fs/mqueue/queues_max", "-3");
    show_value("fs/mqueue/queues_max");
    put("fs/mqueue/queues_max", "256");
    put("kernel/keys/maxkeys", "0");
    put("kernel/keys/gc_delay", "0");
    show_value("kernel/keys/gc_delay");
    put("kernel/keys/gc_delay", "300");
    put("fs/inotify/max_user_watches", "2147483648");
    put("fs/inotify/max_queued_events", "-1");
    put("kernel/msgmni", "32769");
    put("kernel/shmmni", "32768");
    put("kernel/shmmni", "4096");
    put("fs/aio-nr", "1");
    printf("root access W_OK msg_max, aio-nr: %s %s\n",
           res(access("/proc/sys/fs/mqueue/msg_max", W_OK)),
           res(access("/proc/sys/fs/aio-nr", W_OK)));

    /* uid 1000: no open for writing; a descriptor root opened: EPERM */
    fd = open("/proc/sys/fs/mqueue/msg_max", O_WRONLY);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        as_user(1000);
        put("fs/mqueue/msg_max", "5");
        put("kernel/sched_rt_runtime_us", "5");
        printf("uid 1000 access W_OK, R_OK: %s %s\n",
               res(access("/proc/sys/fs/mqueue/msg_max", W_OK)),
               res(access("/proc/sys/fs/mqueue/msg_max", R_OK)));
        report("write (root's descriptor)", "fs/mqueue/msg_max", "5", 1, write(fd, "5", 1));
        show_value("fs/mqueue/msg_max");
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    close(fd);
    show_value("fs/mqueue/msg_max");
}

static long mq_try(const char *name, long maxmsg, bool with_attr)
{
    struct mq_attr a = {.mq_maxmsg = maxmsg, .mq_msgsize = 64};
    mqd_t q = mq_open(name, O_CREAT | O_RDWR, 0600, with_attr ? &a : NULL);
    if (q == (mqd_t)-1)
        return -1;
    mq_close(q);
    mq_unlink(name);
    return 0;
}

/* add_key until EDQUOT (at most 20): how many went in. */
static int keys_until_edquot(void)
{
    int n = 0;
    for (; n < 20; n++) {
        char desc[16];
        snprintf(desc, sizeof desc, "k%d", n);
        if (syscall(SYS_add_key, "user", desc, "x", (size_t)1, -2L /* process keyring */) < 0) {
            printf("key %d: %s\n", n, err_name(errno));
            break;
        }
    }
    return n;
}

static void child_keys(uid_t uid)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        as_user(uid);
        printf("uid %u added %d keys\n", (unsigned)uid, keys_until_edquot());
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
}

static void case_enforce(void)
{
    /* mqueue: msg_max 20; root (CAP_SYS_RESOURCE) may go to HARD_MSGMAX */
    put("fs/mqueue/msg_max", "20");
    printf("root mq_open maxmsg 21: %s\n", res(mq_try("/a", 21, true)));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        as_user(1000);
        printf("uid 1000 mq_open maxmsg 21: %s\n", res(mq_try("/b", 21, true)));
        printf("uid 1000 mq_open maxmsg 20: %s\n", res(mq_try("/b", 20, true)));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    /* the default is checked too: msg_default 30 over msg_max 20 */
    put("fs/mqueue/msg_default", "30");
    printf("root mq_open no attr: %s\n", res(mq_try("/c", 0, false)));
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        as_user(1000);
        printf("uid 1000 mq_open no attr: %s\n", res(mq_try("/d", 0, false)));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    put("fs/mqueue/msg_default", "10");
    /* queues_max 1 with one queue open: ENOSPC but for root */
    put("fs/mqueue/queues_max", "1");
    mqd_t q1 = mq_open("/q1", O_CREAT | O_RDWR, 0666, NULL);
    printf("root first queue: %s\n", res(q1 == (mqd_t)-1 ? -1 : 0));
    printf("root second queue: %s\n", res(mq_try("/q2", 10, true)));
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        as_user(1000);
        printf("uid 1000 second queue: %s\n", res(mq_try("/q3", 10, true)));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    mq_close(q1);
    mq_unlink("/q1");
    put("fs/mqueue/queues_max", "256");
    put("fs/mqueue/msg_max", "10");

    /* keys: maxkeys 3, then 5, for two fresh users */
    put("kernel/keys/maxkeys", "3");
    child_keys(1000);
    put("kernel/keys/maxkeys", "5");
    child_keys(1001);
    show_value("kernel/keys/maxkeys");
    put("kernel/keys/maxkeys", "200");

    /* aio-max-nr 10: io_setup against it (aio-nr counts) */
    put("fs/aio-max-nr", "10");
    unsigned long c1 = 0, c2 = 0, c3 = 0;
    printf("io_setup 11: %s\n", res(syscall(SYS_io_setup, 11, &c1)));
    printf("io_setup 10: %s\n", res(syscall(SYS_io_setup, 10, &c2)));
    show_value("fs/aio-nr");
    printf("io_setup 1 more: %s\n", res(syscall(SYS_io_setup, 1, &c3)));
    syscall(SYS_io_destroy, c2);
    printf("io_setup 1 after io_destroy: %s\n", res(syscall(SYS_io_setup, 1, &c3)));
    syscall(SYS_io_destroy, c3);
    put("fs/aio-max-nr", "65536");

    /* inotify: two instances for root, who has no exception */
    put("fs/inotify/max_user_instances", "2");
    int i1 = inotify_init(), i2 = inotify_init(), i3 = inotify_init();
    printf("inotify_init x3: %s %s %s\n", res(i1), res(i2), res(i3));
    close(i1);
    printf("after a close: %s\n", res(i3 = inotify_init()));
    close(i2);
    close(i3);
    put("fs/inotify/max_user_instances", "128");
    /* max_queued_events 2: an instance made then keeps 2 events, and one
     * IN_Q_OVERFLOW; the value is the instance's from its start */
    put("fs/inotify/max_queued_events", "2");
    char dir[] = "/tmp/sysctl-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return;
    }
    int in = inotify_init1(IN_NONBLOCK);
    put("fs/inotify/max_queued_events", "16384");
    inotify_add_watch(in, dir, IN_CREATE);
    for (int i = 0; i < 4; i++) {
        char f[64];
        snprintf(f, sizeof f, "%s/f%d", dir, i);
        close(open(f, O_CREAT | O_WRONLY, 0600));
    }
    char ev[1024] __attribute__((aligned(8)));
    ssize_t got = read(in, ev, sizeof ev);
    for (ssize_t off = 0; off < got;) {
        const struct inotify_event *e = (const void *)(ev + off);
        printf("event %s%s\n", e->mask & IN_Q_OVERFLOW ? "IN_Q_OVERFLOW" : "IN_CREATE ",
               e->mask & IN_Q_OVERFLOW ? "" : e->name);
        off += (ssize_t)(sizeof *e + e->len);
    }
    close(in);
    for (int i = 0; i < 4; i++) {
        char f[64];
        snprintf(f, sizeof f, "%s/f%d", dir, i);
        unlink(f);
    }
    rmdir(dir);

    /* System V */
    put("kernel/msgmni", "1");
    int m1 = msgget(IPC_PRIVATE, 0600), m2 = msgget(IPC_PRIVATE, 0600);
    printf("msgget x2: %s %s\n", res(m1), res(m2));
    put("kernel/msgmax", "100");
    struct {
        long type;
        char text[200];
    } msg = {.type = 1};
    printf("msgsnd 101: %s\n", res(msgsnd(m1, &msg, 101, IPC_NOWAIT)));
    printf("msgsnd 100: %s\n", res(msgsnd(m1, &msg, 100, IPC_NOWAIT)));
    struct msginfo mi;
    msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
    printf("IPC_INFO msgmax %d msgmni %d\n", mi.msgmax, mi.msgmni);
    msgctl(m1, IPC_RMID, NULL);
    put("kernel/msgmni", "32000");
    put("kernel/msgmax", "8192");
    put("kernel/shmmax", "8192");
    int s1 = shmget(IPC_PRIVATE, 8193, 0600), s2 = shmget(IPC_PRIVATE, 8192, 0600);
    printf("shmget 8193, 8192: %s %s\n", res(s1), res(s2));
    shmctl(s2, IPC_RMID, NULL);
    put("kernel/shmmax", "18446744073692774399");
    put("kernel/sem", "10 32000 2 32000");
    int e1 = semget(IPC_PRIVATE, 11, 0600), e2 = semget(IPC_PRIVATE, 10, 0600);
    printf("semget 11, 10: %s %s\n", res(e1), res(e2));
    struct sembuf ops[3] = {{0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
    printf("semop 3, 2: %s", res(semop(e2, ops, 3)));
    printf(" %s\n", res(semop(e2, ops, 2)));
    /* past SEMOPM_FAST (64) operations, in kernel memory */
    put("kernel/sem", "10 32000 100 32000");
    struct sembuf many[70];
    for (int i = 0; i < 70; i++)
        many[i] = (struct sembuf){0, 1, 0};
    printf("semop 70: %s", res(semop(e2, many, 70)));
    printf(", semaphore 0 = %d\n", semctl(e2, 0, GETVAL));
    semctl(e2, 0, IPC_RMID);
    put("kernel/sem", "32000 1024000000 500 32000");
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "show";
    if (strcmp(c, "show") == 0)
        case_show();
    else if (strcmp(c, "write") == 0)
        case_write();
    else if (strcmp(c, "enforce") == 0)
        case_enforce();
    else
        return 2;
    return 0;
}
