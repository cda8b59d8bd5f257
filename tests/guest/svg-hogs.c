/* SPDX-License-Identifier: GPL-2.0-or-later */
/* svg-hogs.c - two processes that only compute, the same amount each, for
 * the timeline's panel test (timeline_panel_check.py): run on one vCPU
 * they share it. The first is named with the characters XML must escape
 * (PR_SET_NAME: a guest picks its comm), so the SVG has to escape them. */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void hog(const char *name)
{
    prctl(PR_SET_NAME, name);
    for (volatile unsigned long i = 0; i < 3000000; i++)
        ;
    _exit(0);
}

int main(void)
{
    pid_t a = fork();
    if (a == 0)
        hog("<h&\"o'g>");
    pid_t b = fork();
    if (b == 0)
        hog("hog-b");
    int sa = -1, sb = -1;
    waitpid(a, &sa, 0);
    waitpid(b, &sb, 0);
    printf("hogs: %d %d\n", sa, sb);
    return 0;
}
