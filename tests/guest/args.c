/* SPDX-License-Identifier: GPL-2.0-or-later */
/* args.c - prints argc, every argv[i] quoted, for each argument of the
 * form "env:NAME" the value of the environment variable NAME, and for an
 * argument "cwd:" the working directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    printf("argc %d\n", argc);
    for (int i = 0; i < argc; i++)
        printf("argv[%d] \"%s\"\n", i, argv[i]);
    printf("argv[argc] %s\n", argv[argc] ? "not NULL" : "NULL");
    for (int i = 1; i < argc; i++) {
        char cwd[4096];
        if (strcmp(argv[i], "cwd:") == 0)
            printf("cwd %s\n", getcwd(cwd, sizeof cwd) ? cwd : "(error)");
        if (strncmp(argv[i], "env:", 4) != 0)
            continue;
        const char *name = argv[i] + 4;
        const char *value = getenv(name);
        if (value)
            printf("env %s \"%s\"\n", name, value);
        else
            printf("env %s unset\n", name);
    }
    return 0;
}
