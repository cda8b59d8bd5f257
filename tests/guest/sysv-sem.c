/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv-sem.c - System V semaphores, one case per run (argv[1]):
 *   pingpong  a parent and a forked child hand two semaphores back and forth
 *   errors    IPC_NOWAIT, E2BIG, EFBIG, ERANGE, semget's EINVAL/ENOENT/EEXIST
 *   timeout   semtimedop gives EAGAIN after exactly its timeout
 *   undo      SEM_UNDO adjustments are undone when the process exits
 *   rmid      IPC_RMID wakes a waiter with EIDRM
 *   signal    a signal ends a semop with EINTR, even with SA_RESTART
 *   ctl       SETALL/GETALL/IPC_STAT/IPC_SET/IPC_INFO/GETPID/GETNCNT
 *   kill      waiters killed in semop and msgrcv leave nothing behind
 *   perm      a child that is no longer root meets the sets' mode bits
 * Every set is IPC_PRIVATE and removed at the end, so it runs under
 * qemu-user on the host kernel too. */
#define _GNU_SOURCE
#include "guest.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifdef __aarch64__
#define IPC_64_FLAG 0
#else
#define IPC_64_FLAG 0x100 /* what glibc adds on arm: the 64-bit structures */
#endif

union semun {
    int val;
    struct semid_ds *buf;
    unsigned short *array;
    struct seminfo *info;
};

static int new_set(int nsems)
{
    int id = semget(IPC_PRIVATE, nsems, IPC_CREAT | 0600);
    if (id < 0) {
        printf("semget: %s\n", err_name(errno));
        exit(1);
    }
    return id;
}

static int op(int id, unsigned short num, short delta, short flags)
{
    struct sembuf sb = {num, delta, flags};
    return semop(id, &sb, 1) < 0 ? -errno : 0;
}

static const char *res(int r)
{
    return r < 0 ? err_name(-r) : "ok";
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

static void pingpong(void)
{
    int id = new_set(2); /* 0: the child's turn, 1: the parent's */
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 3; i++) {
            op(id, 0, -1, 0);
            printf("child %d\n", i);
            op(id, 1, 1, 0);
        }
        _exit(0);
    }
    sleep_ms(20); /* the child waits on semaphore 0 by now */
    printf("ncnt %d\n", semctl(id, 0, GETNCNT));
    for (int i = 0; i < 3; i++) {
        op(id, 0, 1, 0);
        op(id, 1, -1, 0);
        printf("parent %d\n", i);
    }
    printf("child exit %d\n", child_status(pid));
    printf("values %d %d\n", semctl(id, 0, GETVAL), semctl(id, 1, GETVAL));
    semctl(id, 0, IPC_RMID);
}

