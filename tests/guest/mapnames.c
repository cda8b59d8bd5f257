/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mapnames.c - the names /proc/self/maps gives the mappings, in order of
 * first appearance (files by their base name): a dynamic program shows its
 * own image, the dynamic loader and libc. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 1;
    char line[4352], seen[2048] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strlen(line) <= 73)
            continue;
        const char *name = line + 73;
        const char *base = name[0] == '/' ? strrchr(name, '/') + 1 : name;
        char key[300];
        snprintf(key, sizeof key, " %.280s ", base);
        if (!strstr(seen, key) && strlen(seen) + strlen(key) < sizeof seen) {
            strcat(seen, key + (seen[0] ? 1 : 0));
            printf("%s\n", base);
        }
    }
    fclose(f);
    return 0;
}
