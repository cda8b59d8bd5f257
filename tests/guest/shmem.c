/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shmem.c - shared memory: MAP_SHARED anonymous and file mappings across
 * fork and between processes, futexes and process-shared semaphores in
 * them, msync, mincore, madvise, mremap, memfd_create, the fork flags,
 * truncated files, and the length checks of the memory calls. Every step
 * prints its result; the e2e tests compare the output. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define PAGE 4096

static void result(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

/* Runs fn in a child and prints how it ended. */
static void in_child(const char *what, void (*fn)(void *), void *arg)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn(arg);
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("%s: child killed by %s\n", what, sigabbrev_np(WTERMSIG(st)));
}

/* The rights and name /proc/self/maps gives the mapping at addr. */
static void maps_line(const char *what, const void *addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512], prefix[32];
    snprintf(prefix, sizeof prefix, "%08lx-", (unsigned long)addr);
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, prefix, strlen(prefix)) != 0)
            continue;
        char perms[8], name[256] = "";
        sscanf(line, "%*s %7s %*s %*s %*s %255[^\n]", perms, name);
        printf("%s: %s %s\n", what, perms, name);
    }
    if (f)
        fclose(f);
}

static void write_42(void *p)
{
    *(volatile int *)p = 42;
}

static void anon(void)
{
    int *shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int *private = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *shared = *private = 1;
    in_child("anon", write_42, shared);
    in_child("anon", write_42, private);
    printf("anon: shared %d private %d\n", *shared, *private);
    maps_line("anon: maps", shared);
    /* Grown and moved, it is still the same memory. */
    /* Something right after it: growing, it must move. */
    void *far = mmap(shared + PAGE / 4, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    int *moved = mremap(shared, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
    int *dup = mremap(moved, 0, PAGE, MREMAP_MAYMOVE);
    printf("anon: mremap moved %d, dup %d\n", moved != shared, dup != moved && dup != MAP_FAILED);
    in_child("anon", write_42, moved + 1);
    printf("anon: after the child, moved[1] %d dup[1] %d\n", moved[1], dup[1]);
    errno = 0;
    void *r = mremap(private, 0, PAGE, MREMAP_MAYMOVE);
    printf("anon: mremap of private with old_len 0: %s\n",
           r == MAP_FAILED ? err_name(errno) : "mapped");
    munmap(far, PAGE);
}

static int tmpfile_of(const char *path, off_t size)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, size) != 0)
        printf("%s: %s\n", path, err_name(errno));
    return fd;
}

/* A second process maps the file by itself and writes through its map. */
static void map_and_write(void *path)
{
    int fd = open(path, O_RDWR);
    char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, PAGE);
    memcpy(p + 8, "child", 5);
}

static void file(void)
{
    const char *path = "/tmp/shmem-file";
    int fd = tmpfile_of(path, 2 * PAGE);
    char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    memcpy(p, "hello", 5);
    char buf[8] = {0};
    result("file: pread after a store", pread(fd, buf, 5, 0));
    printf("file: read %s\n", buf);
    result("file: pwrite", pwrite(fd, "world", 5, 100));
    printf("file: map sees %.5s\n", p + 100);
    in_child("file", map_and_write, (void *)path);
    printf("file: map sees the other process's %.5s\n", p + PAGE + 8);
    result("file: msync MS_SYNC", msync(p, 2 * PAGE, MS_SYNC));
    result("file: msync MS_ASYNC", msync(p, PAGE, MS_ASYNC | MS_INVALIDATE));
    result("file: msync MS_ASYNC|MS_SYNC", msync(p, PAGE, MS_ASYNC | MS_SYNC));
    result("file: msync unaligned", msync(p + 1, PAGE, MS_SYNC));
    result("file: msync flags 8", msync(p, PAGE, 8));
    munmap(p + PAGE, PAGE);
    result("file: msync over a hole", msync(p, 2 * PAGE, MS_SYNC));
    /* Private: a copy, which the file's later changes do not reach. */
    char *q = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    q[0] = 'J';
    pwrite(fd, "y", 1, 1);
    printf("file: shared %.5s private %.1s\n", p, q);
    /* MADV_DONTNEED keeps a shared mapping's bytes. */
    result("file: madvise DONTNEED", madvise(p, PAGE, MADV_DONTNEED));
    printf("file: after DONTNEED %.5s\n", p);
    maps_line("file: maps", p);
    /* Read-only descriptors give read-only shared mappings. */
    int ro = open(path, O_RDONLY);
    errno = 0;
    void *w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
    printf("file: read-only fd, PROT_WRITE: %s\n", w == MAP_FAILED ? err_name(errno) : "mapped");
    char *r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
    result("file: mprotect it writable", mprotect(r, PAGE, PROT_READ | PROT_WRITE));
    result("file: madvise REMOVE on it", madvise(r, PAGE, MADV_REMOVE));
    printf("file: read-only map sees %.5s\n", r);
    int wo = open(path, O_WRONLY);
    errno = 0;
    w = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, wo, 0);
    printf("file: write-only fd: %s\n", w == MAP_FAILED ? err_name(errno) : "mapped");
    close(ro), close(wo), close(fd);
    unlink(path);
}

