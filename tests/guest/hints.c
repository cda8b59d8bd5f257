/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hints: the hint instructions execute at EL0 as on hardware (no-ops for
 * a single thread): YIELD, WFE, WFI, SEV, SEVL, and on A64 any other
 * HINT encoding; on AArch32 in both the Thumb and the ARM instruction
 * sets. Go's linux/arm spin loops yield. */
#include <stdio.h>

#ifdef __aarch64__
static void hints(void)
{
    __asm__ volatile("yield\n sevl\n wfe\n sev\n wfi\n hint #0x7f\n" ::: "memory");
}
#else
static void hints(void)
{
    __asm__ volatile("yield\n sev\n wfe\n wfi\n" ::: "memory");
}

__attribute__((target("arm"))) static void hints_arm(void)
{
    __asm__ volatile("yield\n sev\n wfe\n wfi\n" ::: "memory");
}
#endif

int main(void)
{
    for (int i = 0; i < 1000; i++) {
        hints();
#ifndef __aarch64__
        hints_arm();
#endif
    }
    puts("hints ran 1000 times");
    return 0;
}
