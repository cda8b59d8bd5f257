/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hello.c - the first guest program: says which ISA it was built for and
 * what the machine reports about it. Built for AArch64 and AArch32. */
#include <stdio.h>
#include <sys/utsname.h>

int main(int argc, char **argv)
{
    struct utsname u;
    uname(&u);
#ifdef __aarch64__
    const char *isa = "64-bit AArch64";
#else
    const char *isa = "32-bit AArch32";
#endif
    printf("Hello from a %s program (uname -m: %s), %d argument%s.\n", isa, u.machine,
           argc - 1, argc == 2 ? "" : "s");
    (void)argv;
    return 0;
}
