/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostname.c - sethostname and setdomainname change what uname reports,
 * for every process of the machine. Only for asymu: as root on a real
 * machine (or under qemu-user) it would rename the host. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, int r)
{
    printf("%s = %s\n", what, r < 0 ? err_name(errno) : "0");
}

static void show_names(const char *who)
{
    struct utsname u;
    uname(&u);
    char host[80] = "?";
    gethostname(host, sizeof host);
    printf("%s: nodename \"%s\", domainname \"%s\", gethostname \"%s\"\n", who, u.nodename,
           u.domainname, host);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    show_names("at boot");
    show("sethostname(\"new\", 3)", sethostname("new", 3));
    show("setdomainname(\"example.org\", 11)", setdomainname("example.org", 11));
    show_names("after");
    static const char sixty_four[] =
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    show("sethostname of 64 bytes", sethostname(sixty_four, 64));
    show_names("64 bytes");
    show("sethostname of 65 bytes", sethostname(sixty_four, 65));
    /* Through syscall(): the compiler refuses these arguments to the
     * libc wrapper. */
    show("sethostname of -1 bytes", (int)syscall(SYS_sethostname, "x", -1L));
    show("sethostname from a bad pointer", (int)syscall(SYS_sethostname, 8L, 4L));
    show("setdomainname of 65 bytes", setdomainname(sixty_four, 65));
    /* Exactly len bytes are taken: a NUL inside ends the name, and a
     * shorter name leaves nothing of the longer one. */
    show("sethostname(\"ab\\0cd\", 5)", sethostname("ab\0cd", 5));
    show_names("NUL inside");
    show("sethostname(\"box\", 2)", sethostname("box", 2));
    show("setdomainname(\"\", 0)", setdomainname("", 0));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        show_names("child");
        sethostname("fromchild", 9);
        exit(0);
    }
    waitpid(pid, NULL, 0);
    show_names("parent after the child renamed it");
    return 0;
}
