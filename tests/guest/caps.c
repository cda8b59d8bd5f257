/* SPDX-License-Identifier: GPL-2.0-or-later */
/* caps.c - capabilities (issue 26 item 5): capget and capset, the sets
 * following set*uid and setfsuid, PR_SET_KEEPCAPS, securebits, ambient and
 * bounding sets across execve, no_new_privs, /proc/self/status's Cap lines
 * (tests/e2e/caps.cmake). Each scenario runs in a child of the root
 * process, so each starts from root's sets.
 *   caps            every scenario (execve re-runs this program as argv[0])
 *   caps root       root's sets as they start, unchanged
 *   caps show       the ids, AT_SECURE and the sets after an execve
 * The first step drops CAP_SYS_RESOURCE from every set: a container's root
 * often lacks it, and without it the output is the same there. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static const char *self;

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
}

static long capget_raw(uint32_t version, int pid, struct __user_cap_data_struct *d,
                       uint32_t *version_after)
{
    struct __user_cap_header_struct h = {version, pid};
    long r = syscall(SYS_capget, &h, d);
    if (version_after)
        *version_after = h.version;
    return r;
}

static long capset_raw(uint32_t version, int pid, uint64_t eff, uint64_t prm, uint64_t inh)
{
    struct __user_cap_header_struct h = {version, pid};
    struct __user_cap_data_struct d[2] = {
        {(uint32_t)eff, (uint32_t)prm, (uint32_t)inh},
        {(uint32_t)(eff >> 32), (uint32_t)(prm >> 32), (uint32_t)(inh >> 32)},
    };
    return syscall(SYS_capset, &h, d);
}

struct sets {
    uint64_t eff, prm, inh;
};

static struct sets get_sets(void)
{
    struct __user_cap_data_struct d[2];
    struct sets s = {0, 0, 0};
    if (capget_raw(_LINUX_CAPABILITY_VERSION_3, 0, d, NULL) == 0)
        s = (struct sets){d[0].effective | (uint64_t)d[1].effective << 32,
                          d[0].permitted | (uint64_t)d[1].permitted << 32,
                          d[0].inheritable | (uint64_t)d[1].inheritable << 32};
    return s;
}

/* The Cap lines and NoNewPrivs of /proc/self/status, on one line. */
static void status(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    printf(" ");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "Cap", 3) && strncmp(line, "NoNewPrivs", 10))
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = ' ';
        printf(" %s", line);
    }
    printf("\n");
    if (f)
        fclose(f);
}

static void ids(void)
{
    uid_t r, e, s;
    getresuid(&r, &e, &s);
    printf("  uid %u %u %u fsuid %d\n", r, e, s, setfsuid(-1));
}

/* Runs fn in a child and waits for it. */
static void scenario(const char *name, void (*fn)(void))
{
    printf("-- %s\n", name);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st))
        printf("  child status %#x\n", st);
}

static void exec_show(void)
{
    fflush(stdout);
    execl(self, self, "show", (char *)NULL);
    show("execl", -1);
}

#define BIT(cap) (UINT64_C(1) << (cap))

/* ---- scenarios ---- */

static void probe(void)
{
    struct __user_cap_data_struct d[2] = {{0}};
    uint32_t v;
    long r = capget_raw(0, 0, NULL, &v);
    printf("capget(version 0, NULL) = %ld, version now %#x\n", r, v);
    r = capget_raw(0x12345678, 0, d, &v);
    printf("capget(version 0x12345678, data) = %ld %s, version now %#x\n", r,
           r < 0 ? err_name(errno) : "", v);
    r = capget_raw(_LINUX_CAPABILITY_VERSION_1, 0, d, NULL);
    printf("capget(v1) = %ld: eff %#x prm %#x inh %#x, second word untouched %#x\n", r,
           d[0].effective, d[0].permitted, d[0].inheritable, d[1].effective);
    show("capget(v3, pid -1)", capget_raw(_LINUX_CAPABILITY_VERSION_3, -1, d, NULL));
    show("capget(v3, pid 99999)", capget_raw(_LINUX_CAPABILITY_VERSION_3, 99999, d, NULL));
    show("capget(v3, bad data)",
         capget_raw(_LINUX_CAPABILITY_VERSION_3, 0, (struct __user_cap_data_struct *)8, NULL));
    show("capget(bad header)", syscall(SYS_capget, (void *)8, d));
}