/* Pages past the file's end, and a file truncated under its mapping. */
static void touch_past_end(void *p)
{
    printf("past: byte %d\n", ((volatile char *)p)[0]);
}

static void past(void)
{
    const char *path = "/tmp/shmem-past";
    int fd = tmpfile_of(path, PAGE);
    char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    p[0] = 'a';
    in_child("past: the page past the end", touch_past_end, p + PAGE);
    ftruncate(fd, 0);
    in_child("past: a truncated page", touch_past_end, p);
    close(fd);
    unlink(path);
}

static long futex(int *uaddr, int op, int val, const struct timespec *ts)
{
    return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

static void wake_after_store(void *p)
{
    int *word = p;
    usleep(50000);
    __atomic_store_n(word, 1, __ATOMIC_SEQ_CST);
    printf("futex: child woke %ld\n", futex(word, FUTEX_WAKE, 1, NULL));
}

static void post(void *p)
{
    usleep(50000);
    printf("sem: child posts %d\n", sem_post(p));
}

static void futexes(void)
{
    int *word = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        wake_after_store(word);
        fflush(stdout);
        _exit(0);
    }
    while (__atomic_load_n(word, __ATOMIC_SEQ_CST) == 0)
        futex(word, FUTEX_WAIT, 0, NULL);
    waitpid(pid, NULL, 0);
    printf("futex: parent saw %d\n", *word);
    fflush(stdout);
    /* A private futex is the process's own: a wake from another process
     * does not reach it, and the timed wait ends by its timeout. */
    struct timespec ts = {0, 100 * MS};
    word[1] = 0;
    pid = fork();
    if (pid == 0) {
        usleep(20000);
        printf("futex: private wake from the child %ld\n", futex(word + 1, FUTEX_WAKE, 1, NULL));
        fflush(stdout);
        _exit(0);
    }
    long r = futex(word + 1, FUTEX_WAIT_PRIVATE, 0, &ts);
    printf("futex: private wait %s\n", r < 0 ? err_name(errno) : "woken");
    waitpid(pid, NULL, 0);
    fflush(stdout);

    sem_t *sem = (sem_t *)(word + 64);
    sem_init(sem, 1, 0);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        post(sem);
        fflush(stdout);
        _exit(0);
    }
    printf("sem: parent waits %d\n", sem_wait(sem));
    waitpid(pid, NULL, 0);
}

static void read_first(void *p)
{
    printf("fork: child reads %d\n", *(volatile int *)p);
}

