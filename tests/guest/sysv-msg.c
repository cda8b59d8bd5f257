/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv-msg.c - System V message queues and the books of shared memory
 * segments, one case per run (argv[1]):
 *   types    receive by type: first, equal, MSG_EXCEPT, lowest <= |type|
 *   errors   E2BIG, MSG_NOERROR, ENOMSG, EINVAL, EFAULT, MSG_COPY
 *   full     a full queue blocks the sender until a receiver takes
 *   wait     a waiting receiver gets the message of its type; IPC_RMID wakes with EIDRM
 *   ctl      IPC_STAT/IPC_SET/IPC_INFO values
 *   setrm    IPC_SET wakes a receiver to look again, IPC_RMID at once after
 *            still ends its wait with EIDRM
 *   signal   a handler ends msgrcv and msgsnd waits with EINTR, even with SA_RESTART
 *   shm      shmget/shmctl books (size, pids, IPC_RMID, SHM_LOCK)
 *   proc     /proc/sysvipc and the limits in /proc/sys/kernel (asymu only:
 *            the host lists its own objects)
 * Every object is IPC_PRIVATE and removed at the end, so the cases but
 * proc run under qemu-user on the host kernel too. */
#define _GNU_SOURCE
#include "guest.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifdef __aarch64__
#define IPC_64_FLAG 0
#else
#define IPC_64_FLAG 0x100 /* what glibc adds on arm: the 64-bit structures */
#endif

struct msg {
    long type;
    char text[8200];
};

static int new_queue(void)
{
    int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    if (id < 0) {
        printf("msgget: %s\n", err_name(errno));
        exit(1);
    }
    return id;
}

static void send(int id, long type, const char *text)
{
    struct msg m = {.type = type};
    strcpy(m.text, text);
    if (msgsnd(id, &m, strlen(text), 0) < 0)
        printf("msgsnd %ld: %s\n", type, err_name(errno));
}

/* Receives and prints what came, or the errno. */
static void recv(int id, size_t size, long type, int flags)
{
    struct msg m;
    memset(&m, 0, sizeof m);
    ssize_t n = msgrcv(id, &m, size, type, flags);
    if (n < 0)
        printf("msgrcv %ld: %s\n", type, err_name(errno));
    else
        printf("msgrcv %ld: type %ld, %zd bytes \"%.*s\"\n", type, m.type, n, (int)n, m.text);
}

static void sleep_ms(long ms)
{
    struct timespec ts = ts_of(ms * MS);
    nanosleep(&ts, NULL);
}