static void parent_sets(void)
{
    struct __user_cap_data_struct d[2];
    long r = capget_raw(_LINUX_CAPABILITY_VERSION_2, getppid(), d, NULL);
    printf("capget(v2, parent) = %ld: eff %08x%08x prm %08x%08x inh %08x%08x\n", r,
           d[1].effective, d[0].effective, d[1].permitted, d[0].permitted, d[1].inheritable,
           d[0].inheritable);
    show("capset(v3, parent pid)", capset_raw(_LINUX_CAPABILITY_VERSION_3, getppid(), 0, 0, 0));
}

static void capset_errors(void)
{
    struct sets s = get_sets();
    struct __user_cap_header_struct h = {0x1, 0};
    struct __user_cap_data_struct d[2] = {{0}};
    long r = syscall(SYS_capset, &h, d);
    printf("capset(version 1) = %ld %s, version now %#x\n", r, r < 0 ? err_name(errno) : "",
           h.version);
    show("capset(own pid)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, getpid(), s.eff, s.prm, s.inh));
    show("capset(bad data)", syscall(SYS_capset, &(struct __user_cap_header_struct){
                                                       _LINUX_CAPABILITY_VERSION_3, 0},
                                     (void *)8));
    show("capset(eff not in prm)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff, s.prm & ~BIT(CAP_NET_RAW), s.inh));
    show("capset(drop NET_RAW from prm and eff)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff & ~BIT(CAP_NET_RAW),
                    s.prm & ~BIT(CAP_NET_RAW), s.inh));
    show("capset(raise NET_RAW in prm again)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff & ~BIT(CAP_NET_RAW), s.prm, s.inh));
    /* With CAP_SETPCAP an inheritable one may come from outside the
     * permitted set, never from outside the bounding set. */
    show("capset(inh NET_RAW, not permitted)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff & ~BIT(CAP_NET_RAW),
                    s.prm & ~BIT(CAP_NET_RAW), BIT(CAP_NET_RAW)));
    show("prctl(PR_CAPBSET_DROP, CAP_KILL)", prctl(PR_CAPBSET_DROP, CAP_KILL, 0, 0, 0));
    show("capset(inh KILL, not in bounding)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff & ~BIT(CAP_NET_RAW),
                    s.prm & ~BIT(CAP_NET_RAW), BIT(CAP_KILL)));
    status();
    /* Version 1 carries the lower 32 capabilities: the upper ones go. */
    show("capset(v1, the lower words)",
         capset_raw(_LINUX_CAPABILITY_VERSION_1, 0, s.eff & ~BIT(CAP_NET_RAW),
                    s.prm & ~BIT(CAP_NET_RAW), 0));
    status();
}

