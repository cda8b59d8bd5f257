/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-engine-stop.c - the Unicorn 2.1.1 fact behind emu/machine/engine.c's
 * stop_before_block(), on bare engines of both ISAs. A block hook that
 * stops the run keeps the block from running; Unicorn then puts the pc back
 * at the block's start only while no code hook exists (cpu_tb_exec,
 * TB_EXIT_REQUESTED). With a code hook inside the block (a gdb breakpoint),
 * the pc is left past an instruction that never ran, and a run resumed there
 * skips it. Writing the pc after the stop, as asymu does, resumes exactly.
 *
 * The guest loop: a load with post-increment of the pointer, an add to the
 * counter, a branch back; after any number of whole iterations the pointer
 * has moved as often as the counter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <unicorn/unicorn.h>
#include "leakcheck.h"

#define CODE 0x10000u
#define DATA 0x18000u
#define STOP_AT_BLOCK 3 /* the third block of each run stops it */
#define RUNS 4

struct isa {
    uc_arch arch;
    uc_mode mode;
    int pc, pointer, counter;
    const void *code;
    size_t code_size;
    uint64_t start;   /* the first run's pc: Thumb has bit 0 */
    uint64_t hooked;  /* the add, inside the block */
    uint64_t pc_bit0; /* ORed into a written pc */
};

/* Thumb: ldrb.w r2, [r1], #1; adds r0, #1; b.n loop. */
static const uint16_t thumb_loop[] = {0xf811, 0x2b01, 0x3001, 0xe7fb};
/* A64: ldrb w2, [x1], #1; add x0, x0, #1; b loop. */
static const uint32_t a64_loop[] = {0x38401422, 0x91000400, 0x17fffffe};

static const struct isa thumb = {UC_ARCH_ARM, UC_MODE_THUMB, UC_ARM_REG_PC, UC_ARM_REG_R1,
                                 UC_ARM_REG_R0, thumb_loop, sizeof thumb_loop, CODE | 1,
                                 CODE + 4, 1};
static const struct isa a64 = {UC_ARCH_ARM64, UC_MODE_ARM, UC_ARM64_REG_PC, UC_ARM64_REG_X1,
                               UC_ARM64_REG_X0, a64_loop, sizeof a64_loop, CODE, CODE + 4, 0};

struct run {
    const struct isa *isa;
    int blocks;
    bool write_pc;
};

static void on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    struct run *r = user;
    if (++r->blocks != STOP_AT_BLOCK)
        return;
    uc_emu_stop(uc);
    if (r->write_pc) {
        uint64_t pc = addr | r->isa->pc_bit0;
        uc_reg_write(uc, r->isa->pc, &pc);
    }
}

static void on_code(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc, (void)addr, (void)size, (void)user;
}

/* Runs the loop RUNS times, each stopped at its third block; returns how
 * far the pointer moved minus how often the counter was incremented. */
static int64_t drift(const struct isa *isa, bool code_hook, bool write_pc)
{
    uc_engine *uc;
    assert_int_equal(uc_open(isa->arch, isa->mode, &uc), UC_ERR_OK);
    assert_int_equal(uc_ctl_exits_enable(uc), UC_ERR_OK); /* as engine_open */
    leakcheck_pause(); /* the first call initialises the engine (engine_first_hook) */
    assert_int_equal(uc_mem_map(uc, CODE, 0x10000, UC_PROT_ALL), UC_ERR_OK);
    leakcheck_resume();
    assert_int_equal(uc_mem_write(uc, CODE, isa->code, isa->code_size), UC_ERR_OK);
    uint64_t pointer = DATA, zero = 0;
    uc_reg_write(uc, isa->pointer, &pointer);
    uc_reg_write(uc, isa->counter, &zero);
    struct run r = {.isa = isa, .write_pc = write_pc};
    uc_hook h;
    assert_int_equal(uc_hook_add(uc, &h, UC_HOOK_BLOCK, (void *)on_block, &r, 1, 0), UC_ERR_OK);
    if (code_hook)
        assert_int_equal(uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)on_code, NULL, isa->hooked,
                                     isa->hooked),
                         UC_ERR_OK);
    uint64_t pc = isa->start;
    for (int i = 0; i < RUNS; i++) {
        r.blocks = 0;
        assert_int_equal(uc_emu_start(uc, pc, 0, 0, 0), UC_ERR_OK);
        pc = 0;
        uc_reg_read(uc, isa->pc, &pc);
        pc |= isa->pc_bit0;
    }
    uint64_t counter = 0;
    pointer = 0;
    uc_reg_read(uc, isa->pointer, &pointer);
    uc_reg_read(uc, isa->counter, &counter);
    uc_close(uc);
    /* Each run ran its first two blocks, one iteration each. */
    assert_int_equal(counter, 2 * RUNS);
    return (int64_t)(pointer - DATA) - (int64_t)counter;
}

static void test_stop_without_code_hook(void **state)
{
    (void)state;
    assert_int_equal(drift(&thumb, false, false), 0);
    assert_int_equal(drift(&a64, false, false), 0);
}

/* The defect: each resumed run starts past the load. */
static void test_code_hook_skips_instructions(void **state)
{
    (void)state;
    assert_int_equal(drift(&thumb, true, false), -(RUNS - 1));
    assert_int_equal(drift(&a64, true, false), -(RUNS - 1));
}

static void test_written_pc_resumes_exactly(void **state)
{
    (void)state;
    assert_int_equal(drift(&thumb, true, true), 0);
    assert_int_equal(drift(&a64, true, true), 0);
    assert_int_equal(drift(&thumb, false, true), 0);
    assert_int_equal(drift(&a64, false, true), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_without_code_hook),
        cmocka_unit_test(test_code_hook_skips_instructions),
        cmocka_unit_test(test_written_pc_resumes_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
