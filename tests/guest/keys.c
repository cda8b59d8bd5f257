/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keys.c - the key retention service (emu/ipc/keys.c): add_key,
 * request_key and keyctl through raw syscalls, one case per run (argv[1]):
 *   basic  a fresh session keyring; user and logon keys: add, read (a
 *          short buffer gets nothing), update, describe, search,
 *          request_key; a keyring: link, unlink, nested search, clear,
 *          read; the special ids; the errors of each call; revoke
 *          (EKEYREVOKED), invalidate, setperm (EACCES; possession lends
 *          READ), a timeout past a sleep (EKEYEXPIRED); a forked child
 *          shares the session keyring but not the process keyring;
 *          /proc/keys lines (serial and usage masked)
 *   exec   exec drops the thread and process keyrings and keeps the
 *          session keyring; a thread has its own thread keyring
 *   user   as uid 1000: EDQUOT past maxbytes and past maxkeys; root's key
 *          not possessed any more is EACCES; chown needs root
 * Serials differ from run to run on Linux (random), so only relations
 * between them are printed. */
#define _GNU_SOURCE
#include "guest.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define SES (-3)

static long add(const char *type, const char *desc, const void *p, size_t n, long ring)
{
    return syscall(SYS_add_key, type, desc, p, n, ring);
}

static long kc(long op, long a, long b, long c, long d)
{
    return syscall(SYS_keyctl, op, a, b, c, d);
}

/* "ok" / the errno name of a call's result */
static const char *res(long r)
{
    static char buf[32];
    if (r >= 0) {
        snprintf(buf, sizeof buf, "%ld", r);
        return buf;
    }
    return err_name(errno);
}

static const char *ok(long r)
{
    return r >= 0 ? "ok" : err_name(errno);
}

static void describe(const char *what, long id)
{
    char b[256];
    long r = kc(6, id, (long)b, sizeof b, 0);
    printf("describe %s: %s\n", what, r < 0 ? err_name(errno) : b);
}

static void readkey(const char *what, long id)
{
    char b[64] = "";
    long r = kc(11, id, (long)b, sizeof b - 1, 0);
    if (r < 0)
        printf("read %s: %s\n", what, err_name(errno));
    else
        printf("read %s: %ld \"%.*s\"\n", what, r, (int)(r < 63 ? r : 63), b);
}

/* The /proc/keys line of key id, without its serial and usage. */
static void proc_line(const char *what, long id)
{
    FILE *f = fopen("/proc/keys", "r");
    char line[512], want[16];
    snprintf(want, sizeof want, "%08lx ", id);
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, want, 9) != 0)
            continue;
        char flags[16], tmo[16], rest[400];
        int usage;
        if (sscanf(line + 9, "%15s %d %15s %399[^\n]", flags, &usage, tmo, rest) == 4)
            printf("/proc/keys %s: %s %s %s\n", what, flags, tmo, rest);
        fclose(f);
        return;
    }
    printf("/proc/keys %s: absent\n", what);
    if (f)
        fclose(f);
}

