/* SPDX-License-Identifier: GPL-2.0-or-later */
/* openat2.c - openat2(2) (issue 26 item 5): `openat2 checks` prints what
 * build_open_flags() and copy_struct_from_user() refuse; `openat2 resolve`
 * the RESOLVE_* flags on a tree it makes in /tmp/o2 and on /proc. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's O_LARGEFILE bit (glibc's is 0 on 64-bit ABIs). */
#ifdef __x86_64__
#define RAW_O_LARGEFILE 0100000
#else
#define RAW_O_LARGEFILE 0400000
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct how {
    uint64_t flags, mode, resolve;
};

#define R_NO_XDEV 0x01
#define R_NO_MAGICLINKS 0x02
#define R_NO_SYMLINKS 0x04
#define R_BENEATH 0x08
#define R_IN_ROOT 0x10
#define R_CACHED 0x20

static const char *err_name(int e)
{
    switch (e) {
    case EINVAL: return "EINVAL";
    case E2BIG: return "E2BIG";
    case EFAULT: return "EFAULT";
    case EAGAIN: return "EAGAIN";
    case EXDEV: return "EXDEV";
    case ELOOP: return "ELOOP";
    case ENOENT: return "ENOENT";
    case ENOTDIR: return "ENOTDIR";
    case EBADF: return "EBADF";
    case EEXIST: return "EEXIST";
    default: return "other";
    }
}

static long o2(int dir, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve,
               size_t size)
{
    struct how h = {flags, mode, resolve};
    return syscall(SYS_openat2, dir, path, &h, size);
}

/* Prints the result: "ok" and what the file holds (its first line) or its
 * type, or the error. */
