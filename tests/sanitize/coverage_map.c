/* SPDX-License-Identifier: GPL-2.0-or-later */
/* coverage_map.c - the runtime of the coverage-map build (CMake's
 * ASYMU_COVERAGE_MAP; tests/sanitize/README.md): clang's
 * -fsanitize-coverage=trace-pc-guard puts a guard (a 32-bit word) on every
 * edge of the code it compiles and calls the two functions below.
 *
 * With ASYMU_COVERAGE_DIR set, the init call numbers the guards 1..N in
 * their order in the binary (the same numbers for every run of one binary)
 * and maps DIR/<executable name>.<pid>.map, N bytes, MAP_SHARED: byte i-1 is
 * 1 once guard i was reached. The file is the record, so a process that
 * _exits, is killed or crashes has still written it, and a forked child
 * writes its parent's (the same program; an exec maps a file of its own).
 * A guard is zeroed at its first hit, so each edge costs one store once.
 * The file is opened here, in a constructor, because asymu later confines
 * itself (seccomp, Landlock, --sysroot's mount namespace) where it could
 * not; a pid seen twice in one directory (a pid namespace's) shares the
 * file, which only adds hits of the same binary.
 *
 * Without the variable, or if the file cannot be made, the guards stay 0:
 * no file, and each edge costs a load and a branch. This file itself is
 * compiled without the instrumentation (CMakeLists.txt). */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

static unsigned char *cov_map;
static uint32_t *numbered; /* the module whose guards are numbered */

static void zero_guards(uint32_t *start, uint32_t *stop)
{
    for (uint32_t *g = start; g < stop; g++)
        *g = 0;
}

static unsigned char *map_file(const char *dir, size_t n)
{
    char exe[PATH_MAX], path[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    int w = snprintf(path, sizeof path, "%s/%s.%ld.map", dir, base, (long)getpid());
    if (w < 0 || (size_t)w >= sizeof path)
        return NULL;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return NULL;
    void *m = MAP_FAILED;
    if (ftruncate(fd, (off_t)n) == 0)
        m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return m == MAP_FAILED ? NULL : m;
}

/* Called once per module with its guards; asymu's code is one module (the
 * executable). A second module, if any, is not recorded. */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || start == numbered)
        return; /* no guards, or numbered already */
    const char *dir = getenv("ASYMU_COVERAGE_DIR");
    size_t n = (size_t)(stop - start);
    if (cov_map || !dir || !*dir || !(cov_map = map_file(dir, n))) {
        zero_guards(start, stop);
        return;
    }
    for (size_t i = 0; i < n; i++)
        start[i] = (uint32_t)(i + 1);
    numbered = start;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    uint32_t g = __atomic_load_n(guard, __ATOMIC_RELAXED);
    if (!g)
        return;
    __atomic_store_n(guard, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&cov_map[g - 1], 1, __ATOMIC_RELAXED);
}
