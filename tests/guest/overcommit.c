/* overcommit.c - large reservations under Linux's heuristic overcommit
 * (vm.overcommit_memory=0, mm/util.c __vm_enough_memory, mm/mmap.c
 * accountable_mapping): a PROT_NONE or MAP_NORESERVE mapping far larger
 * than the machine's memory is taken and costs nothing until touched
 * (Committed_AS does not move, only touched pages are resident); a private
 * writable mapping larger than RAM and swap is ENOMEM.
 *   overcommit reserve GIB   the PROT_NONE and MAP_NORESERVE cases
 *   overcommit huge GIB      a MAP_NORESERVE mapping of GIB, three touches,
 *                            a fork
 * Touching MAP_NORESERVE memory when the host has none to give is the
 * guest's SIGSEGV under asymu (--host-reserve), Linux's OOM killer's. */
#include <errno.h>
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

int main(int argc, char **argv)
{
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