static void fork_flags(void)
{
    int *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p[0] = p[PAGE / 4] = p[2 * PAGE / 4] = 7;
    result("fork: madvise WIPEONFORK", madvise(p + PAGE / 4, PAGE, MADV_WIPEONFORK));
    result("fork: madvise DONTFORK", madvise(p + 2 * PAGE / 4, PAGE, MADV_DONTFORK));
    in_child("fork: plain page", read_first, p);
    in_child("fork: WIPEONFORK page", read_first, p + PAGE / 4);
    in_child("fork: DONTFORK page", read_first, p + 2 * PAGE / 4);
    printf("fork: parent still reads %d %d\n", p[PAGE / 4], p[2 * PAGE / 4]);
    int *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    result("fork: WIPEONFORK on shared memory", madvise(s, PAGE, MADV_WIPEONFORK));
    result("fork: MADV_FREE on shared memory", madvise(s, PAGE, MADV_FREE));
    result("fork: madvise KEEPONFORK", madvise(p + PAGE / 4, PAGE, MADV_KEEPONFORK));
    in_child("fork: kept page", read_first, p + PAGE / 4);
    /* DONTNEED: private anonymous pages read back as zero, shared keep theirs. */
    *s = 5;
    madvise(p, PAGE, MADV_DONTNEED);
    madvise(s, PAGE, MADV_DONTNEED);
    printf("fork: after DONTNEED private %d shared %d\n", p[0], *s);
    result("fork: madvise 99", madvise(p, PAGE, 99));
}

static void core(void)
{
    char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p[0] = p[2 * PAGE] = 1;
    unsigned char vec[4];
    result("mincore", mincore(p, 4 * PAGE, vec));
    printf("mincore: %d %d %d %d\n", vec[0], vec[1], vec[2], vec[3]);
    result("mincore unaligned", mincore(p + 1, PAGE, vec));
    munmap(p + PAGE, PAGE);
    result("mincore over a hole", mincore(p, 4 * PAGE, vec));
    result("mincore to a bad vector", mincore(p, PAGE, (unsigned char *)8));
}

