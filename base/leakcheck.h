/* SPDX-License-Identifier: GPL-2.0-or-later */
/* leakcheck.h - LeakSanitizer's pause and resume in sanitized builds
 * (nothing in the others): for an allocation a library makes and never
 * frees, which a suppression could match only by symbolizing its stack at
 * every exit (see engine_first_hook in emu/machine/engine.c). */
#ifndef ASYMU_LEAKCHECK_H
#define ASYMU_LEAKCHECK_H

#if defined(__SANITIZE_ADDRESS__)
#define ASYMU_LEAKCHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASYMU_LEAKCHECK 1
#endif
#endif

#ifdef ASYMU_LEAKCHECK
#include <sanitizer/lsan_interface.h>
static inline void leakcheck_pause(void)
{
    __lsan_disable();
}
static inline void leakcheck_resume(void)
{
    __lsan_enable();
}
#else
static inline void leakcheck_pause(void)
{
}
static inline void leakcheck_resume(void)
{
}
#endif

#endif
