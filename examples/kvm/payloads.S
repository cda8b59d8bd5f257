/* SPDX-License-Identifier: GPL-2.0-or-later */
/* payloads.S - the guest code examples/kvm/vmm.c loads into its VM. Both
 * run at EL1 with the MMU off from the first byte of guest memory, and talk
 * to the VMM over MMIO at 0x09000000 (outside the memory slot):
 *   +0x00  byte writes: characters to print
 *   +0x08  8-byte write: a value to print in hex
 *   +0x10  4-byte read: the VMM answers 42
 *   +0x18  4-byte write: a value to print in decimal
 *   +0x20  any write: the payload is done (used from AArch32 EL0)
 * spin never stops: the VMM's KVM_RUN ends only on a signal. */
        .section .rodata
        .balign 4

/* hello: prints a line, reports ID_AA64PFR0_EL1 (V2), reads a value from the
 * VMM and writes it back, then PSCI SYSTEM_OFF. */
        .globl payload_hello, payload_hello_end
payload_hello:
        adr     x1, 3f
        movz    x2, #0x0900, lsl #16
1:      ldrb    w3, [x1], #1
        cbz     w3, 2f
        strb    w3, [x2]
        b       1b
2:      mrs     x4, id_aa64pfr0_el1
        str     x4, [x2, #8]
        ldr     w5, [x2, #16]
        add     w5, w5, #1
        str     w5, [x2, #24]
        movz    w0, #0x0008
        movk    w0, #0x8400, lsl #16
        hvc     #0
        b       .
3:      .asciz  "hello from the VM\n"
        .balign 4
payload_hello_end:

/* aarch32: returns to AArch32 EL0 (SPSR_EL1 = usr32, ARM state), where it
 * prints "A32\n" and writes the done register. The A32 code is
 * hand-assembled: mov r2, #0x09000000; mov r3, #'A'; strb r3, [r2]; ... */
        .globl payload_aarch32, payload_aarch32_end
payload_aarch32:
        adr     x0, 1f
        msr     elr_el1, x0
        mov     x0, #0x10
        msr     spsr_el1, x0
        eret
1:      .word   0xe3a02409      /* mov   r2, #0x09000000 */
        .word   0xe3a03041      /* mov   r3, #'A' */
        .word   0xe5c23000      /* strb  r3, [r2] */
        .word   0xe3a03033      /* mov   r3, #'3' */
        .word   0xe5c23000      /* strb  r3, [r2] */
        .word   0xe3a03032      /* mov   r3, #'2' */
        .word   0xe5c23000      /* strb  r3, [r2] */
        .word   0xe3a0300a      /* mov   r3, #'\n' */
        .word   0xe5c23000      /* strb  r3, [r2] */
        .word   0xe5823020      /* str   r3, [r2, #0x20] */
        .word   0xeafffffe      /* b     . */
payload_aarch32_end:

        .globl payload_spin, payload_spin_end
payload_spin:
        b       .
payload_spin_end:
