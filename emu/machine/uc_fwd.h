/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uc_fwd.h - the names of Unicorn's handles, for headers that only hold or
 * pass them: an engine (uc_engine, Unicorn's opaque struct uc_struct), a
 * saved CPU state (uc_context) and a hook handle (uc_hook, a size_t).
 * They are Unicorn's own typedefs, repeated as C11 allows (the same type
 * named twice): a file that includes both this and <unicorn/unicorn.h>
 * fails to compile if Unicorn ever changes one. Only a .c file that calls
 * Unicorn includes <unicorn/unicorn.h> (or engine.h, the engine-facing
 * header); any other header that names these handles includes this one,
 * so the 100-odd files that never call Unicorn do not compile against its
 * 5,500 lines of headers (docs/structure.md, tests/e2e/unicorn-header.sh). */
#ifndef ASYMU_UC_FWD_H
#define ASYMU_UC_FWD_H

#include <stddef.h>

typedef struct uc_struct uc_engine;
typedef struct uc_context uc_context;
typedef size_t uc_hook;

#endif
