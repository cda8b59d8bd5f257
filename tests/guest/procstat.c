/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procstat.c - /proc/stat accounts the time a vCPU runs guest code as user
 * time: after a busy loop on its own vCPU, that vCPU shows user ticks, an
 * idle vCPU none, and user + idle is the same on every vCPU. */
#include <stdio.h>

int main(void)
{
    for (volatile long i = 0; i < 20000000; i++)
        ;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return 1;
    char line[256];
    unsigned long long total = 0, user0 = 0, idle1 = 0, user1 = 0;
    int same = 1;
    while (fgets(line, sizeof line, f)) {
        unsigned cpu;
        unsigned long long user, nice, sys, idle;
        if (sscanf(line, "cpu%u %llu %llu %llu %llu", &cpu, &user, &nice, &sys, &idle) != 5)
            continue;
        if (total == 0)
            total = user + idle;
        same &= user + idle == total;
        if (cpu == 0)
            user0 = user;
        if (cpu == 1)
            user1 = user, idle1 = idle;
    }
    fclose(f);
    printf("cpu0 ran the loop: %s\n", user0 > 0 ? "yes" : "no");
    printf("cpu1 idle: %s\n", user1 == 0 && idle1 == total ? "yes" : "no");
    printf("user + idle the same on every vCPU: %s\n", same ? "yes" : "no");
    return 0;
}
