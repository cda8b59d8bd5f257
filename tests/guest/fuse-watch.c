/* fuse-watch.c - waits (a bounded number of reads) until the host offlines
 * vCPU 2 through the FUSE export, then reports what the guest sees. Used by
 * tests/e2e/fuse.sh. */
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

int main(void)
{
    char offline[64] = "", online[64] = "";
    for (long i = 0; i < 20000000; i++) {
        if (read_file("/sys/devices/system/cpu/offline", offline, sizeof offline) < 0)
            return 2;
        if (strcmp(offline, "2\n") == 0)
            break;
        sched_yield();
    }
    read_file("/sys/devices/system/cpu/online", online, sizeof online);
    printf("offline %sonline %s", offline, online);
    return strcmp(offline, "2\n") == 0 ? 0 : 1;
}
