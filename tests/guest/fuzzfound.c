/* fuzzfound.c - the inputs with which the fuzz harnesses (tests/fuzz/)
 * crashed asymu, replayed from a guest: one case per finding, each printing
 * what Linux answers. Usage: fuzzfound CASE */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Prints "NAME RESULT" or "NAME -1 ERRNO" for a raw syscall's result. */
static void report(const char *name, long r)
{
    if (r < 0)
        printf("%s -1 %s\n", name, err_name(errno));
    else
        printf("%s %ld\n", name, r);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *c = argv[1];
    if (strcmp(c, "kill-int-min") == 0) {
        /* fuzz-syscall: -INT_MIN overflowed when naming the process group. */
        report("kill(INT_MIN, 0)", syscall(SYS_kill, INT_MIN, 0));
        report("kill(INT_MIN, SIGKILL)", syscall(SYS_kill, INT_MIN, 9));
        return 0;
    }
    fprintf(stderr, "fuzzfound: unknown case %s\n", c);
    return 2;
}
