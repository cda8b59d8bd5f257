/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mempolicy.c - NUMA policies on a machine of one node (emu/mm/mempolicy.c),
 * one case per run (argv[1]):
 *   task   set_mempolicy's modes and flags, read back by get_mempolicy,
 *          the node mask checks (nodes beyond node 0, maxnode), the
 *          policy a forked child inherits, MPOL_F_NODE, MPOL_F_MEMS_ALLOWED
 *   vma    mbind on ranges: each VMA's policy (MPOL_F_ADDR), split by a
 *          partial range, kept by a child; EFAULT for holes, EINVAL for a
 *          misaligned start
 *   move   move_pages' status per page (node 0, -EFAULT unmapped; -ENODEV
 *          for a node without memory), migrate_pages
 *   sysfs  /sys/devices/system/node as libnuma and numactl read it
 * The raw calls are used (glibc has no wrappers; libnuma is not linked). */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_LOCAL 4
#define MPOL_PREFERRED_MANY 5
#define MPOL_F_STATIC_NODES (1 << 15)
#define MPOL_F_RELATIVE_NODES (1 << 14)
#define MPOL_F_NUMA_BALANCING (1 << 13)
#define MPOL_F_NODE 1
#define MPOL_F_ADDR 2
#define MPOL_F_MEMS_ALLOWED 4
#define MPOL_MF_STRICT 1
#define MPOL_MF_MOVE 2

static const char *res(long r)
{
    static char buf[32];
    if (r < 0)
        return err_name(errno);
    snprintf(buf, sizeof buf, "%ld", r);
    return buf;
}

/* Masks are 64-bit: two compat longs on arm, one long on aarch64. */
static long set_pol(int mode, uint64_t *mask, unsigned long maxnode)
{
    return syscall(SYS_set_mempolicy, mode, mask, maxnode);
}

/* get_mempolicy's policy and the first word of its mask. */
static void show(const char *what, void *addr, unsigned long flags)
{
    int pol = -1;
    unsigned long mask[4] = {~0ul, ~0ul, ~0ul, ~0ul};
    long r = syscall(SYS_get_mempolicy, &pol, mask, 64, addr, flags);
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: policy 0x%x nodes 0x%lx\n", what, pol, mask[0]);
}

static void case_task(void)
{
    show("fresh", NULL, 0);
    uint64_t m;
    static const struct {
        const char *name;
        int mode;
        uint64_t mask;
        unsigned long maxnode;
    } sets[] = {
        {"BIND {0}", MPOL_BIND, 1, 64},
        {"BIND {0,1}", MPOL_BIND, 3, 64},
        {"BIND {1}", MPOL_BIND, 2, 64},
        {"BIND {}", MPOL_BIND, 0, 64},
        {"INTERLEAVE {0}", MPOL_INTERLEAVE, 1, 64},
        {"PREFERRED {0}", MPOL_PREFERRED, 1, 64},
        {"PREFERRED {}", MPOL_PREFERRED, 0, 64},
        {"PREFERRED_MANY {0}", MPOL_PREFERRED_MANY, 1, 64},
        {"LOCAL {}", MPOL_LOCAL, 0, 64},
        {"LOCAL {0}", MPOL_LOCAL, 1, 64},
        {"DEFAULT {0}", MPOL_DEFAULT, 1, 64},
        {"mode 6", 6, 1, 64},
        {"BIND|STATIC {0,3}", MPOL_BIND | MPOL_F_STATIC_NODES, 9, 64},
        {"BIND|STATIC {3}", MPOL_BIND | MPOL_F_STATIC_NODES, 8, 64},
        {"INTERLEAVE|RELATIVE {2}", MPOL_INTERLEAVE | MPOL_F_RELATIVE_NODES, 4, 64},
        {"PREFERRED|STATIC {}", MPOL_PREFERRED | MPOL_F_STATIC_NODES, 0, 64},
        {"LOCAL|RELATIVE {}", MPOL_LOCAL | MPOL_F_RELATIVE_NODES, 0, 64},
        {"STATIC|RELATIVE", MPOL_BIND | MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES, 1, 64},
        {"BIND|NUMA_BALANCING {0}", MPOL_BIND | MPOL_F_NUMA_BALANCING, 1, 64},
        {"INTERLEAVE|NUMA_BALANCING", MPOL_INTERLEAVE | MPOL_F_NUMA_BALANCING, 1, 64},
        {"BIND {16} (beyond MAX_NUMNODES)", MPOL_BIND, 1ull << 16 | 1, 64},
        {"BIND {16} maxnode 17", MPOL_BIND, 1ull << 16 | 1, 17},
        {"BIND {0} maxnode 1 (empty)", MPOL_BIND, 1, 1},
        {"BIND {0} maxnode 0", MPOL_BIND, 1, 0},
        {"DEFAULT maxnode 0", MPOL_DEFAULT, 0, 0},
        {"BIND {0} maxnode 32770", MPOL_BIND, 1, 32770},
        {"BIND {0} maxnode 2", MPOL_BIND, 1, 2},
    };
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        m = sets[i].mask;
        long r = set_pol(sets[i].mode, &m, sets[i].maxnode);
        printf("set %s: %s\n", sets[i].name, res(r));
        if (r == 0)
            show("  get", NULL, 0);
    }
    printf("set NULL mask BIND: %s\n", res(set_pol(MPOL_BIND, NULL, 64)));
    printf("set bad mask: %s\n", res(set_pol(MPOL_BIND, (void *)8, 64)));

    m = 1;
    set_pol(MPOL_INTERLEAVE, &m, 64);
    show("interleave MPOL_F_NODE", NULL, MPOL_F_NODE);
    show("MPOL_F_MEMS_ALLOWED", NULL, MPOL_F_MEMS_ALLOWED);
    show("MEMS_ALLOWED|NODE", NULL, MPOL_F_MEMS_ALLOWED | MPOL_F_NODE);
    show("flags 8", NULL, 8);
    show("addr without MPOL_F_ADDR", (void *)&m, 0);
    int pol;
    unsigned long mask[2];
    printf("maxnode 0 with a mask: %s\n",
           res(syscall(SYS_get_mempolicy, &pol, mask, 0, NULL, 0)));
    printf("bad policy pointer: %s\n", res(syscall(SYS_get_mempolicy, (void *)8, NULL, 0, NULL, 0)));

    pid_t pid = fork();
    if (pid == 0) {
        show("child inherits", NULL, 0);
        m = 0;
        set_pol(MPOL_DEFAULT, &m, 64);
        show("child DEFAULT", NULL, 0);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    show("parent keeps", NULL, 0);
    set_pol(MPOL_LOCAL, NULL, 0);
    show("LOCAL NULL", NULL, 0);
    printf("DEFAULT NULL: %s\n", res(set_pol(MPOL_DEFAULT, NULL, 0)));
    show("default again", NULL, 0);
    printf("MPOL_F_NODE of the default: %s\n",
           res(syscall(SYS_get_mempolicy, &pol, NULL, 0, NULL, MPOL_F_NODE)));
}