static void errors(void)
{
    int id = new_set(1);
    printf("nowait: %s\n", res(op(id, 0, -1, IPC_NOWAIT)));
    printf("zero nowait: %s\n", res(op(id, 0, 0, IPC_NOWAIT)));
    semctl(id, 0, SETVAL, (union semun){.val = 1});
    printf("zero nowait at 1: %s\n", res(op(id, 0, 0, IPC_NOWAIT)));
    struct sembuf many[501] = {{0}};
    printf("501 ops: %s\n", semop(id, many, 501) < 0 ? err_name(errno) : "ok");
    printf("0 ops: %s\n", semop(id, many, 0) < 0 ? err_name(errno) : "ok");
    printf("sem_num 5: %s\n", res(op(id, 5, 1, 0)));
    printf("bad id: %s\n", res(op(id + 1000000, 0, 1, 0)));
    printf("bad sops: %s\n", semop(id, (struct sembuf *)8, 1) < 0 ? err_name(errno) : "ok");
    printf("setval 32768: %s\n",
           semctl(id, 0, SETVAL, (union semun){.val = 32768}) < 0 ? err_name(errno) : "ok");
    printf("setval -1: %s\n",
           semctl(id, 0, SETVAL, (union semun){.val = -1}) < 0 ? err_name(errno) : "ok");
    semctl(id, 0, SETVAL, (union semun){.val = 32767});
    printf("over 32767: %s\n", res(op(id, 0, 1, 0)));
    /* atomic: the first operation would pass, the second cannot */
    struct sembuf two[2] = {{0, -1, 0}, {0, -32767, IPC_NOWAIT}};
    printf("atomic: %s, value %d\n", semop(id, two, 2) < 0 ? err_name(errno) : "ok",
           semctl(id, 0, GETVAL));
    printf("semget 32001: %s\n",
           semget(IPC_PRIVATE, 32001, IPC_CREAT | 0600) < 0 ? err_name(errno) : "ok");
    printf("semget 0: %s\n", semget(IPC_PRIVATE, 0, IPC_CREAT | 0600) < 0 ? err_name(errno) : "ok");
    printf("semctl bad cmd: %s\n", semctl(id, 0, 99) < 0 ? err_name(errno) : "ok");
    printf("getval sem 1: %s\n", semctl(id, 1, GETVAL) < 0 ? err_name(errno) : "ok");
    semctl(id, 0, IPC_RMID);
    printf("after rmid: %s\n", res(op(id, 0, 1, 0)));
    /* keys: a key of this process's own making, removed at the end */
    key_t key = (key_t)(0x51530000 | (getpid() & 0xffff));
    printf("no key: %s\n", semget(key, 1, 0600) < 0 ? err_name(errno) : "ok");
    int k = semget(key, 2, IPC_CREAT | IPC_EXCL | 0600);
    printf("same id: %d\n", semget(key, 2, 0) == k && semget(key, 1, IPC_CREAT) == k);
    printf("excl: %s\n", semget(key, 2, IPC_CREAT | IPC_EXCL | 0600) < 0 ? err_name(errno) : "ok");
    printf("more sems: %s\n", semget(key, 3, 0) < 0 ? err_name(errno) : "ok");
    semctl(k, 0, IPC_RMID);
}

static void timeout(void)
{
    int id = new_set(1);
    struct timespec ts = ts_of(250 * MS);
    struct sembuf sb = {0, -1, 0};
    long long t0 = now_ns(CLOCK_MONOTONIC);
    int r = semtimedop(id, &sb, 1, &ts);
    long long ms = (now_ns(CLOCK_MONOTONIC) - t0) / MS;
    printf("semtimedop: %s after %lld ms\n", r < 0 ? err_name(errno) : "ok", ms);
    ts = ts_of(0);
    printf("zero timeout: %s\n", semtimedop(id, &sb, 1, &ts) < 0 ? err_name(errno) : "ok");
    ts.tv_nsec = 1000000000;
    printf("bad timeout: %s\n", semtimedop(id, &sb, 1, &ts) < 0 ? err_name(errno) : "ok");
    semctl(id, 0, SETVAL, (union semun){.val = 1});
    ts = ts_of(250 * MS);
    printf("available: %s\n", semtimedop(id, &sb, 1, &ts) < 0 ? err_name(errno) : "ok");
    semctl(id, 0, IPC_RMID);
}

static void undo(void)
{
    int id = new_set(2);
    semctl(id, 1, SETVAL, (union semun){.val = 5});
    pid_t pid = fork();
    if (pid == 0) {
        op(id, 0, 1, SEM_UNDO);
        op(id, 0, 1, SEM_UNDO);
        op(id, 1, -3, SEM_UNDO);
        printf("child: %d %d\n", semctl(id, 0, GETVAL), semctl(id, 1, GETVAL));
        sleep_ms(50);
        _exit(0);
    }
    sleep_ms(10);
    /* wait for zero: the child's exit takes its 2 back */
    long long t0 = now_ns(CLOCK_MONOTONIC);
    printf("wait zero: %s", res(op(id, 0, 0, 0)));
    printf(" after %s20 ms\n", (now_ns(CLOCK_MONOTONIC) - t0) / MS >= 20 ? ">=" : "<");
    printf("child exit %d\n", child_status(pid));
    printf("undone: %d %d, pid is child %d\n", semctl(id, 0, GETVAL), semctl(id, 1, GETVAL),
           semctl(id, 1, GETPID) == pid);
    /* SETVAL forgets the adjustments of that semaphore */
    pid = fork();
    if (pid == 0) {
        op(id, 0, 3, SEM_UNDO);
        op(id, 1, 2, SEM_UNDO);
        semctl(id, 0, SETVAL, (union semun){.val = 7});
        _exit(0);
    }
    child_status(pid);
    printf("after setval: %d %d\n", semctl(id, 0, GETVAL), semctl(id, 1, GETVAL));
    semctl(id, 0, IPC_RMID);
}

