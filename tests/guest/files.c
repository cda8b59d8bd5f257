/* SPDX-License-Identifier: GPL-2.0-or-later */
/* files.c - file syscalls through the VFS: /dev/null, /dev/zero, a missing
 * file, fstat/lseek/read of the file argv[1], and readlink /proc/self/exe
 * (printed as its last component, since the directory depends on where the
 * program was built). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *err(void)
{
    const char *name = strerrorname_np(errno);
    return name ? name : "unknown errno";
}

static void dev_null(void)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0) {
        printf("open /dev/null: %s\n", err());
        return;
    }
    printf("write /dev/null %zd\n", write(fd, "hello", 5));
    struct stat st;
    if (fstat(fd, &st) == 0)
        printf("/dev/null %s %u:%u\n", S_ISCHR(st.st_mode) ? "chr" : "not chr", major(st.st_rdev),
               minor(st.st_rdev));
    close(fd);
}

static void dev_zero(void)
{
    int fd = open("/dev/zero", O_RDONLY);
    if (fd < 0) {
        printf("open /dev/zero: %s\n", err());
        return;
    }
    unsigned char buf[16];
    memset(buf, 0xff, sizeof(buf));
    ssize_t n = read(fd, buf, sizeof(buf));
    int zero = 1;
    for (size_t i = 0; i < sizeof(buf); i++)
        zero &= buf[i] == 0;
    printf("read /dev/zero %zd %s\n", n, zero ? "all zero" : "NOT zero");
    close(fd);
}

static void missing(void)
{
    int fd = open("/nonexistent/file", O_RDONLY);
    printf("open /nonexistent/file %d %s\n", fd, fd < 0 ? err() : "");
    struct stat st;
    int r = stat("/nonexistent", &st);
    printf("stat /nonexistent %d %s\n", r, r < 0 ? err() : "");
}

static void regular(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("open %s: %s\n", path, err());
        return;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        printf("fstat: %s\n", err());
        close(fd);
        return;
    }
    printf("fstat %s %s size %lld\n", path, S_ISREG(st.st_mode) ? "regular" : "not regular",
           (long long)st.st_size);
    printf("lseek end %lld\n", (long long)lseek(fd, 0, SEEK_END));
    printf("lseek set %lld\n", (long long)lseek(fd, 6, SEEK_SET));
    char buf[6];
    ssize_t n = read(fd, buf, 5);
    buf[n > 0 ? n : 0] = '\0';
    printf("read %zd \"%s\"\n", n, buf);
    printf("lseek cur %lld\n", (long long)lseek(fd, 0, SEEK_CUR));
    off_t bad = lseek(fd, 0, 42);
    printf("lseek bad whence %lld %s\n", (long long)bad, err());
    close(fd);
    n = read(fd, buf, 1);
    printf("read closed fd %zd %s\n", n, err());
}

static void self_exe(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n < 0) {
        printf("readlink /proc/self/exe: %s\n", err());
        return;
    }
    buf[n] = '\0';
    const char *slash = strrchr(buf, '/');
    printf("readlink /proc/self/exe %s name %s\n", buf[0] == '/' ? "absolute" : "relative",
           slash ? slash + 1 : buf);
}

int main(int argc, char **argv)
{
    dev_null();
    dev_zero();
    missing();
    if (argc > 1)
        regular(argv[1]);
    self_exe();
    return 0;
}