static int basic(void)
{
    long ses = kc(1, 0, 0, 0, 0);
    printf("join anonymous session: %s\n", ok(ses));
    printf("session id is it: %s\n", kc(0, SES, 0, 0, 0) == ses ? "yes" : "no");
    describe("session", SES);
    printf("thread keyring, no create: %s\n", ok(kc(0, -1, 0, 0, 0)));
    printf("process keyring, no create: %s\n", ok(kc(0, -2, 0, 0, 0)));
    printf("thread keyring, create: %s\n", ok(kc(0, -1, 1, 0, 0)));
    describe("thread", -1);
    printf("process keyring, create: %s\n", ok(kc(0, -2, 1, 0, 0)));
    describe("process", -2);
    describe("user", -4);
    describe("user session", -5);
    printf("group keyring: %s\n", ok(kc(0, -6, 1, 0, 0)));
    printf("reqkey auth key: %s\n", ok(kc(0, -7, 1, 0, 0)));
    printf("id -9: %s\n", ok(kc(0, -9, 1, 0, 0)));

    long k1 = add("user", "k1", "hello", 5, SES);
    printf("add user k1: %s\n", ok(k1));
    describe("k1", k1);
    readkey("k1", k1);
    char small[3] = "xx";
    long r = kc(11, k1, (long)small, 2, 0);
    printf("read k1 into 2 bytes: %ld \"%s\"\n", r, small);
    printf("read k1 size only: %s\n", res(kc(11, k1, 0, 0, 0)));
    printf("add k1 again updates it: %s\n", add("user", "k1", "world!", 6, SES) == k1 ? "yes" : "no");
    readkey("k1", k1);
    printf("update k1: %s\n", ok(kc(2, k1, (long)"abc", 3, 0)));
    readkey("k1", k1);
    printf("search k1: %s\n", kc(10, SES, (long)"user", (long)"k1", 0) == k1 ? "k1" : "other");
    printf("search nope: %s\n", ok(kc(10, SES, (long)"user", (long)"nope", 0)));
    printf("request_key k1: %s\n",
           syscall(SYS_request_key, "user", "k1", NULL, 0) == k1 ? "k1" : "other");
    printf("request_key nope: %s\n", ok(syscall(SYS_request_key, "user", "nope", NULL, 0)));
    printf("request_key nosuch type: %s\n", ok(syscall(SYS_request_key, "nosuch", "k1", NULL, 0)));
    printf("search nosuch type: %s\n", ok(kc(10, SES, (long)"nosuch", (long)"k1", 0)));

    long kr = add("keyring", "ring1", NULL, 0, SES);
    printf("add keyring ring1: %s\n", ok(kr));
    describe("ring1", kr);
    printf("link k1 into ring1: %s\n", ok(kc(8, k1, kr, 0, 0)));
    int32_t ids[8] = {0};
    r = kc(11, kr, (long)ids, sizeof ids, 0);
    printf("read ring1: %ld, holds k1: %s\n", r, ids[0] == k1 ? "yes" : "no");
    printf("unlink k1 from session: %s\n", ok(kc(9, k1, SES, 0, 0)));
    printf("unlink k1 from session again: %s\n", ok(kc(9, k1, SES, 0, 0)));
    printf("search k1 through ring1: %s\n",
           kc(10, SES, (long)"user", (long)"k1", 0) == k1 ? "k1" : "other");
    printf("link session into ring1: %s\n", ok(kc(8, SES, kr, 0, 0)));
    printf("link ring1 into itself: %s\n", ok(kc(8, kr, kr, 0, 0)));
    printf("clear ring1: %s\n", ok(kc(7, kr, 0, 0, 0)));
    printf("read ring1: %s\n", res(kc(11, kr, (long)ids, sizeof ids, 0)));
    printf("search k1: %s\n", ok(kc(10, SES, (long)"user", (long)"k1", 0)));
    printf("clear a user key: %s\n", ok(kc(7, add("user", "c", "c", 1, SES), 0, 0, 0)));

    long lk = add("logon", "svc:pw", "secret", 6, SES);
    printf("add logon svc:pw: %s\n", ok(lk));
    describe("svc:pw", lk);
    readkey("svc:pw", lk);
    printf("add logon without a colon: %s\n", ok(add("logon", "nocolon", "x", 1, SES)));
    printf("add logon starting with a colon: %s\n", ok(add("logon", ":x", "x", 1, SES)));

    printf("add type nosuch: %s\n", ok(add("nosuch", "x", "a", 1, SES)));
    printf("add type .user: %s\n", ok(add(".user", "x", "a", 1, SES)));
    printf("add type \"\": %s\n", ok(add("", "x", "a", 1, SES)));
    printf("add user, no description: %s\n", ok(add("user", NULL, "a", 1, SES)));
    printf("add user, empty description: %s\n", ok(add("user", "", "a", 1, SES)));
    printf("add user, no payload: %s\n", ok(add("user", "x", NULL, 0, SES)));
    printf("add user, 32768 bytes: %s\n", ok(add("user", "x", calloc(1, 32768), 32768, SES)));
    printf("add keyring .x: %s\n", ok(add("keyring", ".x", NULL, 0, SES)));
    printf("add keyring with payload: %s\n", ok(add("keyring", "r2", "a", 1, SES)));
    printf("add into id 0: %s\n", ok(add("user", "x", "a", 1, 0)));
    printf("add into a user key: %s\n", ok(add("user", "x", "a", 1, lk)));
    printf("add, bad payload pointer: %s\n", ok(add("user", "x", (void *)8, 1, SES)));
    printf("read 0x7ffffff0: %s\n", ok(kc(11, 0x7ffffff0, 0, 0, 0)));
    printf("update a keyring: %s\n", ok(kc(2, kr, (long)"a", 1, 0)));
    printf("keyctl 99: %s\n", ok(kc(99, 0, 0, 0, 0)));
    printf("get_security: %s\n", res(kc(17, lk, 0, 0, 0)));
    printf("set_reqkey_keyring 6: %s\n", ok(kc(14, 6, 0, 0, 0)));
    printf("set_reqkey_keyring 3 (old): %s\n", res(kc(14, 3, 0, 0, 0)));
    printf("set_reqkey_keyring -1 (current): %s\n", res(kc(14, -1, 0, 0, 0)));
    printf("setperm, bad bits: %s\n", ok(kc(5, lk, 0x40000000, 0, 0)));

    long k2 = add("user", "k2", "shared", 6, SES);
    printf("add user k2: %s\n", ok(k2));
    printf("revoke svc:pw: %s\n", ok(kc(3, lk, 0, 0, 0)));
    readkey("svc:pw revoked", lk);
    describe("svc:pw revoked", lk);
    printf("search svc:pw revoked: %s\n", ok(kc(10, SES, (long)"logon", (long)"svc:pw", 0)));
    printf("revoke svc:pw again: %s\n", ok(kc(3, lk, 0, 0, 0)));

    long inv = add("user", "inv", "x", 1, SES);
    printf("invalidate: %s\n", ok(kc(21, inv, 0, 0, 0)));
    describe("invalidated", inv);

    long p1 = add("user", "p1", "perm", 4, SES);
    printf("setperm p1 possessor view+search: %s\n", ok(kc(5, p1, 0x09000000, 0, 0)));
    readkey("p1 (possessed: READ lent)", p1);
    printf("update p1: %s\n", ok(kc(2, p1, (long)"x", 1, 0)));
    printf("setperm p1: %s\n", ok(kc(5, p1, 0x3f010000, 0, 0)));
    long p2 = add("user", "p2", "perm", 4, SES);
    printf("setperm p2 0: %s\n", ok(kc(5, p2, 0, 0, 0)));
    readkey("p2", p2);
    describe("p2", p2);

    long t1 = add("user", "t1", "soon", 4, SES);
    printf("timeout t1 100s: %s\n", ok(kc(15, t1, 100, 0, 0)));
    proc_line("t1", t1);
    printf("timeout t1 2s: %s\n", ok(kc(15, t1, 2, 0, 0)));
    readkey("t1", t1);
    sleep(3);
    readkey("t1 after 3s", t1);
    printf("search t1: %s\n", ok(kc(10, SES, (long)"user", (long)"t1", 0)));
    proc_line("t1", t1);
    proc_line("k2", k2);
    proc_line("ring1", kr);
    proc_line("svc:pw", lk);
    proc_line("session", ses);
    proc_line("invalidated", inv);

    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child: session shared: %s\n", kc(0, SES, 0, 0, 0) == ses ? "yes" : "no");
        printf("child: process keyring: %s\n", ok(kc(0, -2, 0, 0, 0)));
        printf("child: thread keyring: %s\n", ok(kc(0, -1, 0, 0, 0)));
        readkey("child: k2", k2);
        printf("child: join anonymous: %s\n", ok(kc(1, 0, 0, 0, 0)));
        printf("child: session now another: %s\n", kc(0, SES, 0, 0, 0) != ses ? "yes" : "no");
        readkey("child: k2", k2);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("parent: session still: %s\n", kc(0, SES, 0, 0, 0) == ses ? "yes" : "no");
    long named = kc(1, (long)"named-ses", 0, 0, 0);
    printf("join named: %s\n", ok(named));
    describe("named", SES);
    long again = kc(1, (long)"named-ses", 0, 0, 0);
    printf("join named again: %s\n", again == 0       ? "0"
                                          : again == named ? "its serial"
                                          : again > 0      ? "a new keyring (no user SEARCH on it)"
                                                           : res(again));
    return 0;
}

