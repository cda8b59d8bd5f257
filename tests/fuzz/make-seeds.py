#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make-seeds.py - writes the seed corpora of tests/fuzz/corpus/ (committed;
run again after changing an input format): small, valid inputs that reach
deep into each harness, from which libFuzzer mutates; and the input
sequences of tests/fuzz/regress/, which fuzz-NAME-regress replays in order.
    tests/fuzz/make-seeds.py [CORPUS-DIR [REGRESS-DIR]]"""
import os
import struct
import sys

here = os.path.dirname(__file__)
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus")
regress = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "regress")


def write(harness, name, data, root=None):
    os.makedirs(os.path.join(root or out, harness), exist_ok=True)
    with open(os.path.join(root or out, harness, name), "wb") as f:
        f.write(data)


# ---- loader: minimal ELF images of both classes, and broken ones ----
PT_LOAD, PT_INTERP, PT_GNU_STACK = 1, 3, 0x6474E551


def elf64(etype=2, interp=None):
    phdrs = [(PT_LOAD, 5, 0, 0x400000, 0x1000, 0x1000)]
    if interp:
        phdrs.append((PT_INTERP, 4, 0, 0, len(interp) + 1, len(interp) + 1))
    phdrs.append((PT_GNU_STACK, 6, 0, 0, 0, 0))
    ehdr_size, phdr_size = 64, 56
    body_off = ehdr_size + phdr_size * len(phdrs)
    body = b"\x01\x00\x00\xd4" + ((interp + b"\0") if interp else b"")  # svc #0
    ident = b"\x7fELF\x02\x01\x01" + bytes(9)
    ehdr = ident + struct.pack("<HHIQQQIHHHHHH", etype, 183, 1, 0x400000 + body_off,
                               ehdr_size, 0, 0, ehdr_size, phdr_size, len(phdrs), 64, 0, 0)
    ph = b""
    for (typ, flags, off, vaddr, filesz, memsz) in phdrs:
        if typ == PT_LOAD:
            filesz = memsz = body_off + len(body)
        if typ == PT_INTERP:
            off, vaddr = body_off + 4, 0x400000 + body_off + 4
        ph += struct.pack("<IIQQQQQQ", typ, flags, off, vaddr, vaddr, filesz, memsz, 0x1000)
    return ehdr + ph + body


def elf32_arm():
    ehdr_size, phdr_size = 52, 32
    body_off = ehdr_size + phdr_size
    body = b"\x00\x00\x00\xef"  # svc #0
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    ehdr = ident + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0x10000 + body_off, ehdr_size, 0,
                               0x05000400, ehdr_size, phdr_size, 1, 40, 0, 0)
    size = body_off + len(body)
    ph = struct.pack("<IIIIIIII", PT_LOAD, 0, 0x10000, 0x10000, size, size, 5, 0x1000)
    return ehdr + ph + body


write("loader", "aarch64-exec", elf64())
write("loader", "aarch64-dyn-interp", elf64(etype=3, interp=b"/lib/ld-linux-aarch64.so.1"))
write("loader", "arm-exec", elf32_arm())
write("loader", "truncated-header", elf64()[:40])
write("loader", "not-elf", b"#!/bin/sh\n")

# ---- cpulist: 2 bytes of nr_cpus, then the list ----
for i, (n, text) in enumerate([(8, "0-3,6"), (8, ""), (4, "1,3"), (1024, "0-1023"),
                               (8, "3-1"), (8, "0-7:2"), (16, "0,2-4,15\n")]):
    write("cpulist", "list%d" % i, struct.pack("<H", n) + text.encode())

# ---- options: arguments of `asymu run` separated by NUL bytes ----
for i, args in enumerate([["--cpus", "4", "--aarch32", "0-1", "prog"],
                          ["--policy", "kill", "--seed", "7", "--max-mem", "64M", "prog", "arg"],
                          ["--capacity", "512,512,1024,1024", "--cpus=4", "prog"],
                          ["--help"], ["-L", "/usr/arm-linux-gnueabihf", "--strace", "prog"],
                          ["--soc", "sm8550", "--capacity", "0-2=100", "prog"],
                          ["--cpu-model", "0,2=cortex-a510,1,3=cortex-a710", "--aarch32", "0-1", "prog"],
                          ["--soc", "list"]]):
    write("options", "args%d" % i, b"\0".join(a.encode() for a in args))

# ---- sysfs: ISA byte, then (node, length, data) writes; nodes as fuzz_sysfs.c ----
def writes(isa, *ws):
    return bytes([isa]) + b"".join(bytes([node, len(d)]) + d for node, d in ws)


write("sysfs", "offline-online", writes(0, (5, b"0\n"), (6, b"0"), (5, b"1\n")))
write("sysfs", "offline-compat", writes(1, (1, b"0"), (2, b"0"), (3, b"0"), (0, b"0")))
write("sysfs", "kmsg-comm", writes(0, (8, b"<6>hello\n"), (9, b"renamed\n"), (14, b"x")))

# ---- syscall: ISA byte, scratch bytes, then calls (fuzz_syscall.c) ----
def small(v):
    return bytes([0, v & 0xFF])


def scratch(off):
    return bytes([1]) + struct.pack("<H", off)


def word(v):
    return bytes([2]) + struct.pack("<I", v & 0xFFFFFFFF)


def result(i):
    return bytes([5, i])


AT_FDCWD = bytes([6, 17])


def calls(isa, mem, *cs):
    mem = mem + bytes(-len(mem) % 16)
    out = bytes([isa, len(mem) // 16]) + mem
    for nr, *args in cs:
        args = list(args) + [small(0)] * (6 - len(args))
        out += struct.pack("<H", nr) + b"".join(args)
    return out


path = b"/proc/self/status\0"
NR = {0: dict(openat=56, read=63, write=64, close=57, pipe2=59, getpid=172, mmap=222,
              socket=198, epoll_create1=20, eventfd2=19, ppoll=73, prlimit64=261),
      1: dict(openat=322, read=3, write=4, close=6, pipe2=359, getpid=20, mmap=192,
              socket=281, epoll_create1=357, eventfd2=356, ppoll=336, prlimit64=369)}
RLIMIT_AS = 9
for isa, name in ((0, "aarch64"), (1, "armhf")):
    n = NR[isa]
    write("syscall", name + "-getpid", calls(isa, b"", (n["getpid"],)))
    write("syscall", name + "-open-read", calls(isa, path, (n["openat"], AT_FDCWD, scratch(0), small(0)),
                                                (n["read"], result(0), scratch(256), word(512))))
    write("syscall", name + "-pipe", calls(isa, b"", (n["pipe2"], scratch(0), small(0)),
                                           (n["write"], small(4), scratch(64), small(8)),
                                           (n["read"], small(3), scratch(128), small(8))))
    write("syscall", name + "-objects", calls(isa, b"", (n["socket"], small(1), small(1), small(0)),
                                              (n["epoll_create1"], small(0)),
                                              (n["eventfd2"], small(3), small(0)),
                                              (n["mmap"], small(0), word(4096), small(3),
                                               small(0x22), small(-1), small(0))))
    # An input leaving RLIMIT_AS at 0 (the zeroed scratch buffer as the new
    # limit) made the next input's scratch mapping fail: the harness aborted.
    write("syscall", name + "-01-rlimit-as-zero",
          calls(isa, b"", (n["prlimit64"], small(0), small(RLIMIT_AS), scratch(0), small(0))), regress)
    write("syscall", name + "-02-getpid", calls(isa, b"", (n["getpid"],)), regress)


# ---- scenario: the repository's scenarios, broken ones included ----
# Program names become the harness's two programs (fuzz_scenario.c puts
# their directory in $ASYMU_PROGRAMS), so that a seed gets past its tasks.
import glob
import re

root = os.path.join(here, "..", "..")
scenarios = sorted(glob.glob(os.path.join(root, "examples", "scenarios", "*.yaml")) +
                   glob.glob(os.path.join(root, "tests", "e2e", "scenarios", "*.yaml")) +
                   glob.glob(os.path.join(root, "tests", "e2e", "scenarios", "broken", "*.yaml")))
for path in scenarios:
    with open(path) as f:
        text = f.read()
    text = re.sub(r"\b[a-z][a-z0-9-]*?-(aarch64|armhf)\b", r"fuzz-target-\1", text)
    name = os.path.relpath(path, root).replace(os.sep, "-")
    write("scenario", name, text.encode())
# from: reads note.txt, which the harness places next to the scenario.
write("scenario", "from-note.yaml", b"""files:
  - {name: a, from: note.txt}
  - {name: b, text: "x"}