static int child_status(pid_t pid)
{
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void print_stat(int id)
{
    struct msqid_ds ds;
    memset(&ds, 0xff, sizeof ds);
    if (msgctl(id, IPC_STAT, &ds) < 0) {
        printf("stat: %s\n", err_name(errno));
        return;
    }
    printf("stat: qnum %lu cbytes %lu qbytes %lu mode %o lspid self %d lrpid self %d\n",
           (unsigned long)ds.msg_qnum, (unsigned long)ds.__msg_cbytes,
           (unsigned long)ds.msg_qbytes, ds.msg_perm.mode & 0777, ds.msg_lspid == getpid(),
           ds.msg_lrpid == getpid());
}

static void types(void)
{
    int id = new_queue();
    send(id, 3, "three");
    send(id, 1, "one");
    send(id, 2, "two");
    send(id, 1, "uno");
    send(id, 4, "four");
    print_stat(id);
    recv(id, 100, 2, 0);
    recv(id, 100, 1, MSG_EXCEPT);
    recv(id, 100, -3, 0);
    recv(id, 100, 0, 0);
    recv(id, 100, 2, IPC_NOWAIT);
    recv(id, 100, -10, 0);
    print_stat(id);
    recv(id, 100, 0, IPC_NOWAIT);
    msgctl(id, IPC_RMID, NULL);
}

static void errors(void)
{
    int id = new_queue();
    send(id, 7, "0123456789");
    recv(id, 4, 7, 0);
    print_stat(id);
    recv(id, 4, 0, MSG_COPY | IPC_NOWAIT | MSG_NOERROR);
    recv(id, 100, 0, MSG_COPY);
    recv(id, 100, 0, MSG_COPY | IPC_NOWAIT);
    recv(id, 100, 1, MSG_COPY | IPC_NOWAIT);
    recv(id, 4, 7, MSG_NOERROR);
    print_stat(id);
    recv(id, 100, 0, IPC_NOWAIT);
    struct msg m = {.type = 0};
    printf("type 0: %s\n", msgsnd(id, &m, 1, 0) < 0 ? err_name(errno) : "ok");
    m.type = 1;
    printf("8193 bytes: %s\n", msgsnd(id, &m, 8193, 0) < 0 ? err_name(errno) : "ok");
    printf("8192 bytes: %s\n", msgsnd(id, &m, 8192, 0) < 0 ? err_name(errno) : "ok");
    printf("0 bytes: %s\n", msgsnd(id, &m, 0, 0) < 0 ? err_name(errno) : "ok");
    printf("bad buffer: %s\n", msgsnd(id, (void *)8, 1, 0) < 0 ? err_name(errno) : "ok");
    /* the message is taken, then cannot be copied: it is lost */
    printf("recv bad buffer: %s\n", msgrcv(id, (void *)8, 8192, 0, 0) < 0 ? err_name(errno) : "ok");
    print_stat(id);
    printf("bad id: %s\n", msgsnd(id + 1000000, &m, 1, 0) < 0 ? err_name(errno) : "ok");
    printf("negative id: %s\n", msgrcv(-1, &m, 1, 0, 0) < 0 ? err_name(errno) : "ok");
    printf("bad cmd: %s\n", msgctl(id, 99, NULL) < 0 ? err_name(errno) : "ok");
    msgctl(id, IPC_RMID, NULL);
    printf("after rmid: %s\n", msgsnd(id, &m, 1, 0) < 0 ? err_name(errno) : "ok");
}

static void full(void)
{
    int id = new_queue();
    struct msg m = {.type = 1};
    memset(m.text, 'x', 8192);
    printf("send 1: %s\n", msgsnd(id, &m, 8192, 0) < 0 ? err_name(errno) : "ok");
    printf("send 2: %s\n", msgsnd(id, &m, 8192, 0) < 0 ? err_name(errno) : "ok");
    printf("send 3 nowait: %s\n", msgsnd(id, &m, 1, IPC_NOWAIT) < 0 ? err_name(errno) : "ok");
    pid_t pid = fork();
    if (pid == 0) {
        sleep_ms(100);
        ssize_t n = msgrcv(id, &m, sizeof m.text, 0, 0);
        printf("child took %zd\n", n);
        _exit(0);
    }
    long long t0 = now_ns(CLOCK_MONOTONIC);
    int r = msgsnd(id, &m, 10, 0);
    long long ms = (now_ns(CLOCK_MONOTONIC) - t0) / MS;
    int err = errno, status = child_status(pid);
    printf("send 3: %s, waited %s50 ms\n", r < 0 ? err_name(err) : "ok", ms >= 50 ? ">=" : "<");
    printf("child exit %d\n", status);
    print_stat(id);
    msgctl(id, IPC_RMID, NULL);
}

static void wait_type(void)
{
    int id = new_queue();
    pid_t pid = fork();
    if (pid == 0) {
        recv(id, 100, 5, 0);
        recv(id, 3, 6, 0); /* too small when it comes: E2BIG, and the message stays */
        recv(id, 100, 9, 0);
        _exit(0);
    }
    sleep_ms(20);
    send(id, 4, "four");
    sleep_ms(20);
    send(id, 5, "five");
    sleep_ms(20);
    send(id, 6, "six!");
    sleep_ms(20);
    print_stat(id);
    recv(id, 100, 0, 0);
    recv(id, 100, 0, 0);
    sleep_ms(20);
    printf("rmid: %s\n", msgctl(id, IPC_RMID, NULL) < 0 ? err_name(errno) : "ok");
    printf("child exit %d\n", child_status(pid));
}

static void ctl(void)
{
    int id = new_queue();
    struct msqid_ds ds;
    memset(&ds, 0, sizeof ds);
    msgctl(id, IPC_STAT, &ds);
    printf("uid %u cuid %u stime %d ctime set %d\n", ds.msg_perm.uid, ds.msg_perm.cuid,
           ds.msg_stime != 0, ds.msg_ctime != 0);
    ds.msg_qbytes = 10;
    ds.msg_perm.mode = 0604;
    printf("set: %s\n", msgctl(id, IPC_SET, &ds) < 0 ? err_name(errno) : "ok");
    print_stat(id);
    struct msg m = {.type = 1};
    printf("send 11: %s\n", msgsnd(id, &m, 11, IPC_NOWAIT) < 0 ? err_name(errno) : "ok");
    printf("send 10: %s\n", msgsnd(id, &m, 10, IPC_NOWAIT) < 0 ? err_name(errno) : "ok");
    printf("send 0: %s\n", msgsnd(id, &m, 0, IPC_NOWAIT) < 0 ? err_name(errno) : "ok");
    ds.msg_perm.uid = (uid_t)-1;
    printf("set uid -1: %s\n", msgctl(id, IPC_SET, &ds) < 0 ? err_name(errno) : "ok");
    struct msginfo info;
    memset(&info, 0, sizeof info);
    int r = msgctl(id, IPC_INFO, (struct msqid_ds *)&info);
    printf("info: %s msgmax %d msgmnb %d msgmni %d msgssz %d msgseg %u msgpool %d msgmap %d msgtql %d\n",
           r < 0 ? err_name(errno) : "ok", info.msgmax, info.msgmnb, info.msgmni, info.msgssz,
           info.msgseg, info.msgpool, info.msgmap, info.msgtql);
    /* raw: armhf's glibc converts the structure itself and would fault */
    printf("stat fault: %s\n",
           syscall(SYS_msgctl, id, IPC_STAT | IPC_64_FLAG, 8) < 0 ? err_name(errno) : "ok");
    msgctl(id, IPC_RMID, NULL);
    printf("stat removed: %s\n", msgctl(id, IPC_STAT, &ds) < 0 ? err_name(errno) : "ok");
}

static void set_then_remove(void)
{
    int id = new_queue();
    pid_t pid = fork();
    if (pid == 0) {
        recv(id, 100, 0, 0);
        _exit(0);
    }
    sleep_ms(20);
    struct msqid_ds ds;
    msgctl(id, IPC_STAT, &ds);
    int set = msgctl(id, IPC_SET, &ds), rm = msgctl(id, IPC_RMID, NULL);
    int status = child_status(pid);
    printf("set %d rmid %d, child exit %d\n", set, rm, status);
}

static void on_usr1(int sig)
{
    (void)sig;
}

static void interrupted(void)
{
    int id = new_queue();
    pid_t pid = fork();
    if (pid == 0) {
        struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
        sigaction(SIGUSR1, &sa, NULL);
        recv(id, 100, 0, 0);
        struct msg m = {.type = 1};
        msgsnd(id, &m, 8192, 0);
        msgsnd(id, &m, 8192, 0);
        printf("msgsnd full: %s\n", msgsnd(id, &m, 1, 0) < 0 ? err_name(errno) : "ok");
        _exit(0);
    }
    sleep_ms(20);
    kill(pid, SIGUSR1);
    sleep_ms(20);
    kill(pid, SIGUSR1);
    int status = child_status(pid);
    printf("child exit %d\n", status);
    msgctl(id, IPC_RMID, NULL);
}

static void shm(void)
{
    int id = shmget(IPC_PRIVATE, 10000, IPC_CREAT | 0640);
    printf("shmget: %s\n", id < 0 ? err_name(errno) : "ok");
    struct shmid_ds ds;
    memset(&ds, 0xff, sizeof ds);
    printf("stat: %s", shmctl(id, IPC_STAT, &ds) < 0 ? err_name(errno) : "ok");
    printf(" size %lu nattch %lu cpid self %d lpid %d mode %o atime %ld\n",
           (unsigned long)ds.shm_segsz, (unsigned long)ds.shm_nattch, ds.shm_cpid == getpid(),
           ds.shm_lpid, ds.shm_perm.mode & 07777, (long)ds.shm_atime);
    printf("lock: %s", shmctl(id, SHM_LOCK, NULL) < 0 ? err_name(errno) : "ok");
    shmctl(id, IPC_STAT, &ds);
    printf(" mode %o\n", ds.shm_perm.mode & 07777);
    shmctl(id, SHM_UNLOCK, NULL);
    printf("size 0: %s\n", shmget(IPC_PRIVATE, 0, IPC_CREAT | 0600) < 0 ? err_name(errno) : "ok");
    printf("bad cmd: %s\n", shmctl(id, 99, NULL) < 0 ? err_name(errno) : "ok");
    struct shminfo info;
    memset(&info, 0, sizeof info);
    int r = shmctl(id, IPC_INFO, (struct shmid_ds *)&info);
    printf("info: %s shmmin %lu shmmni %lu shmseg %lu\n", r < 0 ? err_name(errno) : "ok",
           (unsigned long)info.shmmin, (unsigned long)info.shmmni, (unsigned long)info.shmseg);
    printf("rmid: %s\n", shmctl(id, IPC_RMID, NULL) < 0 ? err_name(errno) : "ok");
    printf("stat removed: %s\n", shmctl(id, IPC_STAT, &ds) < 0 ? err_name(errno) : "ok");
}

static void cat(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("%s: %s\n", path, err_name(errno));
        return;
    }
    char line[512];
    printf("%s:\n", path);
    while (fgets(line, sizeof line, f))
        fputs(line, stdout);
    fclose(f);
}