static int user(void)
{
    kc(1, 0, 0, 0, 0);
    long rk = add("user", "rootkey", "r", 1, SES);
    printf("root adds rootkey: %s\n", ok(rk));
    /* held by root's user keyring too, so that it outlives the session */
    printf("root links it into its user keyring: %s\n", ok(kc(8, rk, -4, 0, 0)));
    if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) {
        printf("setresuid: %s\n", err_name(errno));
        return 1;
    }
    readkey("rootkey (session still root's, possessed)", rk);
    printf("join anonymous as 1000: %s\n", ok(kc(1, 0, 0, 0, 0)));
    describe("session", SES);
    readkey("rootkey", rk);
    describe("rootkey", rk);
    char *big = calloc(1, 15000);
    long q1 = add("user", "q1", big, 15000, SES);
    printf("add 15000 bytes: %s\n", ok(q1));
    printf("add 15000 bytes more: %s\n", ok(add("user", "q2", big, 15000, SES)));
    printf("update q1 to 4097 bytes: %s\n", ok(kc(2, q1, (long)big, 4097, 0)));
    printf("update q1 to 4096 bytes: %s\n", ok(kc(2, q1, (long)big, 4096, 0)));
    printf("chown q1 to root: %s\n", ok(kc(4, q1, 0, -1, 0)));
    printf("chown q1 to its own group: %s\n", ok(kc(4, q1, -1, 1000, 0)));
    int n = 0;
    char name[16];
    for (;;) {
        snprintf(name, sizeof name, "n%d", n);
        if (add("user", name, "a", 1, SES) < 0)
            break;
        n++;
    }
    printf("added %d one-byte keys, then %s\n", n, err_name(errno));
    return 0;
}