tasks:
  - {name: t, path: fuzz-target-aarch64, args: ["{{fuzz-target-armhf}}"], env: {A: b}}
events:
  - {at: 1ms, stdin: {task: t, data: "x"}}
  - {on: exit of t, write: {path: /sys/devices/system/cpu/cpu1/online, data: "0"}}
expect:
  - {task: t, exit: 0, stdout_matches: "^a+$"}
""")
# Issue 30's refusals near their bounds (the broken/ files above seed the
# others): two {{NAME}} in an argument, a variable twice in env, a slice
# count at and just past 2^64 - 1 ns, a second document.
write("scenario", "issue30-two-programs.yaml", b"""tasks:
  - {name: t, path: fuzz-target-aarch64, args: ["{{fuzz-target-armhf}}:{{fuzz-target-aarch64}}x"]}
""")
write("scenario", "issue30-env-twice.yaml", b"""tasks:
  - {name: t, path: fuzz-target-aarch64, env: {A: a, B: b, A: c}}
""")
write("scenario", "issue30-after-overflow.yaml", b"""tasks:
  - {name: t, path: fuzz-target-aarch64}
events:
  - {after: 184467440737095 slices, offline: 1}
  - {after: 184467440737096 slices, offline: 2}
---
tasks: []
""")
# The cgroup key: a group with every file, a nested one below a group
# without processes, the root, and one named by path alone.
write("scenario", "issue30-cgroup.yaml", b"""tasks:
  - {name: t, path: fuzz-target-aarch64, cgroup: {path: /a/b, cpuset.cpus: 1-2, cpu.weight: 9,
     cpu.uclamp.min: 1.25, cpu.uclamp.max: max, cpu.max: "max 1000"}}
  - {name: u, path: fuzz-target-armhf, affinity: 0-1, cgroup: /c}
  - {name: v, path: fuzz-target-armhf, cgroup: /}
  - {name: w, path: fuzz-target-aarch64, cgroup: /a/b}
""")

# ---- recording: 'H' and input lines after this run's header, as
# fuzz_recording.c makes it; the lines of the e2e tests' recordings
# (tests/e2e/data/record-reader-*.rec, record.py's control session) ----
data = os.path.join(here, "..", "e2e", "data")
with open(os.path.join(data, "record-reader-aarch64.rec"), "rb") as f:
    kept = f.read().splitlines(keepends=True)
write("recording", "reader", b"H" + b"".join(kept[1:]))
write("recording", "whole-file", b"".join(kept))  # another run's header: refused
write("recording", "control", b"H" + b"".join(
    b'{"point":%d,"ns":%d,"control":"%s"}\n' % (p, ns, req)
    for p, ns, req in ((1, 0, b"stop"), (1, 0, b"trace off"), (1, 0, b"step 3"),
                       (4, 40000, b"trace on"), (4, 40000, b"offline 3"),
                       (4, 40000, b"signal 1 SIGTERM"), (4, 40000, b"cont"))) +
    b'{"point":9,"ns":90000,"end":143}\n')
write("recording", "signal-write", b"H" +
      b'{"point":2,"ns":100,"signal":"SIGINT"}\n'
      b'{"point":2,"ns":100,"write":{"path":"/sys/devices/system/cpu/cpu2/online",'
      b'"data_hex":"300a"}}\n'
      b'{"point":2,"ns":100,"in_syscall":true,"stdin_eof":true}\n'
      b'{"point":2,"ns":100,"end":130}\n')
# issue 24, item 10: control lines a recording does not hold (refused at load)
write("recording", "control-refused", b"H" +
      b'{"point":1,"ns":0,"control":"step 1000000001"}\n'
      b'{"point":1,"ns":0,"control":"halt"}\n'
      b'{"point":2,"ns":100,"end":0}\n')

# gdb packets (fuzz_gdb.c): byte 0 is the ISA (bit 0) and the way in (bit 1:
# framed bytes), then packets as tests/e2e/gdbstub.py sends them.
def frame(p):
    return b"$" + p + b"#%02x" % (sum(p) % 256)


GDB_COMMON = [b"qSupported:multiprocess+;fork-events+;exec-events+;swbreak+", b"?", b"vCont?",
              b"qfThreadInfo", b"qC", b"qThreadExtraInfo,p1.1", b"Hgp1.1",
              b"qXfer:features:read:target.xml:0,3fff", b"qXfer:threads:read::0,fff", b"g",
              b"m400000,4", b"M400000,4:00000000", b"X400000,1:}", b"Z0,400100,4", b"z0,400100,4",
              b"vCont;s:p1.1", b"D;1", b"Tp1.1"]
GDB_ISA = {0: [b"p21", b"P21=05000000", b"P21=000000f0", b"P0=0100000000000000",
               b"G" + b"00" * 788],
           1: [b"p19", b"P19=00000000", b"P19=10000080", b"P0=01000000", b"G" + b"00" * 328]}
for isa, name in ((0, "aarch64"), (1, "armhf")):
    pkts = GDB_COMMON + GDB_ISA[isa]
    write("gdb", name + "-packets", bytes([isa]) + b"\n".join(pkts))
    write("gdb", name + "-framed", bytes([isa | 2]) + b"".join(frame(p) for p in pkts) + b"+-\x03")
    write("gdb", name + "-regs", bytes([isa]) + b"\n".join(GDB_ISA[isa] + [b"g"]))
    write("gdb", name + "-kill", bytes([isa]) + b"?\nvKill;1\n?")

# control requests (fuzz_control.c): byte 0 is the ISA, then request lines
# as tests/e2e/control.py sends them.
CONTROL = [b"ps", b"cpus", b"dmesg", b"regs 1", b"mem 1 4194304 16", b"stop", b"cont",
           b"stop 1", b"cont 1", b"step 3", b"offline 5", b"online 5", b"setaffinity 1 0-3",
           b"signal 1 0", b"trace on", b"trace off", b"unknown", b"regs 99999",
           b"mem 1 0 4097"]
for isa, name in ((0, "aarch64"), (1, "armhf")):
    write("control", name + "-requests", bytes([isa]) + b"\n".join(CONTROL))
    write("control", name + "-kill", bytes([isa]) + b"ps\nsignal 1 9\nps")
