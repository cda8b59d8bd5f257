/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmsg.c - /dev/kmsg as the kernel serves it: one whole record per read, a
 * buffer too small for the next record is EINVAL, and a non-blocking reader
 * at the end gets EAGAIN. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        printf("open /dev/kmsg: %s\n", strerrorname_np(errno));
        return 1;
    }
    char small[8], buf[2048];
    ssize_t n = read(fd, small, sizeof small);
    printf("8-byte buffer: %zd %s\n", n, n < 0 ? strerrorname_np(errno) : "");
    while ((n = read(fd, buf, sizeof buf)) > 0)
        printf("record: %.*s", (int)n, buf);
    printf("at the end: %zd %s\n", n, n < 0 ? strerrorname_np(errno) : "");
    close(fd);
    return 0;
}
