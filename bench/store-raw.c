/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-raw.c - the store loop of store.c with no libc (-nostdlib -static):
 * _start runs it and exits with 7 bits folded from the sum (an inline svc).
 * Its only syscall is exit, so raw-unicorn.c can run it with nothing but a
 * UC_HOOK_INTR hook; asymu and qemu-user run the very same file. The
 * iteration count is a volatile so the compiler cannot fold the loop. */
#include "store-loop.h"

#ifndef STORE_ITERS
#define STORE_ITERS 200000000ul
#endif

static volatile unsigned long iters = STORE_ITERS;

static __attribute__((noreturn)) void sys_exit(int code)
{
#if defined(__aarch64__)
    register long x0 __asm__("x0") = code;
    register long x8 __asm__("x8") = 93; /* exit */
    __asm__ volatile("svc #0" : : "r"(x0), "r"(x8) : "memory");
#elif defined(__arm__)
    register long r0 __asm__("r0") = code;
    register long r7 __asm__("r7") = 1; /* exit */
    __asm__ volatile("svc #0" : : "r"(r0), "r"(r7) : "memory");
#else
#error "store-raw.c is for AArch64 or AArch32"
#endif
    __builtin_unreachable();
}

void _start(void)
{
    unsigned sum = store_loop(iters);
    sys_exit((int)((sum ^ (sum >> 7) ^ (sum >> 14) ^ (sum >> 21) ^ (sum >> 28)) & 0x7f));
}
