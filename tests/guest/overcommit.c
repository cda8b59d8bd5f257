/* SPDX-License-Identifier: GPL-2.0-or-later */
/* overcommit.c - large reservations under Linux's heuristic overcommit
 * (vm.overcommit_memory=0, mm/util.c __vm_enough_memory, mm/mmap.c
 * accountable_mapping): a PROT_NONE or MAP_NORESERVE mapping far larger
 * than the machine's memory is taken and costs nothing until touched
 * (Committed_AS does not move, only touched pages are resident); a private
 * writable mapping larger than RAM and swap is ENOMEM.
 *   overcommit reserve GIB   the PROT_NONE and MAP_NORESERVE cases
 *   overcommit huge GIB      a MAP_NORESERVE mapping of GIB, three touches,
 *                            a fork
 *   overcommit edges         rights, holes, many chunks, mremap in a large
 *                            MAP_NORESERVE mapping
 * Touching MAP_NORESERVE memory when the host has none to give is the
 * guest's SIGSEGV under asymu (--host-reserve), Linux's OOM killer's. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096ul

static long long meminfo_kb(const char *name)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, n) == 0 && line[n] == ':')
            kb = atoll(line + n + 1);
    if (f)
        fclose(f);
    return kb;
}

/* /proc/self/stat's vsize (field 23) in bytes. */
static unsigned long long vsize(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    char buf[1024];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    for (int field = 2; p && field < 23; field++)
        p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* Resident pages (mincore) in the 64 pages from p on. */
static int resident(char *p)
{
    unsigned char vec[64];
    if (mincore(p, sizeof vec * PAGE, vec) != 0)
        return -1;
    int n = 0;
    for (unsigned i = 0; i < sizeof vec; i++)
        n += vec[i] & 1;
    return n;
}

static const char *err_name(int e)
{
    return e == ENOMEM ? "ENOMEM" : e == EINVAL ? "EINVAL" : strerror(e);
}

/* Maps len bytes with prot and flags: "ok" or the errno's name. */
static char *map(uint64_t len, int prot, int flags, const char *what)
{
    char *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
    printf("mmap %s: %s\n", what, p == MAP_FAILED ? err_name(errno) : "ok");
    return p == MAP_FAILED ? NULL : p;
}

/* Writes a byte at three places of [p, p+len) and reads them back with an
 * untouched one; the resident pages around each. */
static void touch3(char *p, uint64_t len)
{
    uint64_t at[3] = {0, len / 2, len - PAGE};
    for (int i = 0; i < 3; i++)
        p[at[i]] = (char)(i + 1);
    printf("read back: %d %d %d, untouched: %d\n", p[at[0]], p[at[1]], p[at[2]], p[len / 4]);
    printf("resident pages around them: %d %d %d\n", resident(p + at[0]), resident(p + at[1]),
           resident(p + at[2] - 63 * PAGE));
}

static void reserve(uint64_t gib)
{
    uint64_t len = gib << 30;
    char what[64];
    meminfo_kb("Committed_AS"); /* stdio's own buffers, once */
    long long committed = meminfo_kb("Committed_AS");
    unsigned long long vs = vsize();

    snprintf(what, sizeof what, "%llu GiB PROT_NONE", (unsigned long long)gib);
    char *p = map(len, PROT_NONE, 0, what);
    if (p) {
        printf("vsize grew by %llu GiB, Committed_AS by %lld kB\n", (vsize() - vs) >> 30,
               meminfo_kb("Committed_AS") - committed);
        char *mid = p + len / 2;
        printf("mprotect 16 pages in the middle read-write: %s\n",
               mprotect(mid, 16 * PAGE, PROT_READ | PROT_WRITE) == 0 ? "ok" : err_name(errno));
        printf("Committed_AS grew by %lld kB\n", meminfo_kb("Committed_AS") - committed);
        mid[0] = 7, mid[15 * PAGE] = 8;
        printf("read back: %d %d, resident: %d\n", mid[0], mid[15 * PAGE], resident(mid));
        printf("munmap: %s\n", munmap(p, len) == 0 ? "ok" : err_name(errno));
    }

    snprintf(what, sizeof what, "%llu GiB MAP_NORESERVE read-write", (unsigned long long)gib);
    p = map(len, PROT_READ | PROT_WRITE, MAP_NORESERVE, what);
    if (p) {
        printf("vsize grew by %llu GiB, Committed_AS by %lld kB\n", (vsize() - vs) >> 30,
               meminfo_kb("Committed_AS") - committed);
        touch3(p, len);
        printf("munmap: %s\n", munmap(p, len) == 0 ? "ok" : err_name(errno));
    }

    /* Committed: more than the machine's RAM (MemTotal) and swap. */
    snprintf(what, sizeof what, "%llu GiB read-write", (unsigned long long)gib);
    map(len, PROT_READ | PROT_WRITE, 0, what);
    printf("vsize back to the start: %s\n", vsize() == vs ? "yes" : "no");
}

static void huge(uint64_t gib)
{
    char what[64];
    snprintf(what, sizeof what, "%llu GiB MAP_NORESERVE read-write", (unsigned long long)gib);
    uint64_t len = gib << 30;
    char *p = map(len, PROT_READ | PROT_WRITE, MAP_NORESERVE, what);
    if (!p)
        return;
    touch3(p, len);
    /* The child gets the touched pages (and only those cost it memory). */
    pid_t pid = fork();
    if (pid == 0) {
        printf("child reads: %d %d %d\n", p[0], p[len / 2], p[len - PAGE]);
        _exit(0);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    printf("child status %d\n", status);
    printf("munmap: %s\n", munmap(p, len) == 0 ? "ok" : err_name(errno));
}

static sigjmp_buf fault_jump;
static void *fault_addr;
static int fault_code;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    fault_addr = si->si_addr;
    fault_code = si->si_code;
    siglongjmp(fault_jump, 1);
}

/* Writes (or reads) a byte at p: 0 (or the byte), or the SIGSEGV seen. */
static const char *access_at(volatile char *p, bool write)
{
    static char out[64];
    fault_addr = NULL;
    if (sigsetjmp(fault_jump, 1)) {
        snprintf(out, sizeof out, "SIGSEGV %s at %s",
                 fault_code == SEGV_MAPERR ? "SEGV_MAPERR" : "SEGV_ACCERR",
                 fault_addr == p ? "the byte" : "another address");
        return out;
    }
    int v = write ? (*p = 5, 0) : *p;
    snprintf(out, sizeof out, "%d", v);
    return out;
}

/* The edges of a large MAP_NORESERVE mapping whose chunks reach the engine
 * when touched (asymu's mm_lazy.h): rights changed and a hole punched in
 * touched chunks, more chunks touched than stay registered, a piece moved
 * by mremap. Linux's answers. */
static void edges(void)
{
    struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
    sigaction(SIGSEGV, &sa, NULL);
    uint64_t len = 256ull << 20, mib = 1ull << 20;
    char *p = map(len, PROT_READ | PROT_WRITE, MAP_NORESERVE, "256 MiB MAP_NORESERVE read-write");
    if (!p)
        return;
    p[0] = 1, p[len - 1] = 2;
    mprotect(p + PAGE, PAGE, PROT_READ);
    printf("write to a page made read-only: %s\n", access_at(p + PAGE + 8, true));
    printf("its neighbours: %d, write %s\n", p[0], access_at(p + 2 * PAGE, true));
    munmap(p + 64 * mib, PAGE);
    printf("read in a hole: %s\n", access_at(p + 64 * mib + 10, false));
    printf("read after it: %s\n", access_at(p + 64 * mib + PAGE, false));
    mprotect(p + 128 * mib, mib, PROT_NONE);
    printf("read of PROT_NONE: %s\n", access_at(p + 128 * mib + 4, false));
    mprotect(p + 128 * mib, mib, PROT_READ | PROT_WRITE);
    printf("write when read-write again: %s\n", access_at(p + 128 * mib + 4, true));
    /* 127 chunks of 2 MiB, more than stay in the engine at once. */
    for (unsigned i = 0; i < 127; i++)
        if (i != 32)
            p[i * 2 * mib + 100] = (char)i;
    unsigned bad = 0;
    for (unsigned i = 0; i < 127; i++)
        bad += i != 32 && p[i * 2 * mib + 100] != (char)i;
    printf("127 chunks written and read back, wrong: %u\n", bad);
    char *from = p + 64 * mib + PAGE;
    char *q = mremap(from, 64 * mib - PAGE, 200 * mib, MREMAP_MAYMOVE);
    printf("mremap of the piece after the hole to 200 MiB: %s, byte %d, old place: %s\n",
           q == MAP_FAILED ? err_name(errno) : q == from ? "in place" : "moved",
           q == MAP_FAILED ? -1 : q[66 * mib + 100 - (64 * mib + PAGE)],
           access_at(from, false));
}

/* Code in a fresh chunk of a MAP_NORESERVE mapping, written by read()
 * (not by the guest's stores): the first access is the fetch itself. */
static void fetch_first(void)
{
    uint64_t len = 64ull << 20;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
#ifdef __aarch64__
    const uint32_t code[2] = {0x52800580, 0xd65f03c0}; /* mov w0, #44; ret */
#else
    const uint32_t code[2] = {0xe3a0002c, 0xe12fff1e}; /* mov r0, #44; bx lr (A32) */
#endif
    int fds[2];
    char *at = p + len - PAGE;
    if (p == MAP_FAILED || pipe(fds) != 0 || write(fds[1], code, sizeof code) != sizeof code ||
        read(fds[0], at, sizeof code) != sizeof code) {
        printf("fetch_first: setup failed\n");
        return;
    }
    __builtin___clear_cache(at, at + sizeof code);
    int (*f)(void) = (int (*)(void))(uintptr_t)at;
    printf("code first reached by a fetch returns %d\n", f());
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "edges") == 0) {
        setvbuf(stdout, NULL, _IOLBF, 0);
        edges();
        fetch_first();
        return 0;
    }
    if (argc < 3)
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0); /* what was said before a SIGSEGV */
    uint64_t gib = strtoull(argv[2], NULL, 10);
    if (strcmp(argv[1], "reserve") == 0)
        reserve(gib);
    else if (strcmp(argv[1], "huge") == 0)
        huge(gib);
    else
        return 2;
    return 0;
}