static void *thread_main(void *arg)
{
    long main_tid = *(long *)arg;
    printf("thread: has a thread keyring: %s\n", ok(kc(0, -1, 0, 0, 0)));
    long tk = kc(0, -1, 1, 0, 0);
    printf("thread: not main's: %s\n", tk > 0 && tk != main_tid ? "yes" : "no");
    printf("thread: process keyring shared: %s\n",
           kc(0, -2, 0, 0, 0) == *((long *)arg + 1) ? "yes" : "no");
    return NULL;
}

/* exec: the thread and process keyrings go, the session keyring stays
 * (prepare_exec_creds()); threads have their own thread keyrings. */
static int exec_case(char **argv)
{
    long ses = kc(1, 0, 0, 0, 0);
    long ids[2] = {kc(0, -1, 1, 0, 0), kc(0, -2, 1, 0, 0)};
    printf("thread and process keyrings: %s %s\n", ok(ids[0]), ok(ids[1]));
    pthread_t th;
    pthread_create(&th, NULL, thread_main, ids);
    pthread_join(th, NULL);
    char arg[32];
    snprintf(arg, sizeof arg, "%ld", ses);
    execl("/proc/self/exe", argv[0], "exec2", arg, (char *)NULL);
    printf("exec: %s\n", err_name(errno));
    return 1;
}

static int exec2(const char *ses)
{
    printf("after exec: session kept: %s\n", kc(0, SES, 0, 0, 0) == atol(ses) ? "yes" : "no");
    printf("after exec: thread keyring: %s\n", ok(kc(0, -1, 0, 0, 0)));
    printf("after exec: process keyring: %s\n", ok(kc(0, -2, 0, 0, 0)));
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && strcmp(argv[1], "basic") == 0)
        return basic();
    if (argc > 1 && strcmp(argv[1], "user") == 0)
        return user();
    if (argc > 1 && strcmp(argv[1], "exec") == 0)
        return exec_case(argv);
    if (argc > 2 && strcmp(argv[1], "exec2") == 0)
        return exec2(argv[2]);
    fprintf(stderr, "usage: keys basic|user|exec\n");
    return 2;
}