static void rmid(void)
{
    int id = new_set(1);
    pid_t pid = fork();
    if (pid == 0) {
        int r = op(id, 0, -1, 0);
        printf("child semop: %s\n", res(r));
        _exit(0);
    }
    sleep_ms(30);
    int r = semctl(id, 0, IPC_RMID);
    int status = child_status(pid);
    printf("rmid: %s\n", r < 0 ? err_name(errno) : "ok");
    printf("child exit %d\n", status);
}

static void on_usr1(int sig)
{
    (void)sig;
}

static void interrupted(void)
{
    int id = new_set(1);
    pid_t pid = fork();
    if (pid == 0) {
        struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
        sigaction(SIGUSR1, &sa, NULL);
        int r = op(id, 0, -1, 0);
        printf("child semop: %s\n", res(r));
        struct timespec ts = ts_of(500 * MS);
        struct sembuf sb = {0, -1, 0};
        r = semtimedop(id, &sb, 1, &ts);
        printf("child semtimedop: %s\n", r < 0 ? err_name(errno) : "ok");
        _exit(0);
    }
    sleep_ms(30);
    kill(pid, SIGUSR1);
    sleep_ms(30);
    kill(pid, SIGUSR1);
    printf("child exit %d\n", child_status(pid));
    semctl(id, 0, IPC_RMID);
}

static void ctl(void)
{
    int id = new_set(3);
    unsigned short set[3] = {1, 2, 3}, get[3] = {0};
    printf("setall: %s\n", semctl(id, 0, SETALL, (union semun){.array = set}) < 0 ? err_name(errno) : "ok");
    printf("getall: %s %u %u %u\n", semctl(id, 0, GETALL, (union semun){.array = get}) < 0 ? err_name(errno) : "ok",
           get[0], get[1], get[2]);
    set[1] = 40000;
    printf("setall 40000: %s\n", semctl(id, 0, SETALL, (union semun){.array = set}) < 0 ? err_name(errno) : "ok");
    printf("getall fault: %s\n", semctl(id, 0, GETALL, (union semun){.array = (void *)8}) < 0 ? err_name(errno) : "ok");
    printf("getpid is self: %d\n", semctl(id, 2, GETPID) == getpid());
    struct semid_ds ds;
    memset(&ds, 0xff, sizeof ds);
    printf("stat: %s", semctl(id, 0, IPC_STAT, (union semun){.buf = &ds}) < 0 ? err_name(errno) : "ok");
    printf(" nsems %lu mode %o uid %u gid %u cuid %u otime %d ctime set %d\n",
           (unsigned long)ds.sem_nsems, ds.sem_perm.mode & 0777, ds.sem_perm.uid,
           ds.sem_perm.gid, ds.sem_perm.cuid, ds.sem_otime != 0, ds.sem_ctime != 0);
    op(id, 0, 1, 0);
    semctl(id, 0, IPC_STAT, (union semun){.buf = &ds});
    printf("otime set after semop %d\n", ds.sem_otime != 0);
    ds.sem_perm.mode = 0640;
    printf("set: %s", semctl(id, 0, IPC_SET, (union semun){.buf = &ds}) < 0 ? err_name(errno) : "ok");
    memset(&ds, 0, sizeof ds);
    semctl(id, 0, IPC_STAT, (union semun){.buf = &ds});
    printf(" mode now %o\n", ds.sem_perm.mode & 0777);
    struct seminfo info;
    memset(&info, 0, sizeof info);
    int r = semctl(id, 0, IPC_INFO, (union semun){.info = &info});
    printf("info: %s semmni %d semmns %d semmsl %d semopm %d semvmx %d semaem %d semume %d semusz %d\n",
           r < 0 ? err_name(errno) : "ok", info.semmni, info.semmns, info.semmsl, info.semopm,
           info.semvmx, info.semaem, info.semume, info.semusz);
    /* raw: armhf's glibc converts the structure itself and would fault */
    printf("stat fault: %s\n",
           syscall(SYS_semctl, id, 0, IPC_STAT | IPC_64_FLAG, 8) < 0 ? err_name(errno) : "ok");
    semctl(id, 0, IPC_RMID);
    printf("stat removed: %s\n", semctl(id, 0, IPC_STAT, (union semun){.buf = &ds}) < 0 ? err_name(errno) : "ok");
}

