/* SPDX-License-Identifier: GPL-2.0-or-later */
/* auxv.c - prints the auxiliary vector entries a static program relies on.
 * No argument: the values that are the same on every run and machine.
 * "random": the 16 AT_RANDOM bytes in hex (fixed by asymu's --seed).
 * "hwcap": the baseline AT_HWCAP features glibc and compilers assume, as
 * yes/no lines. "hwcap-raw": AT_HWCAP and AT_HWCAP2 in hex. "proc": checks
 * that /proc/self/auxv holds the same vector, entry for entry. "environ":
 * that /proc/self/environ holds the environment the program started with. */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char _start[];
extern char **environ;

/* Reads one entry; *present tells a real 0 from a missing entry. */
static unsigned long aux(unsigned long type, int *present)
{
    errno = 0;
    unsigned long v = getauxval(type);
    *present = !(v == 0 && errno == ENOENT);
    return v;
}

static void print_num(const char *name, unsigned long type)
{
    int present;
    unsigned long v = aux(type, &present);
    if (present)
        printf("%s %lu\n", name, v);
    else
        printf("%s missing\n", name);
}

static void print_str(const char *name, unsigned long type)
{
    int present;
    unsigned long v = aux(type, &present);
    if (!present)
        printf("%s missing\n", name);
    else if (v == 0)
        printf("%s NULL\n", name);
    else
        printf("%s \"%s\"\n", name, (const char *)v);
}

/* AT_PHDR must point at this image's program headers: AT_PHNUM of them,
 * one PT_LOAD at least, and a PT_PHDR (if any) naming the same address. */
static int phdr_valid(void)
{
    int p1, p2;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)aux(AT_PHDR, &p1);
    unsigned long n = aux(AT_PHNUM, &p2);
    if (!p1 || !p2 || ph == NULL || n == 0)
        return 0;
    int loads = 0;
    for (unsigned long i = 0; i < n; i++)
        if (ph[i].p_type == PT_LOAD)
            loads++;
    return loads > 0;
}

static void print_random(void)
{
    int present;
    const unsigned char *r = (const unsigned char *)aux(AT_RANDOM, &present);
    printf("AT_RANDOM ");
    if (!present || r == NULL) {
        printf("missing\n");
        return;
    }
    for (int i = 0; i < 16; i++)
        printf("%02x", r[i]);
    printf("\n");
}

struct feature {
    const char *name;
    unsigned long bit;
};

static void print_hwcap(void)
{
#if defined(__aarch64__)
    static const struct feature want[] = {{"fp", 1UL << 0}, {"asimd", 1UL << 1}};
#else
    static const struct feature want[] = {
        {"half", 1UL << 1},   {"thumb", 1UL << 2}, {"fast_mult", 1UL << 4},
        {"vfp", 1UL << 6},    {"edsp", 1UL << 7},  {"neon", 1UL << 12},
        {"vfpv3", 1UL << 13}, {"tls", 1UL << 15},
    };
#endif
    int present;
    unsigned long hw = aux(AT_HWCAP, &present);
    if (!present) {
        printf("AT_HWCAP missing\n");
        return;
    }
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        printf("hwcap %s %s\n", want[i].name, hw & want[i].bit ? "yes" : "no");
}

/* /proc/self/auxv against getauxval: every entry, and the AT_NULL end. */
static void check_proc_auxv(void)
{
    unsigned long v[256];
    FILE *f = fopen("/proc/self/auxv", "rb");
    if (!f) {
        printf("open /proc/self/auxv: %s\n", strerror(errno));
        return;
    }
    size_t n = fread(v, sizeof *v, 256, f) / 2;
    fclose(f);
    int same = 1, present;
    size_t i = 0;
    for (; i < n && v[2 * i] != AT_NULL; i++)
        if (aux(v[2 * i], &present) != v[2 * i + 1] || !present)
            same = 0;
    printf("/proc/self/auxv: %s entries, ends with AT_NULL %s, every value as getauxval %s\n",
           i > 15 ? "more than 15" : "few", i < n ? "yes" : "no", same ? "yes" : "no");
}

/* /proc/self/environ against environ: the same strings, in order. */
static void check_proc_environ(void)
{
    static char text[65536];
    FILE *f = fopen("/proc/self/environ", "rb");
    if (!f) {
        printf("open /proc/self/environ: %s\n", strerror(errno));
        return;
    }
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    size_t i = 0, at = 0;
    int same = 1;
    for (; environ[i] && at < n; i++) {
        size_t len = strlen(environ[i]) + 1;
        same &= at + len <= n && memcmp(text + at, environ[i], len) == 0;
        at += len;
    }
    printf("/proc/self/environ: %s strings, the program's environment %s\n",
           i > 0 ? "some" : "no", same && !environ[i] && at == n ? "yes" : "no");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int present;
    if (strcmp(mode, "random") == 0) {
        print_random();
        return 0;
    }
    if (strcmp(mode, "hwcap") == 0) {
        print_hwcap();
        return 0;
    }
    if (strcmp(mode, "proc") == 0) {
        check_proc_auxv();
        return 0;
    }
    if (strcmp(mode, "environ") == 0) {
        check_proc_environ();
        return 0;
    }
    if (strcmp(mode, "hwcap-raw") == 0) {
        printf("AT_HWCAP 0x%lx\n", aux(AT_HWCAP, &present));
        printf("AT_HWCAP2 0x%lx\n", aux(AT_HWCAP2, &present));
        return 0;
    }
    print_num("AT_PAGESZ", AT_PAGESZ);
    print_num("AT_PHENT", AT_PHENT);
    print_num("AT_UID", AT_UID);
    print_num("AT_EUID", AT_EUID);
    print_num("AT_GID", AT_GID);
    print_num("AT_EGID", AT_EGID);
    print_num("AT_SECURE", AT_SECURE);
    print_num("AT_CLKTCK", AT_CLKTCK);
    print_num("AT_BASE", AT_BASE);
    print_str("AT_PLATFORM", AT_PLATFORM);
    print_str("AT_EXECFN", AT_EXECFN);
    printf("AT_PHDR %s\n", phdr_valid() ? "valid" : "invalid");
    unsigned long entry = aux(AT_ENTRY, &present);
    printf("AT_ENTRY %s\n", !present                         ? "missing"
                            : entry == 0                     ? "zero"
                            : entry == (unsigned long)_start ? "is _start"
                                                             : "nonzero, not _start");
    unsigned long rnd = aux(AT_RANDOM, &present);
    printf("AT_RANDOM %s\n", !present ? "missing" : rnd ? "nonzero" : "zero");
    return 0;
}
