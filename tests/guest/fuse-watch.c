/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuse-watch.c - waits (a bounded number of reads each time) until the host
 * offlines vCPU 2 through the FUSE export, then until it brings it back,
 * and reports what the guest saw each time. Used by tests/e2e/fuse.sh. */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int read_file(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return (int)n;
}

/* Reads /sys/devices/system/cpu/offline until it says `want`. */
static int wait_offline(const char *want)
{
    char offline[64] = "", online[64] = "";
    for (long i = 0; i < 20000000; i++) {
        if (read_file("/sys/devices/system/cpu/offline", offline, sizeof offline) < 0)
            return 2;
        if (strcmp(offline, want) == 0)
            break;
        sched_yield();
    }
    read_file("/sys/devices/system/cpu/online", online, sizeof online);
    printf("offline %sonline %s", offline, online);
    fflush(stdout);
    return strcmp(offline, want) == 0 ? 0 : 1;
}

int main(void)
{
    if (wait_offline("2\n") != 0)
        return 1;
    return wait_offline("\n");
}
