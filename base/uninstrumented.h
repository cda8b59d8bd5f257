/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uninstrumented.h - UNINSTRUMENTED: a function the engine calls for every
 * guest basic block, compiled without the sanitizers' checks and (clang)
 * libFuzzer's coverage in sanitized and fuzzing builds, and as it is in the
 * others. Such a hook only reads and adds to fields of the machine; with
 * them, each block paid five comparison callbacks, counters and shadow
 * checks, and a guest's tight loop ran 3.7 times slower than in the normal
 * build (e2e-overcommit-asan-leak-aarch64: 37 s of CPU, libasan's
 * ForEachChunk over 2^28 regions). What such a hook calls when it leaves
 * its fast path is instrumented as everything else. */
#ifndef ASYMU_UNINSTRUMENTED_H
#define ASYMU_UNINSTRUMENTED_H

#if defined(__clang__)
#define UNINSTRUMENTED __attribute__((no_sanitize("address", "undefined", "coverage")))
#else
#define UNINSTRUMENTED __attribute__((no_sanitize("address", "undefined")))
#endif

#endif