static void setuid_drop(void)
{
    show("setuid(65534)", setuid(65534));
    ids();
    status();
    show("setuid(0)", setuid(0));
    show("prctl(PR_CAPBSET_DROP, CAP_KILL)", prctl(PR_CAPBSET_DROP, CAP_KILL, 0, 0, 0));
    show("capset(inh NET_RAW, not permitted)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, 0, 0, BIT(CAP_NET_RAW)));
    show("prctl(PR_CAP_AMBIENT, RAISE, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0));
}

static void seteuid_back(void)
{
    show("seteuid(65534)", seteuid(65534));
    ids();
    status();
    show("setgroups(0, NULL)", setgroups(0, NULL));
    show("seteuid(0)", seteuid(0));
    ids();
    status();
    show("setfsuid(65534)", setfsuid(65534));
    ids();
    status();
    show("setfsuid(0)", setfsuid(0));
    status();
}

static void keepcaps(void)
{
    show("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    show("prctl(PR_SET_KEEPCAPS, 2)", prctl(PR_SET_KEEPCAPS, 2, 0, 0, 0));
    show("prctl(PR_SET_KEEPCAPS, 1)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
    show("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    show("prctl(PR_GET_SECUREBITS)", prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
    show("setresuid(65534, 65534, 65534)", setresuid(65534, 65534, 65534));
    status();
    struct sets s = get_sets();
    show("capset(eff = prm)", capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.prm, s.prm, s.inh));
    status();
    /* CAP_SETUID is effective again: back to root, and the effective set
     * follows euid 0 again. */
    show("setresuid(0, 0, 0)", setresuid(0, 0, 0));
    ids();
    status();
}

static void ambient(void)
{
    show("prctl(PR_SET_KEEPCAPS, 1)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
    show("setresgid(65534, 65534, 65534)", setresgid(65534, 65534, 65534));
    show("setresuid(65534, 65534, 65534)", setresuid(65534, 65534, 65534));
    struct sets s = get_sets();
    uint64_t inh = BIT(CAP_NET_RAW) | BIT(CAP_NET_BIND_SERVICE);
    show("capset(eff = prm, inh NET_RAW NET_BIND_SERVICE)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.prm, s.prm, inh));
    show("prctl(PR_CAP_AMBIENT, RAISE, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0));
    show("prctl(PR_CAP_AMBIENT, RAISE, NET_BIND_SERVICE)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_BIND_SERVICE, 0, 0));
    show("prctl(PR_CAP_AMBIENT, RAISE, SYS_ADMIN)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0));
    show("prctl(PR_CAP_AMBIENT, RAISE, 41)", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, 41, 0, 0));
    show("prctl(PR_CAP_AMBIENT, 9, NET_RAW)", prctl(PR_CAP_AMBIENT, 9, CAP_NET_RAW, 0, 0));
    show("prctl(PR_CAP_AMBIENT, CLEAR_ALL, 1)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 1, 0, 0));
    show("prctl(PR_CAP_AMBIENT, LOWER, NET_BIND_SERVICE)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, CAP_NET_BIND_SERVICE, 0, 0));
    show("prctl(PR_CAP_AMBIENT, IS_SET, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_NET_RAW, 0, 0));
    show("prctl(PR_CAP_AMBIENT, IS_SET, NET_BIND_SERVICE)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_NET_BIND_SERVICE, 0, 0));
    status();
    exec_show();
}

static void ambient_cleared(void)
{
    /* The ambient set goes when an ambient capability leaves the
     * inheritable set, and with every uid leaving 0. */
    struct sets s = get_sets();
    show("capset(inh NET_RAW)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff, s.prm, BIT(CAP_NET_RAW)));
    show("prctl(PR_CAP_AMBIENT, RAISE, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0));
    show("capset(inh none)", capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff, s.prm, 0));
    show("prctl(PR_CAP_AMBIENT, IS_SET, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_NET_RAW, 0, 0));
    show("capset(inh NET_RAW)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff, s.prm, BIT(CAP_NET_RAW)));
    show("prctl(PR_CAP_AMBIENT, RAISE, NET_RAW)",
         prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0));
    show("prctl(PR_SET_KEEPCAPS, 1)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
    show("setuid(65534)", setuid(65534));
    status();
}

static void bounding(void)
{
    show("prctl(PR_CAPBSET_READ, NET_RAW)", prctl(PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0));
    show("prctl(PR_CAPBSET_DROP, NET_RAW)", prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0));
    show("prctl(PR_CAPBSET_READ, NET_RAW)", prctl(PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0));
    show("prctl(PR_CAPBSET_READ, 41)", prctl(PR_CAPBSET_READ, 41, 0, 0, 0));
    show("prctl(PR_CAPBSET_DROP, 41)", prctl(PR_CAPBSET_DROP, 41, 0, 0, 0));
    status();
    exec_show();
}

/* Root's real uid with another euid: execve gives the permitted set but no
 * effective one, and counts as set-id (AT_SECURE). */
static void exec_euid(void)
{
    show("seteuid(65534)", seteuid(65534));
    exec_show();
}

static void securebits(void)
{
    show("prctl(PR_SET_SECUREBITS, 0x10000)", prctl(PR_SET_SECUREBITS, 0x10000, 0, 0, 0));
    show("prctl(PR_SET_SECUREBITS, KEEP_CAPS|KEEP_CAPS_LOCKED)",
         prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_KEEP_CAPS_LOCKED, 0, 0, 0));
    show("prctl(PR_GET_SECUREBITS)", prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
    show("prctl(PR_GET_KEEPCAPS)", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
    show("prctl(PR_SET_KEEPCAPS, 0)", prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0));
    show("prctl(PR_SET_SECUREBITS, 0)", prctl(PR_SET_SECUREBITS, 0, 0, 0, 0));
    show("prctl(PR_SET_SECUREBITS, NO_SETUID_FIXUP)",
         prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_KEEP_CAPS_LOCKED |
                                      SECBIT_NO_SETUID_FIXUP, 0, 0, 0));
    show("seteuid(65534)", seteuid(65534));
    status();
    show("prctl(PR_SET_SECUREBITS, 0x15) without CAP_SETPCAP",
         prctl(PR_SET_SECUREBITS, 0x15, 0, 0, 0));
}

static void nnp(void)
{
    show("prctl(PR_GET_NO_NEW_PRIVS)", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    show("prctl(PR_SET_NO_NEW_PRIVS, 2)", prctl(PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0));
    show("prctl(PR_SET_NO_NEW_PRIVS, 1)", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
    show("prctl(PR_GET_NO_NEW_PRIVS, 1)", prctl(PR_GET_NO_NEW_PRIVS, 1, 0, 0, 0));
    show("prctl(PR_GET_NO_NEW_PRIVS)", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    /* No privilege to gain in an execve as root: nothing changes. */
    exec_show();
}

/* no_new_privs with euid other than the real uid: the execve gives the
 * real one (cap_bprm_creds_from_file()'s downgrade). */
static void nnp_setid(void)
{
    show("setresuid(65534, 0, 0)", setresuid(65534, 0, 0));
    show("prctl(PR_SET_NO_NEW_PRIVS, 1)", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
    exec_show();
}

/* The calls that ask for a capability, by a process whose euid stays 0
 * but whose effective set lacks it (CAP_SYS_RESOURCE went at the start):
 * each is EPERM, then allowed with the capability back. */
static void checks(void)
{
    int p[2], s = socket(AF_UNIX, SOCK_DGRAM, 0), size = 65536;
    struct timespec now;
    struct rlimit rl = {64, 64}, zero = {0, 0};
    char path[] = "/tmp/caps-XXXXXX";
    int fd = mkstemp(path);
    pipe(p);
    show("F_SETPIPE_SZ 1 MiB", fcntl(p[0], F_SETPIPE_SZ, 1 << 20));
    show("F_SETPIPE_SZ 2 MiB without CAP_SYS_RESOURCE", fcntl(p[0], F_SETPIPE_SZ, 2 << 20));
    show("setrlimit(NOFILE, 64 64)", setrlimit(RLIMIT_NOFILE, &rl));
    rl.rlim_max = 128;
    show("setrlimit(NOFILE, 64 128) without CAP_SYS_RESOURCE", setrlimit(RLIMIT_NOFILE, &rl));
    show("setrlimit(MEMLOCK, 0 0)", setrlimit(RLIMIT_MEMLOCK, &zero));
    struct sets all = get_sets();
    uint64_t off = BIT(CAP_NET_ADMIN) | BIT(CAP_SYS_ADMIN) | BIT(CAP_SYS_TIME) | BIT(CAP_CHOWN) |
                   BIT(CAP_IPC_LOCK) | BIT(CAP_SYS_TTY_CONFIG);
    show("capset(eff without NET_ADMIN SYS_ADMIN SYS_TIME CHOWN IPC_LOCK SYS_TTY_CONFIG)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, all.eff & ~off, all.prm, all.inh));
    ids();
    show("setsockopt(SO_RCVBUFFORCE)",
         setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size));
    show("sethostname", sethostname("caps", 4));
    show("setdomainname", setdomainname("caps", 4));
    clock_gettime(CLOCK_REALTIME, &now);
    show("clock_settime(CLOCK_REALTIME)", clock_settime(CLOCK_REALTIME, &now));
    show("vhangup", vhangup());
    show("fchown(own file, 65534, -1)", fchown(fd, 65534, -1));
    show("fchown(own file, -1, 0)", fchown(fd, -1, 0));
    show("mlock with RLIMIT_MEMLOCK 0", mlock(path, 1));
    int shm = shmget(IPC_PRIVATE, 4096, 0600);
    show("shmctl(SHM_LOCK) with RLIMIT_MEMLOCK 0", shmctl(shm, SHM_LOCK, NULL));
    show("capset(eff = prm)", capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, all.prm, all.prm, all.inh));
    show("setsockopt(SO_RCVBUFFORCE)",
         setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size));
    show("fchown(own file, 65534, -1)", fchown(fd, 65534, -1));
    show("mlock with RLIMIT_MEMLOCK 0", mlock(path, 1));
    show("shmctl(SHM_LOCK) with RLIMIT_MEMLOCK 0", shmctl(shm, SHM_LOCK, NULL));
    show("setresuid(65534, 65534, 65534)", setresuid(65534, 65534, 65534));
    show("fchown(65534's file, -1, 0)", fchown(fd, -1, 0));
    show("shmctl(SHM_UNLOCK) by another user", shmctl(shm, SHM_UNLOCK, NULL));
    shmctl(shm, IPC_RMID, NULL);
    unlink(path);
}

/* Signals to another user's process (check_kill_permission()): the
 * target runs as 65534 and waits to be killed. */
static void kill_perm(void)
{
    int ready[2];
    pipe(ready);
    pid_t target = fork();
    if (target == 0) {
        setresuid(65534, 65534, 65534);
        write(ready[1], "x", 1);
        for (;;)
            pause();
    }
    char c;
    read(ready[0], &c, 1);
    pid_t pid = fork();
    if (pid == 0) {
        struct sets all = get_sets();
        show("capset(eff without KILL)",
             capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, all.eff & ~BIT(CAP_KILL), all.prm, all.inh));
        show("root without CAP_KILL: kill(65534's, 0)", kill(target, 0));
        show("setresuid(1000, 65534, 1000)", setresuid(1000, 65534, 1000));
        show("euid 65534: kill(65534's, 0)", kill(target, 0));
        show("setresuid(1000, 1000, 1000)", setresuid(1000, 1000, 1000));
        show("uid 1000: kill(65534's, 0)", kill(target, 0));
        show("uid 1000: kill(65534's, SIGCONT), same session", kill(target, SIGCONT));
        show("uid 1000: tgkill(65534's, SIGTERM)",
             syscall(SYS_tgkill, target, target, SIGTERM));
        show("uid 1000: kill(-1, 0)", kill(-1, 0));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    show("root: kill(65534's, SIGKILL)", kill(target, SIGKILL));
    int st;
    waitpid(target, &st, 0);
    printf("  target killed by signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Sends "x" on fd, with SCM_CREDENTIALS {pid, uid, gid} when pid is not 0. */
static long send_creds(int fd, pid_t pid, uid_t uid, gid_t gid)
{
    union {
        char buf[CMSG_SPACE(sizeof(struct ucred))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {"x", 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (pid) {
        m.msg_control = u.buf;
        m.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_CREDENTIALS;
        c->cmsg_len = CMSG_LEN(sizeof(struct ucred));
        memcpy(CMSG_DATA(c), &(struct ucred){pid, uid, gid}, sizeof(struct ucred));
    }
    return sendmsg(fd, &m, 0);
}

static void recv_creds(int fd)
{
    union {
        char buf[CMSG_SPACE(sizeof(struct ucred))];
        struct cmsghdr align;
    } u;
    char c;
    struct iovec iov = {&c, 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
                       .msg_controllen = sizeof u.buf};
    if (recvmsg(fd, &m, 0) < 0) {
        show("recvmsg", -1);
        return;
    }
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    struct ucred cr = {0, 0, 0};
    if (h && h->cmsg_type == SCM_CREDENTIALS)
        memcpy(&cr, CMSG_DATA(h), sizeof cr);
    printf("  received SCM_CREDENTIALS pid %s uid %u gid %u\n",
           cr.pid == getpid() ? "self" : "other", cr.uid, cr.gid);
}

/* Socket credentials: SO_PEERCRED has the effective ids, SCM_CREDENTIALS
 * by default the real ones; what a sender claims must be its own. */
static void sock_creds(void)
{
    show("setresgid(100, 200, 100)", setresgid(100, 200, 100));
    show("setresuid(1000, 2000, 1000)", setresuid(1000, 2000, 1000));
    int sv[2], on = 1;
    show("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
    struct ucred cr;
    socklen_t len = sizeof cr;
    getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cr, &len);
    printf("  SO_PEERCRED pid %s uid %u gid %u\n", cr.pid == getpid() ? "self" : "other", cr.uid,
           cr.gid);
    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
    show("send", send_creds(sv[0], 0, 0, 0));
    recv_creds(sv[1]);
    show("send claiming uid 0", send_creds(sv[0], getpid(), 0, 100));
    show("send claiming gid 0", send_creds(sv[0], getpid(), 1000, 0));
    show("send claiming pid 1", send_creds(sv[0], 1, 1000, 100));
    show("send claiming euid 2000, egid 200", send_creds(sv[0], getpid(), 2000, 200));
    recv_creds(sv[1]);
}

static char secret[8] = "secret";

/* A process of uid and gid 65534 that waits to be killed; dumpable says
 * whether it makes itself dumpable again after the set*id calls. */
static pid_t nobody_target(int dumpable)
{
    int ready[2];
    pipe(ready);
    pid_t target = fork();
    if (target == 0) {
        setresgid(65534, 65534, 65534);
        setresuid(65534, 65534, 65534);
        if (dumpable)
            prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
        write(ready[1], "x", 1);
        for (;;)
            pause();
    }
    char c;
    read(ready[0], &c, 1);
    close(ready[0]);
    close(ready[1]);
    return target;
}

/* ptrace access to another user's process (__ptrace_may_access()): the
 * caller needs the target's ids, a dumpable target (set*id makes it not)
 * and its permitted capabilities, or CAP_SYS_PTRACE. */
static void ptrace_perm(void)
{
    pid_t target = nobody_target(0), dumpable = nobody_target(1);
    char got[8] = "";
    pid_t pid = fork();
    if (pid == 0) {
        struct iovec local = {got, sizeof got}, remote = {secret, sizeof secret};
        struct sets all = get_sets();
        show("capset(eff without SYS_PTRACE)",
             capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, all.eff & ~BIT(CAP_SYS_PTRACE), all.prm,
                        all.inh));
        show("root without CAP_SYS_PTRACE: process_vm_readv(65534's)",
             process_vm_readv(target, &local, 1, &remote, 1, 0));
        show("root without CAP_SYS_PTRACE: PTRACE_ATTACH(65534's)",
             ptrace(PTRACE_ATTACH, target, NULL, NULL));
        show("setresgid(65534, 65534, 65534)", setresgid(65534, 65534, 65534));
        show("setresuid(1000, 65534, 65534)", setresuid(1000, 65534, 65534));
        show("uid 1000: process_vm_readv(65534's)",
             process_vm_readv(target, &local, 1, &remote, 1, 0));
        show("setresuid(65534, 65534, 65534)", setresuid(65534, 65534, 65534));
        show("uid 65534: process_vm_readv(65534's, not dumpable)",
             process_vm_readv(target, &local, 1, &remote, 1, 0));
        show("uid 65534: PTRACE_SEIZE(65534's, not dumpable)",
             ptrace(PTRACE_SEIZE, target, NULL, NULL));
        show("uid 65534: process_vm_readv(65534's, dumpable)",
             process_vm_readv(dumpable, &local, 1, &remote, 1, 0));
        printf("  read \"%s\"\n", got);
        show("prctl(PR_GET_DUMPABLE)", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
        show("prctl(PR_SET_DUMPABLE, 2)", prctl(PR_SET_DUMPABLE, 2, 0, 0, 0));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    kill(target, SIGKILL);
    kill(dumpable, SIGKILL);
    waitpid(target, NULL, 0);
    waitpid(dumpable, NULL, 0);
    /* PTRACE_TRACEME: the parent must hold the child's permitted set. */
    pid = fork();
    if (pid == 0) {
        int go[2];
        pipe(go);
        pid_t child = fork();
        if (child == 0) {
            char c;
            read(go[0], &c, 1);
            show("PTRACE_TRACEME, the parent without capabilities",
                 ptrace(PTRACE_TRACEME, 0, NULL, NULL));
            fflush(stdout);
            _exit(0);
        }
        show("parent: setresuid(65534, 65534, 65534)", setresuid(65534, 65534, 65534));
        fflush(stdout);
        write(go[1], "x", 1);
        waitpid(child, NULL, 0);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
}

static void normalise(void)
{
    /* Drop CAP_SYS_RESOURCE everywhere (see the top). */
    show("prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE)",
         prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0));
    struct sets s = get_sets();
    uint64_t keep = ~BIT(CAP_SYS_RESOURCE);
    show("capset(without CAP_SYS_RESOURCE)",
         capset_raw(_LINUX_CAPABILITY_VERSION_3, 0, s.eff & keep, s.prm & keep, s.inh & keep));
}

int main(int argc, char **argv)
{
    self = argv[0];
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "root") == 0) {
        ids();
        status();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "show") == 0) {
        printf("after execve: AT_SECURE %lu\n", getauxval(AT_SECURE));
        ids();
        status();
        return 0;
    }
    normalise();
    status();
    scenario("probe", probe);
    scenario("parent", parent_sets);
    scenario("capset errors", capset_errors);
    scenario("setuid drops", setuid_drop);
    scenario("seteuid and setfsuid", seteuid_back);
    scenario("keepcaps", keepcaps);
    scenario("ambient across execve", ambient);
    scenario("ambient cleared", ambient_cleared);
    scenario("bounding across execve", bounding);
    scenario("execve with euid 65534", exec_euid);
    scenario("securebits", securebits);
    scenario("no_new_privs", nnp);
    scenario("no_new_privs set-id", nnp_setid);
    scenario("capability checks", checks);
    scenario("kill permission", kill_perm);
    scenario("socket credentials", sock_creds);
    scenario("ptrace access", ptrace_perm);
    return 0;
}
