/* SPDX-License-Identifier: GPL-2.0-or-later */
/* armcompat.c - the old calls of the 32-bit ABI that arm64 Linux's compat
 * table keeps (emu/arch/arm/compat_old.c, the old signal calls in
 * emu/kernel/signal.c, _newselect in emu/fs/sys_poll.c, ustat in
 * emu/fs/sys_statfs.c). armhf only: the numbers are arm's; on aarch64
 * the program says so and stops. One line per call. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#ifdef __arm__
enum {
    NR_creat = 8, NR_nice = 34, NR_ustat = 62, NR_sigaction = 67, NR_sigsuspend = 72,
    NR_sigpending = 73, NR_stat = 106, NR_lstat = 107, NR_fstat = 108, NR_sigprocmask = 126,
    NR_sysfs = 135, NR_getdents = 141, NR_newselect = 142, NR_rt_sigtimedwait = 177,
    NR_utimes = 269, NR_pciconfig_read = 272, NR_pciconfig_write = 273, NR_futimesat = 326,
    NR_rt_sigtimedwait_time64 = 421,
};

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

struct compat_stat {
    uint16_t dev, pad1;
    uint32_t ino;
    uint16_t mode, nlink, uid, gid, rdev, pad2;
    int32_t size, blksize, blocks, atime;
    uint32_t atime_nsec;
    int32_t mtime;
    uint32_t mtime_nsec;
    int32_t ctime;
    uint32_t ctime_nsec, unused[2];
};

struct old_sigaction {
    uint32_t handler, mask, flags, restorer;
};

static volatile int handled;
static void on_signal(int sig)
{
    handled = sig;
}

/* The compat stat of path against stat64's: the fields that must agree. */
static void compare(const char *what, long r, const struct compat_stat *c, const char *path,
                    bool follow)
{
    if (r < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    struct stat st;
    if (follow ? stat(path, &st) : lstat(path, &st))
        return;
    bool same = c->ino == st.st_ino && c->mode == st.st_mode && c->nlink == st.st_nlink &&
                c->uid == st.st_uid && c->gid == st.st_gid && c->size == st.st_size &&
                c->dev == (major(st.st_dev) << 8 | minor(st.st_dev)) &&
                c->rdev == (major(st.st_rdev) << 8 | minor(st.st_rdev)) &&
                c->mtime == st.st_mtim.tv_sec && (long)c->mtime_nsec == st.st_mtim.tv_nsec &&
                c->blocks == st.st_blocks && c->blksize == st.st_blksize;
    printf("%s: mode %o size %d rdev %#x, as stat64: %s\n", what, c->mode, c->size, c->rdev,
           same ? "yes" : "no");
}

static void list_dir(const char *path, unsigned count)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    char buf[4096];
    printf("getdents %s by %u bytes:", path, count);
    for (;;) {
        long n = syscall(NR_getdents, fd, buf, count);
        if (n <= 0) {
            printf(n < 0 ? " %s\n" : " (end)\n", n < 0 ? err_name(errno) : "");
            break;
        }
        printf(" |");
        for (long o = 0; o < n;) {
            uint16_t reclen;
            memcpy(&reclen, buf + o + 8, 2);
            printf(" %s/%d", buf + o + 10, buf[o + reclen - 1]);
            o += reclen;
        }
    }
    close(fd);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    /* creat, fstat, stat, lstat */
    long fd = syscall(NR_creat, "/tmp/ac-file", 0640);
    show("creat", fd);
    if (write((int)fd, "hello", 5) != 5)
        return 1;
    struct compat_stat c;
    compare("fstat", syscall(NR_fstat, fd, &c), &c, "/tmp/ac-file", true);
    compare("stat /dev/null", syscall(NR_stat, "/dev/null", &c), &c, "/dev/null", true);
    symlink("/tmp/ac-file", "/tmp/ac-link");
    compare("lstat link", syscall(NR_lstat, "/tmp/ac-link", &c), &c, "/tmp/ac-link", false);
    compare("stat link", syscall(NR_stat, "/tmp/ac-link", &c), &c, "/tmp/ac-link", true);
    show("stat missing", syscall(NR_stat, "/tmp/no-such-file", &c));
    show("fstat bad fd", syscall(NR_fstat, 999, &c));
    int big = open("/tmp/ac-big", O_RDWR | O_CREAT | O_TRUNC, 0600);
    show("ftruncate 2 GiB", ftruncate64(big, 0x80000000LL));
    show("fstat of 2 GiB (EOVERFLOW)", syscall(NR_fstat, big, &c));
    close(big);
    unlink("/tmp/ac-big");

    /* utimes, futimesat */
    int32_t tv[4] = {1000, 5, 2000, 7};
    show("utimes", syscall(NR_utimes, "/tmp/ac-file", tv));
    struct stat st;
    stat("/tmp/ac-file", &st);
    printf("  atime %ld.%09ld mtime %ld.%09ld\n", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
           (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    tv[1] = 1000000;
    show("utimes usec 1000000", syscall(NR_utimes, "/tmp/ac-file", tv));
    tv[1] = -1;
    show("utimes usec -1", syscall(NR_utimes, "/tmp/ac-file", tv));
    int32_t tv2[4] = {3000, 999999, 4000, 0};
    show("futimesat fd NULL path", syscall(NR_futimesat, fd, NULL, tv2));
    stat("/tmp/ac-file", &st);
    printf("  atime %ld.%09ld mtime %ld.%09ld\n", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
           (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    int tmp = open("/tmp", O_RDONLY | O_DIRECTORY);
    tv2[0] = 5000;
    show("futimesat dirfd", syscall(NR_futimesat, tmp, "ac-file", tv2));
    stat("/tmp/ac-file", &st);
    printf("  atime %ld\n", (long)st.st_atim.tv_sec);

    /* getdents: a virtual directory, whole and a few records at a time */
    list_dir("/proc/sys/vm", 4096);
    list_dir("/proc/sys/vm", 40);
    list_dir("/proc/sys/vm", 8);

    /* sysfs */
    show("sysfs(3)", syscall(NR_sysfs, 3));
    show("sysfs(1, proc)", syscall(NR_sysfs, 1, "proc"));
    show("sysfs(1, nope)", syscall(NR_sysfs, 1, "nope"));
    char name[64] = "";
    show("sysfs(2, 0)", syscall(NR_sysfs, 2, 0, name));
    printf("  name %s\n", name);
    /* sysfs's names are /proc/filesystems's, in its order */
    FILE *fsf = fopen("/proc/filesystems", "r");
    char line[64];
    int i = 0, same = fsf != NULL;
    while (fsf && fgets(line, sizeof line, fsf)) {
        line[strcspn(line, "\n")] = '\0';
        same &= syscall(NR_sysfs, 2, i++, name) == 0 && !strcmp(strchr(line, '\t') + 1, name);
    }
    if (fsf)
        fclose(fsf);
    printf("  names as /proc/filesystems: %s (%d)\n", same ? "yes" : "no", i);
    show("sysfs(2, 99)", syscall(NR_sysfs, 2, 99, name));
    show("sysfs(4)", syscall(NR_sysfs, 4));

    /* ustat: the device of a mount, and one that is none */
    stat("/proc", &st);
    char us[20];
    show("ustat /proc's device", syscall(NR_ustat, (unsigned)st.st_dev, us));
    show("ustat no file system", syscall(NR_ustat, 0xfff0u, us));

    /* nice */
    show("nice(0)", syscall(NR_nice, 0));
    show("nice(5)", syscall(NR_nice, 5));
    printf("  getpriority %d\n", getpriority(PRIO_PROCESS, 0));
    show("nice(100)", syscall(NR_nice, 100));
    printf("  getpriority %d\n", getpriority(PRIO_PROCESS, 0));
    show("nice(-100) as root", syscall(NR_nice, -100));
    printf("  getpriority %d\n", getpriority(PRIO_PROCESS, 0));

    /* the old signal calls */
    struct old_sigaction sa = {(uint32_t)(uintptr_t)on_signal, 1u << (SIGINT - 1), 0, 0}, old;
    show("sigaction SIGUSR1", syscall(NR_sigaction, SIGUSR1, &sa, NULL));
    show("sigaction read back", syscall(NR_sigaction, SIGUSR1, NULL, &old));
    printf("  handler ours %s mask %#x\n",
           old.handler == (uint32_t)(uintptr_t)on_signal ? "yes" : "no", old.mask);
    show("sigaction SIGKILL", syscall(NR_sigaction, SIGKILL, &sa, NULL));
    show("sigaction 0", syscall(NR_sigaction, 0, NULL, &old));
    raise(SIGUSR1);
    printf("  handled %d\n", handled);
    uint32_t set = 1u << (SIGUSR1 - 1), oset = 0;
    show("sigprocmask block USR1", syscall(NR_sigprocmask, SIG_BLOCK, &set, &oset));
    printf("  old %#x\n", oset);
    handled = 0;
    raise(SIGUSR1);
    uint32_t pend = 0;
    show("sigpending", syscall(NR_sigpending, &pend));
    printf("  pending %#x handled %d\n", pend, handled);
    show("sigsuspend", syscall(NR_sigsuspend, 0, 0, 0));
    printf("  handled %d\n", handled);
    sigset_t rt;
    sigemptyset(&rt);
    sigaddset(&rt, SIGRTMIN + 2);
    sigprocmask(SIG_BLOCK, &rt, NULL);
    set = 0;
    show("sigprocmask SETMASK 0", syscall(NR_sigprocmask, SIG_SETMASK, &set, &oset));
    sigprocmask(SIG_BLOCK, NULL, &rt);
    printf("  SIGRTMIN+2 still blocked: %s\n", sigismember(&rt, SIGRTMIN + 2) ? "yes" : "no");
    show("sigprocmask bad how", syscall(NR_sigprocmask, 9, &set, NULL));

    /* rt_sigtimedwait with both timespecs */
    sigset_t w;
    sigemptyset(&w);
    sigaddset(&w, SIGUSR2);
    sigprocmask(SIG_BLOCK, &w, NULL);
    int64_t ts64[2] = {0, 0};
    int32_t ts32[2] = {0, 0};
    show("rt_sigtimedwait_time64 nothing", syscall(NR_rt_sigtimedwait_time64, &w, NULL, ts64, 8));
    raise(SIGUSR2);
    show("rt_sigtimedwait_time64", syscall(NR_rt_sigtimedwait_time64, &w, NULL, ts64, 8));
    ts32[1] = 1000000000;
    show("rt_sigtimedwait time32 bad ns", syscall(NR_rt_sigtimedwait, &w, NULL, ts32, 8));
    ts64[1] = 1000000000;
    show("rt_sigtimedwait_time64 bad ns", syscall(NR_rt_sigtimedwait_time64, &w, NULL, ts64, 8));

    /* _newselect */
    int p[2];
    if (pipe(p) < 0)
        return 2;
    uint32_t rd = 1u << p[0];
    int32_t to[2] = {0, 1500000};
    long long t0 = now_ns(CLOCK_MONOTONIC);
    show("select empty pipe, 1.5 s", syscall(NR_newselect, p[0] + 1, &rd, NULL, NULL, to));
    printf("  waited %lld ms, left %d.%06d, set %#x\n", (now_ns(CLOCK_MONOTONIC) - t0) / MS, to[0],
           to[1], rd);
    if (write(p[1], "x", 1) != 1)
        return 3;
    rd = 1u << p[0];
    to[0] = 5, to[1] = 0;
    show("select ready", syscall(NR_newselect, p[0] + 1, &rd, NULL, NULL, to));
    printf("  left %d.%06d set %#x\n", to[0], to[1], rd);
    to[0] = -1;
    show("select negative", syscall(NR_newselect, p[0] + 1, &rd, NULL, NULL, to));

    /* PCI configuration space: root, then nobody */
    uint32_t word = 0;
    show("pciconfig_read", syscall(NR_pciconfig_read, 0, 0, 0, 4, &word));
    printf("  buf %#x\n", word);
    uint16_t half = 0;
    show("pciconfig_read len 2", syscall(NR_pciconfig_read, 0, 0, 0, 2, &half));
    printf("  buf %#x\n", half);
    show("pciconfig_write", syscall(NR_pciconfig_write, 0, 0, 0, 4, &word));
    if (setuid(65534) < 0)
        return 4;
    show("pciconfig_read as nobody", syscall(NR_pciconfig_read, 0, 0, 0, 4, &word));
    show("pciconfig_write as nobody", syscall(NR_pciconfig_write, 0, 0, 0, 4, &word));
    show("nice(-1) as nobody", syscall(NR_nice, -1));
    return 0;
}
#else
int main(void)
{
    printf("the old 32-bit calls are not in the aarch64 table\n");
    return 0;
}
#endif
