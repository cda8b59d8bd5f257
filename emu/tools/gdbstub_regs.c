/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_regs.c - the registers gdb sees of a task: the target description
 * of its ISA and the `g` packet's layout, built on ptrace's register sets
 * (ptrace_regs.c) so both debuggers read the same values.
 *
 * AArch64: x0-x30, sp, pc (8 bytes each), cpsr (4), v0-v31 (16), fpsr,
 * fpcr (4): registers 0-67. AArch32: r0-r12, sp, lr, pc (4 bytes each), cpsr
 * as register 25 (gdb's numbering keeps 16-24 for the old FPA registers),
 * d0-d31 (8) as 26-57, fpscr (4) as 58. */
#include "gdbstub_int.h"

#include "abi.h"
#include "loader.h"
#include "ptrace.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <unicorn/unicorn.h>

static bool is64(const struct task *t)
{
    return t->proc->mm->abi->isa == LOADER_ISA_AARCH64;
}

/* Where register regnum lies in the `g` layout: false when there is none. */
static bool reg_place(const struct task *t, unsigned n, unsigned *off, unsigned *size)
{
    if (is64(t)) {
        if (n <= 32)
            *off = 8 * n, *size = 8;
        else if (n == 33)
            *off = 264, *size = 4;
        else if (n <= 65)
            *off = 268 + 16 * (n - 34), *size = 16;
        else if (n <= 67)
            *off = 780 + 4 * (n - 66), *size = 4;
        else
            return false;
    } else {
        if (n <= 15)
            *off = 4 * n, *size = 4;
        else if (n == 25)
            *off = 64, *size = 4;
        else if (n >= 26 && n <= 57)
            *off = 68 + 8 * (n - 26), *size = 8;
        else if (n == 58)
            *off = 324, *size = 4;
        else
            return false;
    }
    return true;
}

static size_t regs_size(const struct task *t)
{
    return is64(t) ? 788 : 328;
}

size_t gdb_regs_read(struct task *t, uint8_t *out)
{
    uint8_t set[528];
    memset(out, 0, GDB_REGS_MAX);
    ptrace_regset_get(t, NT_PRSTATUS_, set, 0, -1);
    if (is64(t)) {
        memcpy(out, set, 33 * 8);      /* x0-x30, sp, pc */
        memcpy(out + 264, set + 264, 4); /* pstate's low word, little-endian */
        ptrace_regset_get(t, NT_PRFPREG_, set, 0, -1);
        memcpy(out + 268, set, 512 + 8); /* v0-v31, fpsr, fpcr */
    } else {
        memcpy(out, set, 17 * 4); /* r0-r15, cpsr */
        out[60] &= 0xfe; /* the pc without the Thumb bit: cpsr's T says it */
        ptrace_regset_get(t, NT_ARM_VFP_, set, 0, -1);
        memcpy(out + 68, set, 256 + 4); /* d0-d31, fpscr */
    }
    return regs_size(t);
}

int gdb_regs_write(struct task *t, const uint8_t *in, size_t len)
{
    uint8_t all[GDB_REGS_MAX], set[528] = {0};
    size_t size = gdb_regs_read(t, all);
    if (len > size)
        return -E2BIG;
    memcpy(all, in, len);
    /* The general set first: a status register Linux would refuse a
     * tracer (valid_user_regs) fails the whole write before any of it. */
    if (is64(t)) {
        memcpy(set, all, 33 * 8 + 4);
        if (ptrace_regset_set(t, NT_PRSTATUS_, set, 34 * 8) < 0)
            return -EINVAL;
        ptrace_regset_set(t, NT_PRFPREG_, all + 268, 512);
        uint32_t fpsr, fpcr;
        memcpy(&fpsr, all + 780, 4);
        memcpy(&fpcr, all + 784, 4);
        ptrace_reg_write(t, UC_ARM64_REG_FPSR, fpsr);
        ptrace_reg_write(t, UC_ARM64_REG_FPCR, fpcr);
    } else {
        if (ptrace_regset_set(t, NT_PRSTATUS_, all, 17 * 4) < 0)
            return -EINVAL;
        ptrace_regset_set(t, NT_ARM_VFP_, all + 68, 256);
        uint32_t fpscr;
        memcpy(&fpscr, all + 324, 4);
        ptrace_reg_write(t, UC_ARM_REG_FPSCR, fpscr);
    }
    return 0;
}

int gdb_reg_read(struct task *t, unsigned regnum, uint8_t *out)
{
    uint8_t all[GDB_REGS_MAX];
    unsigned off, size;
    if (!reg_place(t, regnum, &off, &size))
        return -1;
    gdb_regs_read(t, all);
    memcpy(out, all + off, size);
    return (int)size;
}

int gdb_reg_write(struct task *t, unsigned regnum, const uint8_t *in, size_t len)
{
    uint8_t all[GDB_REGS_MAX];
    unsigned off, size;
    if (!reg_place(t, regnum, &off, &size) || len != size)
        return -ENOENT;
    size_t n = gdb_regs_read(t, all);
    memcpy(all + off, in, size);
    return gdb_regs_write(t, all, n);
}

static const char xml_aarch64[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\">\n"
    "<architecture>aarch64</architecture>\n"
    "<osabi>GNU/Linux</osabi>\n"
    "<feature name=\"org.gnu.gdb.aarch64.core\">\n"
#define X(n) "<reg name=\"x" #n "\" bitsize=\"64\" type=\"int\"/>\n"
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
    X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30)
#undef X
    "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\"/>\n"
    "<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\"/>\n"
    "<reg name=\"cpsr\" bitsize=\"32\" type=\"int\"/>\n"
    "</feature>\n"
    "<feature name=\"org.gnu.gdb.aarch64.fpu\">\n"
    "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>\n"
    "<vector id=\"v2u\" type=\"uint64\" count=\"2\"/>\n"
    "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>\n"
    "<vector id=\"v4u\" type=\"uint32\" count=\"4\"/>\n"
    "<vector id=\"v8u\" type=\"uint16\" count=\"8\"/>\n"
    "<vector id=\"v16u\" type=\"uint8\" count=\"16\"/>\n"
    "<union id=\"aarch64v\">\n"
    "<field name=\"d\" type=\"v2d\"/><field name=\"ud\" type=\"v2u\"/>\n"
    "<field name=\"s\" type=\"v4f\"/><field name=\"us\" type=\"v4u\"/>\n"
    "<field name=\"h\" type=\"v8u\"/><field name=\"b\" type=\"v16u\"/>\n"
    "<field name=\"q\" type=\"uint128\"/>\n"
    "</union>\n"
#define V(n) "<reg name=\"v" #n "\" bitsize=\"128\" type=\"aarch64v\"/>\n"
    V(0) V(1) V(2) V(3) V(4) V(5) V(6) V(7) V(8) V(9) V(10) V(11) V(12) V(13) V(14) V(15)
    V(16) V(17) V(18) V(19) V(20) V(21) V(22) V(23) V(24) V(25) V(26) V(27) V(28) V(29) V(30)
    V(31)
#undef V
    "<reg name=\"fpsr\" bitsize=\"32\" type=\"int\"/>\n"
    "<reg name=\"fpcr\" bitsize=\"32\" type=\"int\"/>\n"
    "</feature>\n"
    "</target>\n";

static const char xml_arm[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\">\n"
    "<architecture>arm</architecture>\n"
    "<osabi>GNU/Linux</osabi>\n"
    "<feature name=\"org.gnu.gdb.arm.core\">\n"
#define R(n) "<reg name=\"r" #n "\" bitsize=\"32\" type=\"uint32\"/>\n"
    R(0) R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9) R(10) R(11) R(12)
#undef R
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>\n"
    "<reg name=\"lr\" bitsize=\"32\"/>\n"
    "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>\n"
    "<reg name=\"cpsr\" bitsize=\"32\" regnum=\"25\"/>\n"
    "</feature>\n"
    "<feature name=\"org.gnu.gdb.arm.vfp\">\n"
    "<reg name=\"d0\" bitsize=\"64\" type=\"ieee_double\" regnum=\"26\"/>\n"
#define D(n) "<reg name=\"d" #n "\" bitsize=\"64\" type=\"ieee_double\"/>\n"
    D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11) D(12) D(13) D(14) D(15)
    D(16) D(17) D(18) D(19) D(20) D(21) D(22) D(23) D(24) D(25) D(26) D(27) D(28) D(29) D(30)
    D(31)
#undef D
    "<reg name=\"fpscr\" bitsize=\"32\" type=\"int\" group=\"float\"/>\n"
    "</feature>\n"
    "</target>\n";

const char *gdb_target_xml(const struct task *t)
{
    return is64(t) ? xml_aarch64 : xml_arm;
}
