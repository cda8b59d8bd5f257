#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make-bad-elf.sh - writes malformed copies of two real guest programs for the
# bad-ELF end-to-end tests, each with one defect that asymu must name:
#   make-bad-elf.sh AARCH64-PROGRAM ARMHF-PROGRAM OUTDIR
# The offsets are those of the ELF headers; the script first checks that the
# programs have the layout it assumes (program headers right after the ELF
# header, PT_LOAD first on AArch64, EABI5 hard-float on ARM).
set -eu
[ $# -eq 3 ] || { echo "usage: make-bad-elf.sh AARCH64-PROGRAM ARMHF-PROGRAM OUTDIR" >&2; exit 2; }
a64=$1 arm=$2 out=$3

# peek FILE OFFSET COUNT: the COUNT bytes at OFFSET, in hex.
peek() { od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; }

# need FILE OFFSET HEX WHAT: stops unless FILE holds HEX at OFFSET.
need() {
    if [ "$(peek "$1" "$2" $((${#3} / 2)))" != "$3" ]; then
        echo "make-bad-elf: $1: expected $4 ($3 at offset $2); the offsets here need updating" >&2
        exit 1
    fi
}

# poke FILE OFFSET HEX: overwrites the bytes at OFFSET with HEX, in place.
poke() {
    hex=$3 bytes=
    while [ -n "$hex" ]; do
        bytes="$bytes\\$(printf '%03o' "0x${hex%"${hex#??}"}")"
        hex=${hex#??}
    done
    printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# variant SOURCE NAME OFFSET HEX: OUTDIR/NAME is SOURCE with HEX at OFFSET.
variant() {
    cp "$1" "$out/$2"
    poke "$out/$2" "$3" "$4"
}

need "$a64" 0 7f454c46020101 "an ELF64 little-endian identification"
need "$a64" 18 b700 "e_machine EM_AARCH64"
need "$a64" 32 4000000000000000 "e_phoff 64"
need "$a64" 54 3800 "e_phentsize 56"
need "$a64" 64 01000000 "PT_LOAD as program header 0"
need "$a64" 120 01000000 "PT_LOAD as program header 1"
need "$arm" 0 7f454c46010101 "an ELF32 little-endian identification"
need "$arm" 18 2800 "e_machine EM_ARM"
need "$arm" 36 00040005 "e_flags 0x5000400 (EABI5, hard-float)"

rm -rf "$out"
mkdir -p "$out/directory"
: >"$out/empty"
for n in 10 40 100 1000; do
    head -c $n "$a64" >"$out/truncated-$n"
done
head -c 1000 "$arm" >"$out/armhf-truncated-1000"

variant "$a64" class-none 4 00
variant "$a64" class-32 4 01
variant "$a64" big-endian 5 02
variant "$a64" type-rel 16 0100
variant "$a64" machine-x86-64 18 3e00
variant "$a64" phoff-overflow 32 00ffffffffffffff # e_phoff 0xffffffffffffff00
variant "$a64" no-phdrs 56 0000                   # e_phnum 0
# Program header 1 (at 64 + 56): p_vaddr 0x40c800 lands inside segment 0,
# keeping p_vaddr - p_offset a multiple of p_align; p_memsz 1 << 44.
variant "$a64" overlap 136 00c8400000000000
variant "$a64" huge-memsz 160 0000000000100000
variant "$arm" armhf-class-64 4 02
variant "$arm" armhf-soft-float 36 00020005 # e_flags 0x5000200: runs (Linux looks only
                                            # at the EABI version)
variant "$arm" armhf-oabi 36 00000000       # e_flags 0: the old ABI