static long mbind_(void *a, unsigned long len, int mode, uint64_t mask, unsigned flags)
{
    return syscall(SYS_mbind, a, len, mode, &mask, 64, flags);
}

static void case_vma(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(p, 1, 8 * pg);
    uint64_t m = 1;
    set_pol(MPOL_PREFERRED, &m, 64);
    show("new mapping (task PREFERRED)", p, MPOL_F_ADDR);
    printf("mbind BIND pages 2-3: %s\n", res(mbind_(p + 2 * pg, 2 * pg, MPOL_BIND, 1, 0)));
    show("page 1", p + pg, MPOL_F_ADDR);
    show("page 2", p + 2 * pg, MPOL_F_ADDR);
    show("page 3", p + 3 * pg + 5, MPOL_F_ADDR);
    show("page 4", p + 4 * pg, MPOL_F_ADDR);
    printf("mbind INTERLEAVE|STATIC {0,5} page 3: %s\n",
           res(mbind_(p + 3 * pg, 1, MPOL_INTERLEAVE | MPOL_F_STATIC_NODES, 0x21, MPOL_MF_STRICT | MPOL_MF_MOVE)));
    show("page 2", p + 2 * pg, MPOL_F_ADDR);
    show("page 3", p + 3 * pg, MPOL_F_ADDR);
    show("page 3 MPOL_F_NODE", p + 3 * pg, MPOL_F_ADDR | MPOL_F_NODE);
    printf("mbind misaligned: %s\n", res(mbind_(p + 1, pg, MPOL_BIND, 1, 0)));
    printf("mbind len 0: %s\n", res(mbind_(p, 0, MPOL_BIND, 0, 0)));
    printf("mbind flags 8: %s\n", res(mbind_(p, pg, MPOL_BIND, 1, 8)));
    printf("mbind BIND {1}: %s\n", res(mbind_(p, pg, MPOL_BIND, 2, 0)));
    munmap(p + 5 * pg, pg);
    printf("mbind BIND over a hole: %s\n", res(mbind_(p + 4 * pg, 3 * pg, MPOL_BIND, 1, 0)));
    show("page 4 unchanged", p + 4 * pg, MPOL_F_ADDR);
    printf("mbind DEFAULT over a hole: %s\n", res(mbind_(p + 4 * pg, 3 * pg, MPOL_DEFAULT, 0, 0)));
    printf("mbind DEFAULT all in a hole: %s\n", res(mbind_(p + 5 * pg, pg, MPOL_DEFAULT, 0, 0)));
    printf("mbind BIND past the end: %s\n", res(mbind_(p + 7 * pg, 2 * pg, MPOL_BIND, 1, 0)));
    show("hole MPOL_F_ADDR", p + 5 * pg, MPOL_F_ADDR);
    pid_t pid = fork();
    if (pid == 0) {
        show("child page 2", p + 2 * pg, MPOL_F_ADDR);
        show("child page 3", p + 3 * pg, MPOL_F_ADDR);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("mbind DEFAULT pages 0-4: %s\n", res(mbind_(p, 5 * pg, MPOL_DEFAULT, 0, 0)));
    show("page 2 again", p + 2 * pg, MPOL_F_ADDR);
    char *none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    show("PROT_NONE MPOL_F_NODE", none, MPOL_F_ADDR | MPOL_F_NODE);
}

static void case_move(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(p, 1, 3 * pg);
    munmap(p + pg, pg);
    void *pages[3] = {p, p + pg, p + 2 * pg + 17};
    int status[3] = {99, 99, 99};
    long r = syscall(SYS_move_pages, 0, 3, pages, NULL, status, 0);
    printf("move_pages query: %s status %d %d %d\n", res(r), status[0], status[1], status[2]);
    int nodes[3] = {0, 0, 0};
    status[0] = status[1] = status[2] = 99;
    r = syscall(SYS_move_pages, 0, 3, pages, nodes, status, MPOL_MF_MOVE);
    printf("move_pages to 0: %s status %d %d %d\n", res(r), status[0], status[1], status[2]);
    nodes[1] = 1;
    status[0] = status[1] = status[2] = 99;
    r = syscall(SYS_move_pages, 0, 3, pages, nodes, status, MPOL_MF_MOVE);
    printf("move_pages to node 1: %s status %d %d %d\n", res(r), status[0], status[1], status[2]);
    nodes[1] = -1;
    printf("move_pages to node -1: %s\n", res(syscall(SYS_move_pages, 0, 3, pages, nodes, status, 0)));
    printf("move_pages flags 1: %s\n", res(syscall(SYS_move_pages, 0, 3, pages, NULL, status, 1)));
    printf("move_pages pid 99999: %s\n", res(syscall(SYS_move_pages, 99999, 3, pages, NULL, status, 0)));
    printf("move_pages bad status: %s\n", res(syscall(SYS_move_pages, 0, 3, pages, NULL, (void *)8, 0)));
    printf("move_pages 0 pages: %s\n", res(syscall(SYS_move_pages, 0, 0, NULL, NULL, NULL, 0)));
    uint64_t from = 1, to = 1;
    printf("migrate_pages {0} -> {0}: %s\n", res(syscall(SYS_migrate_pages, 0, 64, &from, &to)));
    to = 2;
    printf("migrate_pages {0} -> {1}: %s\n", res(syscall(SYS_migrate_pages, 0, 64, &from, &to)));
    to = 1ull << 20;
    printf("migrate_pages -> {20}: %s\n", res(syscall(SYS_migrate_pages, 0, 64, &from, &to)));
    to = 1;
    printf("migrate_pages pid 99999: %s\n", res(syscall(SYS_migrate_pages, 99999, 64, &from, &to)));
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    printf("migrate_pages of a child: %s\n", res(syscall(SYS_migrate_pages, pid, 64, &from, &to)));
    status[0] = 99;
    printf("move_pages of a child: %s status %d\n",
           res(syscall(SYS_move_pages, pid, 1, pages, NULL, status, 0)), status[0]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void cat(const char *path)
{
    char buf[4096];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("%s: %s\n", path, err_name(errno));
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    printf("%s: %s", path, buf);
}

static void case_sysfs(void)
{
    static const char *const files[] = {"online", "possible", "has_cpu", "has_memory",
                                        "has_normal_memory", "node0/cpulist", "node0/cpumap",
                                        "node0/distance"};
    char path[128];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "/sys/devices/system/node/%s", files[i]);
        cat(path);
    }
    char buf[4096];
    int fd = open("/sys/devices/system/node/node0/meminfo", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = 0;
    printf("meminfo starts 'Node 0 MemTotal:': %s\n",
           !strncmp(buf, "Node 0 MemTotal:", 16) ? "yes" : "no");
    printf("meminfo has HugePages_Surp: %s\n", strstr(buf, "Node 0 HugePages_Surp:") ? "yes" : "no");
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(c, "task"))
        case_task();
    else if (!strcmp(c, "vma"))
        case_vma();
    else if (!strcmp(c, "move"))
        case_move();
    else if (!strcmp(c, "sysfs"))
        case_sysfs();
    else
        return 2;
    return 0;
}