static void killed(void)
{
    int id = new_set(1), q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    pid_t a = fork();
    if (a == 0) {
        op(id, 0, -1, SEM_UNDO);
        _exit(0);
    }
    pid_t b = fork();
    if (b == 0) {
        struct {
            long type;
            char text[4];
        } m;
        msgrcv(q, &m, sizeof m.text, 0, 0);
        _exit(0);
    }
    sleep_ms(20);
    printf("ncnt %d\n", semctl(id, 0, GETNCNT));
    kill(a, SIGKILL);
    kill(b, SIGKILL);
    int sa = child_status(a), sb = child_status(b);
    printf("exits %d %d\n", sa, sb);
    printf("ncnt %d\n", semctl(id, 0, GETNCNT));
    printf("post: %s, value %d\n", res(op(id, 0, 1, 0)), semctl(id, 0, GETVAL));
    struct {
        long type;
        char text[4];
    } m = {1, "abc"};
    msgsnd(q, &m, 3, 0);
    struct msqid_ds ds;
    msgctl(q, IPC_STAT, &ds);
    printf("queued %lu\n", (unsigned long)ds.msg_qnum);
    semctl(id, 0, IPC_RMID);
    msgctl(q, IPC_RMID, NULL);
}

static const char *semctl_res(int id, int cmd)
{
    struct semid_ds ds;
    memset(&ds, 0, sizeof ds);
    return semctl(id, 0, cmd, (union semun){.buf = &ds}) < 0 ? err_name(errno) : "ok";
}

static void perm(void)
{
    key_t key = (key_t)(0x51540000 | (getpid() & 0xffff));
    int private = semget(key, 1, IPC_CREAT | IPC_EXCL | 0600), readable = new_set(1);
    struct semid_ds ds;
    semctl(readable, 0, IPC_STAT, (union semun){.buf = &ds});
    ds.sem_perm.mode = 0644;
    semctl(readable, 0, IPC_SET, (union semun){.buf = &ds});
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(1000) < 0 || setuid(1000) < 0)
            _exit(3);
        printf("0600 semop: %s\n", res(op(private, 0, 1, 0)));
        printf("0600 getval: %s\n", semctl_res(private, GETVAL));
        printf("0600 stat: %s\n", semctl_res(private, IPC_STAT));
        printf("0600 semget 0600: %s\n", semget(key, 1, 0600) < 0 ? err_name(errno) : "ok");
        printf("0600 semget 0: %s\n", semget(key, 1, 0) == private ? "ok" : err_name(errno));
        printf("0644 semop: %s\n", res(op(readable, 0, 1, 0)));
        printf("0644 wait zero: %s\n", res(op(readable, 0, 0, 0)));
        printf("0644 getval: %s\n", semctl_res(readable, GETVAL));
        printf("0644 set: %s\n", semctl_res(readable, IPC_SET));
        printf("0644 rmid: %s\n", semctl_res(readable, IPC_RMID));
        int own = new_set(1);
        semctl(own, 0, IPC_STAT, (union semun){.buf = &ds});
        printf("own: uid %u gid %u, rmid %s\n", ds.sem_perm.uid, ds.sem_perm.gid,
               semctl_res(own, IPC_RMID));
        _exit(0);
    }
    printf("child exit %d\n", child_status(pid));
    semctl(private, 0, IPC_RMID);
    semctl(readable, 0, IPC_RMID);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "pingpong") == 0)
        pingpong();
    else if (strcmp(c, "errors") == 0)
        errors();
    else if (strcmp(c, "timeout") == 0)
        timeout();
    else if (strcmp(c, "undo") == 0)
        undo();
    else if (strcmp(c, "rmid") == 0)
        rmid();
    else if (strcmp(c, "signal") == 0)
        interrupted();
    else if (strcmp(c, "ctl") == 0)
        ctl();
    else if (strcmp(c, "kill") == 0)
        killed();
    else if (strcmp(c, "perm") == 0)
        perm();
    else
        return 2;
    return 0;
}