static void proc(void)
{
    static const char *const limits[] = {"sem", "msgmax", "msgmnb", "msgmni",
                                         "shmmax", "shmall", "shmmni"};
    char path[64];
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        snprintf(path, sizeof path, "/proc/sys/kernel/%s", limits[i]);
        cat(path);
    }
    int sem = semget(0x1234, 3, IPC_CREAT | 0600);
    int msg = msgget(IPC_PRIVATE, IPC_CREAT | 0644);
    int shm = shmget(IPC_PRIVATE, 5000, IPC_CREAT | 0666);
    send(msg, 1, "hello");
    cat("/proc/sysvipc/sem");
    cat("/proc/sysvipc/msg");
    cat("/proc/sysvipc/shm");
    semctl(sem, 0, IPC_RMID);
    msgctl(msg, IPC_RMID, NULL);
    shmctl(shm, IPC_RMID, NULL);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "types") == 0)
        types();
    else if (strcmp(c, "errors") == 0)
        errors();
    else if (strcmp(c, "full") == 0)
        full();
    else if (strcmp(c, "wait") == 0)
        wait_type();
    else if (strcmp(c, "ctl") == 0)
        ctl();
    else if (strcmp(c, "setrm") == 0)
        set_then_remove();
    else if (strcmp(c, "signal") == 0)
        interrupted();
    else if (strcmp(c, "shm") == 0)
        shm();
    else if (strcmp(c, "proc") == 0)
        proc();
    else
        return 2;
    return 0;
}
