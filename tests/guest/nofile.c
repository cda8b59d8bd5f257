/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nofile.c - the machine's host descriptors (issue 24, item 8), opening the
 * program's own file (a host file: each open holds a host descriptor).
 *   nofile three N   three processes open N files each and hold them until
 *                    all three have: each says how many it opened;
 *   nofile exhaust   one process opens until open fails and says its errno
 *                    (ENFILE: the host ran out, not the process's own table),
 *                    and so does a child; then it waits for a line on stdin,
 *                    closes them all, says so, and waits for another line. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>

static const char *self;

/* Opens up to n files: how many, and the errno that stopped it (0: none). */
static int open_many(int n, int *err)
{
    int i = 0;
    *err = 0;
    for (; i < n; i++)
        if (open(self, O_RDONLY) < 0) {
            *err = errno;
            break;
        }
    return i;
}

static int three(int n)
{
    int done[2], go[2];
    if (pipe(done) < 0 || pipe(go) < 0)
        return 1;
    for (int c = 0; c < 3; c++)
        if (fork() == 0) {
            close(go[1]);
            int err, got = open_many(n, &err);
            int report[3] = {c, got, err};
            write(done[1], report, sizeof report);
            char x;
            read(go[0], &x, 1); /* hold them until all three have */
            _exit(0);
        }
    int results[3][2];
    for (int i = 0; i < 3; i++) {
        int report[3];
        if (read(done[0], report, sizeof report) != sizeof report)
            return 1;
        results[report[0]][0] = report[1], results[report[0]][1] = report[2];
    }
    close(go[1]);
    for (int c = 0; c < 3; c++) {
        printf("process %d: opened %d", c, results[c][0]);
        if (results[c][1])
            printf(", then %s", err_name(results[c][1]));
        printf("\n");
    }
    while (wait(NULL) > 0)
        ;
    return 0;
}

static int exhaust(void)
{
    int err, got = open_many(100000, &err);
    printf("open failed: %s\n", err ? err_name(err) : "no");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(self, O_RDONLY);
        printf("another process's open: %s\n", fd < 0 ? err_name(errno) : "opened");
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("holding\n");
    fflush(stdout);
    char line[64];
    read(0, line, sizeof line);
    for (int fd = 3; fd < 3 + got; fd++)
        close(fd);
    printf("closed\n");
    fflush(stdout);
    read(0, line, sizeof line);
    return 0;
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc == 3 && strcmp(argv[1], "three") == 0)
        return three(atoi(argv[2]));
    if (argc == 2 && strcmp(argv[1], "exhaust") == 0)
        return exhaust();
    fprintf(stderr, "usage: nofile three N | nofile exhaust\n");
    return 2;
}