static void lengths(void)
{
    char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t huge = (size_t)-PAGE / 2 * 2 + 1; /* rounds up past the top */
    result("lengths: munmap huge", munmap(p, huge));
    result("lengths: munmap 0", munmap(p, 0));
    result("lengths: mprotect huge", mprotect(p, huge, PROT_READ));
    result("lengths: mprotect 0", mprotect(p, 0, PROT_READ));
    result("lengths: madvise huge", madvise(p, huge, MADV_DONTNEED));
    result("lengths: madvise 0", madvise(p, 0, MADV_DONTNEED));
    errno = 0;
    void *r = mremap(p, huge, PAGE, 0);
    printf("lengths: mremap huge: %s\n", r == MAP_FAILED ? err_name(errno) : "ok");
    p[0] = 9;
    printf("lengths: the page still holds %d\n", p[0]);
    /* A MAP_FIXED that fails keeps what was there: a write-only file, and
     * an address-space limit the new mapping would pass. */
    int wo = open("/tmp/shmem-wo", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    errno = 0;
    r = mmap(p, PAGE, PROT_READ, MAP_PRIVATE | MAP_FIXED, wo, 0);
    printf("lengths: MAP_FIXED of a write-only file: %s, old byte %d\n",
           r == MAP_FAILED ? err_name(errno) : "mapped", p[0]);
    close(wo);
    unlink("/tmp/shmem-wo");
    char *big = mmap(NULL, 64 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(big, PAGE, PROT_READ | PROT_WRITE);
    big[0] = 3;
    struct rlimit lim = {32 << 20, RLIM_INFINITY};
    fflush(stdout);
    if (fork() == 0) {
        /* RLIMIT_AS now lies below what is mapped: nothing new may grow it. */
        setrlimit(RLIMIT_AS, &lim);
        errno = 0;
        r = mmap(big, 128 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("lengths: MAP_FIXED past RLIMIT_AS: %s, old byte %d\n",
               r == MAP_FAILED ? err_name(errno) : "mapped", big[0]);
        fflush(stdout);
        _exit(0);
    }
    wait(NULL);
}

static void memfd(void)
{
    int fd = memfd_create("asymu-test", MFD_CLOEXEC);
    result("memfd: write", write(fd, "abc", 3));
    result("memfd: ftruncate", ftruncate(fd, PAGE));
    char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    p[3] = 'd';
    char buf[5] = {0};
    result("memfd: pread", pread(fd, buf, 4, 0));
    printf("memfd: %s\n", buf);
    char link[64] = {0}, self[32];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    result("memfd: readlink", readlink(self, link, sizeof link - 1));
    printf("memfd: link %s\n", link);
    printf("memfd: cloexec %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC);
    char name[300];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    result("memfd: a 299-byte name", memfd_create(name, 0));
    name[249] = '\0';
    int ok = memfd_create(name, 0);
    printf("memfd: a 249-byte name %s\n", ok >= 0 ? "ok" : err_name(errno));
    result("memfd: flags 0x40", memfd_create("x", 0x40));
    result("memfd: bad name pointer", memfd_create((const char *)8, 0));
}

/* Run with --tmp-size 1M: a memfd's pages count as /dev/shm's files do. */
static void memfd_limit(void)
{
    int fd = memfd_create("big", 0);
    result("memfd-limit: ftruncate 2M", ftruncate(fd, 2 << 20));
    static char buf[256 << 10];
    long total = 0, n;
    while ((n = write(fd, buf, sizeof buf)) > 0)
        total += n;
    printf("memfd-limit: wrote %ld, then %s\n", total, err_name(errno));
}

static long nattch(int id)
{
    struct shmid_ds ds;
    if (shmctl(id, IPC_STAT, &ds) < 0)
        return -1;
    return (long)ds.shm_nattch;
}

static int sysv_id;

static void attach_in_child(void *p)
{
    printf("sysv: child inherits, nattch %ld\n", nattch(sysv_id));
    volatile char *q = shmat(sysv_id, NULL, SHM_RDONLY);
    printf("sysv: child attaches again elsewhere %d, nattch %ld, reads %d\n", (char *)q != p,
           nattch(sysv_id), q[0]);
    ((char *)p)[1] = 42;
}

static void write_read_only(void *p)
{
    ((volatile char *)p)[0] = 1;
}

static void sysv(void)
{
    sysv_id = shmget(IPC_PRIVATE, 10000, IPC_CREAT | 0600);
    char *p = shmat(sysv_id, NULL, 0);
    struct shmid_ds ds;
    shmctl(sysv_id, IPC_STAT, &ds);
    printf("sysv: size %zu nattch %lu\n", (size_t)ds.shm_segsz, (unsigned long)ds.shm_nattch);
    maps_line("sysv: maps", p);
    p[0] = 1;
    in_child("sysv", attach_in_child, p);
    printf("sysv: parent reads %d, nattch %ld\n", p[1], nattch(sysv_id));
    char *ro = shmat(sysv_id, NULL, SHM_RDONLY);
    in_child("sysv: write to SHM_RDONLY", write_read_only, ro);
    result("sysv: shmdt read-only", shmdt(ro));
    errno = 0;
    void *r = shmat(sysv_id, p + 1, 0);
    printf("sysv: unaligned address: %s\n", r == (void *)-1 ? err_name(errno) : "attached");
    r = shmat(sysv_id, NULL, SHM_REMAP);
    printf("sysv: SHM_REMAP without an address: %s\n", r == (void *)-1 ? err_name(errno) : "attached");
    r = shmat(sysv_id, p, 0);
    printf("sysv: over itself without SHM_REMAP: %s\n", r == (void *)-1 ? err_name(errno) : "attached");
    r = shmat(sysv_id, p, SHM_REMAP);
    printf("sysv: over itself with SHM_REMAP: %s, nattch %ld, byte %d\n",
           r == (void *)p ? "same address" : err_name(errno), nattch(sysv_id), p[1]);
    result("sysv: IPC_RMID while attached", shmctl(sysv_id, IPC_RMID, NULL));
    shmctl(sysv_id, IPC_STAT, &ds);
    printf("sysv: marked: key %d dest %d\n", (int)ds.shm_perm.__key, !!(ds.shm_perm.mode & 01000));
    result("sysv: shmdt inside", shmdt(p + 4096));
    result("sysv: shmdt", shmdt(p));
    result("sysv: shmdt again", shmdt(p));
    result("sysv: gone after the last detach", shmctl(sysv_id, IPC_STAT, &ds));
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } parts[] = {{"anon", anon},       {"file", file},   {"past", past},       {"futex", futexes},
                 {"fork", fork_flags}, {"core", core},   {"lengths", lengths}, {"memfd", memfd},
                 {"sysv", sysv}, {"memfd-limit", memfd_limit}};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        if (argc < 2 ? parts[i].fn != memfd_limit : strcmp(argv[1], parts[i].name) == 0)
            parts[i].fn();
    return 0;
}