static void show(const char *what, long fd)
{
    if (fd < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    struct stat st;
    char buf[64] = "";
    fstat((int)fd, &st);
    if (S_ISREG(st.st_mode)) {
        ssize_t n = read((int)fd, buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        buf[strcspn(buf, "\n\t")] = '\0'; /* "Name:" without the name */
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(buf, sizeof buf, "(dir)");
    } else if (S_ISLNK(st.st_mode)) {
        snprintf(buf, sizeof buf, "(symlink)");
    } else {
        snprintf(buf, sizeof buf, "(other)");
    }
    printf("%s: ok %s\n", what, buf);
    close((int)fd);
}

static int checks(void)
{
    const size_t s = sizeof(struct how);
    /* the struct */
    show("size 0", o2(AT_FDCWD, "/tmp", O_RDONLY, 0, 0, 0));
    show("size 23", o2(AT_FDCWD, "/tmp", O_RDONLY, 0, 0, 23));
    long page = sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    munmap(map + 2 * page, (size_t)page); /* a hole after two pages */
    struct how *big = (struct how *)(map + page - s);
    *big = (struct how){O_RDONLY, 0, 0};
    printf("size 40, zero tail: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", big, s + 16) >= 0 ? "ok" : err_name(errno));
    printf("size page+8, zero tail: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", big, (size_t)page + 8) >= 0 ? "ok"
                                                                            : err_name(errno));
    printf("size into the hole: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", big, (size_t)page * 2) >= 0 ? "ok"
                                                                             : err_name(errno));
    map[page + 100] = 1;
    printf("size 200, byte 124 set: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", big, 200) >= 0 ? "ok" : err_name(errno));
    printf("size into the hole, byte set before: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", big, (size_t)page * 2) >= 0 ? "ok"
                                                                             : err_name(errno));
    printf("how NULL: %s\n",
           syscall(SYS_openat2, AT_FDCWD, "/tmp", NULL, s) >= 0 ? "ok" : err_name(errno));
    /* build_open_flags() */
    show("flag bit 33", o2(AT_FDCWD, "/tmp", 1ull << 33, 0, 0, s));
    show("flag 0x4000000 (FMODE_NONOTIFY)", o2(AT_FDCWD, "/tmp", 0x4000000, 0, 0, s));
    show("flag 040000000", o2(AT_FDCWD, "/tmp", 040000000, 0, 0, s));
    show("resolve 0x40", o2(AT_FDCWD, "/tmp", O_RDONLY, 0, 0x40, s));
    show("BENEATH|IN_ROOT", o2(AT_FDCWD, "/tmp", O_RDONLY, 0, R_BENEATH | R_IN_ROOT, s));
    show("mode without O_CREAT", o2(AT_FDCWD, "/tmp", O_RDONLY, 0644, 0, s));
    show("mode 010644 with O_CREAT", o2(AT_FDCWD, "/tmp/m", O_CREAT | O_WRONLY, 010644, 0, s));
    show("O_CREAT mode 0600", o2(AT_FDCWD, "/tmp/m", O_CREAT | O_WRONLY, 0600, 0, s));
    struct stat st;
    printf("  mode of /tmp/m: %o\n", stat("/tmp/m", &st) == 0 ? st.st_mode & 07777 : 0);
    show("O_PATH|O_RDWR", o2(AT_FDCWD, "/tmp", O_PATH | O_RDWR, 0, 0, s));
    show("O_PATH|O_CLOEXEC|O_DIRECTORY", o2(AT_FDCWD, "/tmp", O_PATH | O_CLOEXEC | O_DIRECTORY, 0, 0, s));
    show("O_PATH|O_LARGEFILE", o2(AT_FDCWD, "/tmp", O_PATH | RAW_O_LARGEFILE, 0, 0, s));
    show("O_TMPFILE|O_RDONLY", o2(AT_FDCWD, "/tmp", O_TMPFILE | O_RDONLY, 0600, 0, s));
    show("__O_TMPFILE without O_DIRECTORY",
         o2(AT_FDCWD, "/tmp", (O_TMPFILE & ~O_DIRECTORY) | O_RDWR, 0600, 0, s));
    show("O_TMPFILE|O_CREAT", o2(AT_FDCWD, "/tmp", O_TMPFILE | O_CREAT | O_RDWR, 0600, 0, s));
    show("CACHED|O_CREAT", o2(AT_FDCWD, "/tmp/m", O_CREAT | O_RDWR, 0600, R_CACHED, s));
    show("CACHED|O_TRUNC", o2(AT_FDCWD, "/tmp/m", O_TRUNC | O_RDWR, 0, R_CACHED, s));
    show("CACHED|O_TMPFILE", o2(AT_FDCWD, "/tmp", O_TMPFILE | O_RDWR, 0600, R_CACHED, s));
    show("CACHED|O_DIRECTORY", o2(AT_FDCWD, "/tmp", O_DIRECTORY, 0, R_CACHED, s));
    show("CACHED plain", o2(AT_FDCWD, "/tmp/m", O_RDONLY, 0, R_CACHED, s));
    show("empty path", o2(AT_FDCWD, "", O_RDONLY, 0, 0, s));
    show("bad dirfd, relative", o2(99, "m", O_RDONLY, 0, R_BENEATH, s));
    show("bad dirfd, absolute BENEATH", o2(99, "/tmp/m", O_RDONLY, 0, R_BENEATH, s));
    show("bad dirfd, absolute IN_ROOT", o2(99, "/tmp/m", O_RDONLY, 0, R_IN_ROOT, s));
    show("bad dirfd, absolute NO_XDEV", o2(99, "/tmp/m", O_RDONLY, 0, R_NO_XDEV, s));
    int file = open("/tmp/m", O_RDONLY);
    show("file dirfd", o2(file, "x", O_RDONLY, 0, R_BENEATH, s));
    close(file);
    unlink("/tmp/m");
    return 0;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int resolve(void)
{
    const size_t s = sizeof(struct how);
    mkdir("/tmp/o2", 0755);
    mkdir("/tmp/o2/d", 0755);
    mkdir("/tmp/o2/d/sub", 0755);
    put("/tmp/o2/top", "top\n");
    put("/tmp/o2/d/f", "f\n");
    put("/tmp/o2/d/sub/g", "g\n");
    symlink("/tmp/o2/d/f", "/tmp/o2/d/abs");
    symlink("f", "/tmp/o2/d/rel");
    symlink("../top", "/tmp/o2/d/up");
    symlink("sub", "/tmp/o2/d/subl");
    symlink("../../../../../f", "/tmp/o2/d/sub/far");
    symlink("/f", "/tmp/o2/d/rootf");
    symlink("../../../proc/self", "/tmp/o2/d/toproc");
    int d = open("/tmp/o2/d", O_RDONLY | O_DIRECTORY);
    int proc = open("/proc", O_RDONLY | O_DIRECTORY);
    int self = open("/proc/self", O_RDONLY | O_DIRECTORY);
    int root = open("/", O_RDONLY | O_DIRECTORY);
    char fdpath[64];
    int keep = open("/tmp/o2/d/f", O_RDONLY);
    snprintf(fdpath, sizeof fdpath, "fd/%d", keep);

    show("none rel", o2(d, "rel", O_RDONLY, 0, 0, s));
    /* RESOLVE_NO_SYMLINKS */
    show("NO_SYMLINKS f", o2(d, "f", O_RDONLY, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS rel", o2(d, "rel", O_RDONLY, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS subl/g", o2(d, "subl/g", O_RDONLY, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS rel O_NOFOLLOW", o2(d, "rel", O_RDONLY | O_NOFOLLOW, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS rel O_PATH|O_NOFOLLOW",
         o2(d, "rel", O_PATH | O_NOFOLLOW, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS /proc/self/status", o2(d, "/proc/self/status", O_RDONLY, 0, R_NO_SYMLINKS, s));
    show("NO_SYMLINKS O_CREAT|O_EXCL rel", o2(d, "rel", O_CREAT | O_EXCL | O_WRONLY, 0600, R_NO_SYMLINKS, s));
    /* RESOLVE_NO_MAGICLINKS */
    show("NO_MAGICLINKS self/fd/N", o2(self, fdpath, O_RDONLY, 0, R_NO_MAGICLINKS, s));
    show("none self/fd/N", o2(self, fdpath, O_RDONLY, 0, 0, s));
    show("NO_MAGICLINKS self/fd/N O_PATH|O_NOFOLLOW",
         o2(self, fdpath, O_PATH | O_NOFOLLOW, 0, R_NO_MAGICLINKS, s));
    show("NO_MAGICLINKS self/cwd", o2(self, "cwd", O_RDONLY | O_DIRECTORY, 0, R_NO_MAGICLINKS, s));
    show("NO_MAGICLINKS self/root/tmp/o2/top",
         o2(self, "root/tmp/o2/top", O_RDONLY, 0, R_NO_MAGICLINKS, s));
    show("NO_MAGICLINKS /proc/self/status (self is no magic link)",
         o2(AT_FDCWD, "/proc/self/status", O_RDONLY, 0, R_NO_MAGICLINKS, s));
    show("NO_MAGICLINKS rel", o2(d, "rel", O_RDONLY, 0, R_NO_MAGICLINKS, s));
    /* RESOLVE_BENEATH */
    show("BENEATH f", o2(d, "f", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH sub/../f", o2(d, "sub/../f", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH ../top", o2(d, "../top", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH ../d/f", o2(d, "../d/f", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH /tmp/o2/d/f", o2(d, "/tmp/o2/d/f", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH abs", o2(d, "abs", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH rel", o2(d, "rel", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH up", o2(d, "up", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH sub/far", o2(d, "sub/far", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH subl/g", o2(d, "subl/g", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH self fd/N", o2(self, fdpath, O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH .", o2(d, ".", O_RDONLY, 0, R_BENEATH, s));
    show("BENEATH ..", o2(d, "..", O_RDONLY, 0, R_BENEATH, s));
    /* RESOLVE_IN_ROOT */
    show("IN_ROOT f", o2(d, "f", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT /f", o2(d, "/f", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT ../../../f", o2(d, "../../../f", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT sub/far", o2(d, "sub/far", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT rootf", o2(d, "rootf", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT abs", o2(d, "abs", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT up", o2(d, "up", O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT self fd/N", o2(self, fdpath, O_RDONLY, 0, R_IN_ROOT, s));
    show("IN_ROOT O_CREAT /new", o2(d, "/new", O_CREAT | O_WRONLY, 0600, R_IN_ROOT, s));
    printf("  /tmp/o2/d/new: %s\n", access("/tmp/o2/d/new", F_OK) == 0 ? "made" : "missing");
    show("none rootf", o2(d, "rootf", O_RDONLY, 0, 0, s));
    /* RESOLVE_NO_XDEV */
    show("NO_XDEV f", o2(d, "f", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV rel", o2(d, "rel", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV proc self/status", o2(proc, "self/status", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV proc ..", o2(proc, "..", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV root proc/self/status", o2(root, "proc/self/status", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV root proc", o2(root, "proc", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV d /proc/self/status", o2(d, "/proc/self/status", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV self fd/N", o2(self, fdpath, O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV self .", o2(self, ".", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV abs (a jump to /)", o2(d, "abs", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV toproc (../../../proc/self)", o2(d, "toproc/status", O_RDONLY, 0, R_NO_XDEV, s));
    show("none toproc", o2(d, "toproc/status", O_RDONLY, 0, 0, s));
    show("NO_XDEV ../../../tmp/o2/top", o2(d, "../../../tmp/o2/top", O_RDONLY, 0, R_NO_XDEV, s));
    show("NO_XDEV ../top", o2(d, "../top", O_RDONLY, 0, R_NO_XDEV, s));
    /* RESOLVE_CACHED: asymu keeps no dentry cache; the magic links need
     * the dentry (proc_pid_get_link()) */
    show("CACHED f", o2(d, "f", O_RDONLY, 0, R_CACHED, s));
    show("CACHED self fd/N", o2(self, fdpath, O_RDONLY, 0, R_CACHED, s));
    /* combined */
    show("BENEATH|NO_SYMLINKS sub/g", o2(d, "sub/g", O_RDONLY, 0, R_BENEATH | R_NO_SYMLINKS, s));
    show("missing/../f", o2(d, "missing/../f", O_RDONLY, 0, R_BENEATH, s));
    show("f/../f", o2(d, "f/../f", O_RDONLY, 0, R_BENEATH, s));
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && strcmp(argv[1], "checks") == 0)
        return checks();
    if (argc > 1 && strcmp(argv[1], "resolve") == 0)
        return resolve();
    fprintf(stderr, "usage: openat2 checks|resolve\n");
    return 2;
}
