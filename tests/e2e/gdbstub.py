#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gdbstub.py ASYMU GUEST_DIR ISA CASE [GDB] - the gdb stub end to end
(docs/ptrace.md): asymu runs tests/guest/stub-target-ISA under
`--gdb 0 --gdb-wait`, this script reads the port it printed and either
drives Debian's gdb-multiarch in batch mode (CASE break, fork-exec, signal,
fault)
or speaks the protocol itself with malformed and hostile packets (CASE
packets). Each check compares an exact value; the run's own output and
exit status are checked too."""
import os
import re
import socket
import subprocess
import sys

from checks import check, exit_with_verdict

asymu, guest_dir, isa, case = sys.argv[1:5]
guest_dir = os.path.abspath(guest_dir)  # asymu reports the absolute path of an exec
gdb = sys.argv[5] if len(sys.argv) > 5 else "gdb-multiarch"
other = "armhf" if isa == "aarch64" else "aarch64"
program = f"{guest_dir}/stub-target-{isa}"
bits = {"aarch64": 64, "armhf": 32}


def start(*guest_args):
    """asymu with the stub; (process, port)."""
    run = subprocess.Popen([asymu, "run", "--cpus", "8", "--aarch32", "0-3", "--gdb", "0",
                            "--gdb-wait", "--", program, *guest_args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = run.stderr.readline()
    m = re.match(r"asymu: gdb stub listening on 127\.0\.0\.1:(\d+)$", line.strip())
    if not m:
        print(f"FAIL: no port line, got {line!r}")
        run.kill()
        sys.exit(1)
    return run, int(m.group(1))


def finish(run, status, stdout):
    out, err = run.communicate(timeout=120)
    check("asymu's exit status", status, run.returncode)
    check("the guest's output", stdout, out)
    check("asymu's stderr after the port line", "", err)


def run_gdb(port, *commands):
    args = [gdb, "-batch", "-nx", "-ex", "set width 0", "-ex", "set confirm off",
            "-ex", f"target remote 127.0.0.1:{port}"]
    for c in commands:
        args += ["-ex", c]
    p = subprocess.run(args + [program], capture_output=True, text=True, timeout=120)
    print(p.stdout + p.stderr)
    return p.stdout


def find(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        check(what, pattern, None)
        return None
    return m


def case_break():
    run, port = start()
    out = run_gdb(port, "break main", "continue", "info registers pc", "print counter",
                  "next", "print counter", "x/2i $pc", "stepi", "info registers pc",
                  "info threads", "continue")
    bp = find(r"^Breakpoint 1 at (0x[0-9a-f]+): file .*stub-target\.c, line 30\.$", out,
              "breakpoint at main")
    find(r"^Breakpoint 1, main \(argc=1, argv=0x[0-9a-f]+\) at .*stub-target\.c:30$", out,
         "stops at main")
    pcs = re.findall(r"^pc +(0x[0-9a-f]+) ", out, re.M)
    check("pcs read", 2, len(pcs))
    if bp and len(pcs) == 2:
        check("pc at the breakpoint", bp.group(1), pcs[0])
    check("the global before", "$1 = 41", find(r"^\$1 = .*$", out, "$1").group(0))
    find(r"^31\t    printf\(", out, "next: the next line")
    check("the global after next", "$2 = 42", find(r"^\$2 = .*$", out, "$2").group(0))
    # stepi lands on the instruction after the one x/2i listed first
    insns = re.findall(r"^(?:=> )? *(0x[0-9a-f]+) <main\+\d+>:", out, re.M)
    if len(insns) >= 2 and len(pcs) == 2:
        check("stepi: the next instruction", insns[1], pcs[1])
    extra = "cpu0 affinity 0-7" if isa == "aarch64" else "cpu0 affinity 0-3"
    find(rf'^\* 1 +Thread 1\.1 "stub-target-[a-z0-9]+" \({extra}\) (0x[0-9a-f]+ in )?main ', out,
         "info threads: vCPU and affinity")
    find(r"^\[Inferior 1 \(process 1\) exited with code 03\]$", out, "exit code")
    finish(run, 3, f"counter 42 ({bits[isa]}-bit)\n")


def case_fork_exec():
    target = f"{guest_dir}/stub-target-{other}"
    run, port = start("fork-exec", target)
    out = run_gdb(port, "set follow-fork-mode child", "catch exec", "continue",
                  "show architecture", "break stub-target.c:30", "continue", "print counter",
                  "print sizeof(long)", "continue")
    find(r"^\[Attaching after Thread 1\.1 fork to child Thread 2\.2\]$", out, "follows the fork")
    find(r"^\[Detaching after fork from parent process 1\]$", out, "detaches the parent")
    find(rf"^process 2 is executing new program: {re.escape(target)}$", out, "exec event")
    find(rf"hit Catchpoint 1 \(exec'd {re.escape(target)}\)", out, "catch exec")
    arch = "aarch64" if other == "aarch64" else "arm"
    find(rf'^The target architecture is set to "auto" \(currently "{arch}', out,
         "architecture after exec")
    find(r"hit Breakpoint 2(\.\d)?, main \(argc=1, argv=0x[0-9a-f]+\) at .*stub-target\.c:30$",
         out, "breaks in the new program")
    check("the new program's global", "$1 = 41", find(r"^\$1 = .*$", out, "$1").group(0))
    check("the new program's long", f"$2 = {bits[other] // 8}",
          find(r"^\$2 = .*$", out, "$2").group(0))
    find(r"^\[Inferior 2 \(process 2\) exited with code 03\]$", out, "the child's exit")
    finish(run, 5, f"counter 42 ({bits[isa]}-bit)\ncounter 42 ({bits[other]}-bit)\n"
                   "child exited with 3\n")


def case_signal():
    run, port = start("signal")
    out = run_gdb(port, "continue", "print $_siginfo.si_signo", "continue")
    find(r"^Program received signal SIGUSR1, User defined signal 1\.$", out, "stops on SIGUSR1")
    find(r"^\[Inferior 1 \(process 1\) exited with code 03\]$", out, "exit code")
    finish(run, 3, f"counter 42 ({bits[isa]}-bit)\nhandler caught 10\n")


def case_fault():
    run, port = start("fault")
    out = run_gdb(port, "continue", "continue")
    find(r"^Program received signal SIGSEGV, Segmentation fault\.$", out, "stops on the fault")
    find(r"^Program terminated with signal SIGSEGV, Segmentation fault\.$", out,
         "the fault ends it")
    finish(run, 139, f"counter 42 ({bits[isa]}-bit)\n")


class Client:
    """The protocol by hand: raw bytes out, raw bytes in."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def send(self, raw):
        self.s.sendall(raw)

    def packet(self, payload, checksum=None):
        data = payload.encode("latin-1") if isinstance(payload, str) else payload
        cs = sum(data) % 256 if checksum is None else checksum
        self.send(b"$" + data + b"#%02x" % cs)

    def read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def reply(self):
        """The next packet's payload (escapes undone), checking its checksum."""
        while self.read(1) != b"$":
            pass
        data = b""
        while (c := self.read(1)) != b"#":
            data += c
        cs = int(self.read(2), 16)
        check("a reply's checksum", sum(data) % 256, cs)
        return re.sub(rb"\}(.)", lambda m: bytes([m.group(1)[0] ^ 0x20]), data,
                      flags=re.S).decode("latin-1")

    def ask(self, payload):
        """A packet in ack mode: its '+', then its reply."""
        self.packet(payload)
        check(f"{payload[:40]!r} acknowledged", b"+", self.read(1))
        return self.reply()


def case_packets():
    run, port = start()
    c = Client(port)
    base = 0x400000 if isa == "aarch64" else 0x10000
    c.packet("g", checksum=0)
    check("a bad checksum gets '-'", b"-", c.read(1))
    sup = c.ask("qSupported:multiprocess+;fork-events+;exec-events+;swbreak+")
    for f in ("PacketSize=4000", "QStartNoAckMode+", "multiprocess+", "swbreak+",
              "qXfer:features:read+", "qXfer:threads:read+", "vContSupported+", "fork-events+",
              "exec-events+"):
        check(f"qSupported has {f}", True, f in sup.split(";"))
    check("an unknown packet gets the empty reply", "", c.ask("jUnknown"))
    check("?", "T05thread:p1.1;", c.ask("?"))
    check("vCont?", "vCont;c;C;s;S", c.ask("vCont?"))
    check("qfThreadInfo", "mp1.1", c.ask("qfThreadInfo"))
    check("qsThreadInfo", "l", c.ask("qsThreadInfo"))
    check("qC", "QCp1.1", c.ask("qC"))
    extra = "cpu0 affinity 0-7" if isa == "aarch64" else "cpu0 affinity 0-3"
    check("qThreadExtraInfo", extra.encode().hex(), c.ask("qThreadExtraInfo,p1.1"))
    check("T of a live thread", "OK", c.ask("Tp1.1"))
    check("T of no thread", "E03", c.ask("Tp1.7"))
    check("Hg of no thread", "E03", c.ask("Hgp63.63"))
    check("Hg malformed", "E01", c.ask("Hgpzz"))
    check("Hg of the thread", "OK", c.ask("Hgp1.1"))
    xml = c.ask("qXfer:features:read:target.xml:0,3fff")
    feature = "org.gnu.gdb.aarch64.core" if isa == "aarch64" else "org.gnu.gdb.arm.core"
    check("target.xml in one part", "l", xml[:1])
    check(f"target.xml names {feature}", True, feature in xml)
    check("target.xml past its end", "l", c.ask("qXfer:features:read:target.xml:ffff,10"))
    check("another annex", "E00", c.ask("qXfer:features:read:other.xml:0,100"))
    check("qXfer malformed", "E01", c.ask("qXfer:features:read:target.xml:zz"))
    regs = c.ask("g")
    check("g: all registers", 788 * 2 if isa == "aarch64" else 328 * 2, len(regs))
    pc_reg = 32 if isa == "aarch64" else 15
    check("p of the pc", regs[pc_reg * 16:pc_reg * 16 + 16] if isa == "aarch64"
          else regs[60 * 2:64 * 2], c.ask(f"p{pc_reg:x}"))
    check("p of no register", "E01", c.ask("p3e8"))
    check("p malformed", "E01", c.ask("pzz"))
    check("p huge", "E01", c.ask("pffffffffffffffffff"))
    check("P of a wrong size", "E01", c.ask("P0=00"))
    check("G too long", "E01", c.ask("G" + "00" * 2000))
    check("m of the ELF header", "7f454c46", c.ask(f"m{base:x},4"))
    check("m at address 0", "E0e", c.ask("m0,10"))
    check("m at the top of the address space", "E0e", c.ask("mffffffffffffff00,100"))
    check("m past 64 bits", "E01", c.ask("m10000000000000000,4"))
    check("m malformed", "E01", c.ask("m400000"))
    check("m of a huge length: one packet's worth", 0x4000,
          len(c.ask(f"m{base:x},ffffffffffffffff")))
    check("M at address 0", "E0e", c.ask("M0,4:00000000"))
    check("M of the wrong length", "E01", c.ask(f"M{base:x},4:00"))
    check("M not hex", "E01", c.ask(f"M{base:x},1:zz"))
    check("X wrapping the address space", "E0e", c.ask("Xffffffffffffffff,2:ab"))
    check("X with a cut escape", "E01", c.ask(f"X{base:x},1:}}"))
    check("Z0", "OK", c.ask(f"Z0,{base + 0x100:x},4"))
    check("z0", "OK", c.ask(f"z0,{base + 0x100:x},4"))
    check("Z1 (hardware) is not supported", "", c.ask(f"Z1,{base:x},4"))
    check("Z0 malformed", "E01", c.ask("Z0,zz"))
    check("vCont malformed", "E01", c.ask("vCont;x"))
    check("D malformed", "E01", c.ask("D;zz"))
    # an overlong packet: acknowledged, then an error
    c.packet("a" * 20000)
    check("an overlong packet", b"+", c.read(1))
    check("its error", "E01", c.reply())
    # bytes between packets are ignored; '-' sends the last packet again
    c.send(b"garbage")
    check("after garbage", "OK", c.ask("Tp1.1"))
    c.send(b"-")
    check("'-' repeats the last reply", "OK", c.reply())
    check("QStartNoAckMode", "OK", c.ask("QStartNoAckMode"))
    c.packet("g", checksum=0)  # dropped without a word in no-ack mode
    c.packet("Tp1.1")
    check("no '+' in no-ack mode", "OK", c.reply())
    c.packet("vKill;1")
    check("vKill", "OK", c.reply())
    out, err = run.communicate(timeout=120)
    check("asymu's exit status after vKill", 137, run.returncode)
    check("the guest's output", "", out)
    check("asymu's stderr", "", err)


def case_sec_cpsr():
    """Issue 24 item 2: a status register Linux would refuse a tracer gets
    E16 (EINVAL) and changes nothing; `P19=00000000` aborted asymu."""
    run, port = start()
    c = Client(port)
    # gdb's cpsr: register 0x21 of AArch64 (PSTATE's low word), 0x19 of arm
    reg = "21" if isa == "aarch64" else "19"
    bad = (["05000000", "04000000", "10000000", "80000000", "c0030000", "ffffffff"]
           if isa == "aarch64" else
           ["00000000", "13000000", "1f000000", "d3010000", "90000000", "ffffffff"])
    before = c.ask("g")
    status = c.ask(f"p{reg}")
    for v in bad:
        check(f"P{reg}={v}", "E16", c.ask(f"P{reg}={v}"))
        check(f"P{reg}={v} changes nothing", before, c.ask("g"))
    # G with the status zeroed (arm) or EL1 (aarch64) and x0/r0 changed
    off = 264 * 2 if isa == "aarch64" else 64 * 2
    g = "34120000" + before[8:off] + bad[0] + before[off + 8:]
    check("G with a bad status", "E16", c.ask("G" + g))
    check("G refused changes nothing", before, c.ask("g"))
    # accepted: NZCV set; bits RES0 at EL0 (aarch64 PAN and bit 5, arm E
    # and bit 20) cleared as Linux's valid_user_regs clears them
    good, kept = (("200040f0", "000000f0") if isa == "aarch64" else ("10021080", "10000080"))
    check(f"P{reg}={good}", "OK", c.ask(f"P{reg}={good}"))
    check("the status read back", kept, c.ask(f"p{reg}"))
    check("the status restored", "OK", c.ask(f"P{reg}={status}"))
    c.packet("c")
    check("c acknowledged", b"+", c.read(1))
    check("the program exits as without gdb", "W03", c.reply())
    finish(run, 3, f"counter 42 ({bits[isa]}-bit)\n")


def ipv6_works():
    try:
        socket.socket(socket.AF_INET6, socket.SOCK_STREAM).close()
        return True
    except OSError:
        return False


def connect(port, v6):
    """A connection to the stub: from an IPv4 socket, or from an IPv6 one
    to ::ffff:127.0.0.1 (its socket is then in /proc/net/tcp6)."""
    if not v6:
        return socket.create_connection(("127.0.0.1", port), timeout=30)
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(("::ffff:127.0.0.1", port))
    return s


def case_sec_peer_uid():
    """Issue 24 item 5: a connection from another user's socket is closed
    unanswered (and said on stderr); asymu's own user's is served. Over
    IPv4, and from IPv6 sockets too where the host has IPv6."""
    if os.geteuid() != 0:
        print("SKIP: needs root, to connect as another user")
        sys.exit(77)
    run, port = start()
    v6 = ipv6_works()
    # Python resolves host strings with its idna codec, imported on first
    # use: once nobody, the child may not read the interpreter's library.
    "127.0.0.1".encode("idna")
    print(f"IPv6 sockets: {v6}")
    for family in ([False, True] if v6 else [False]):
        child = os.fork()
        if child == 0:
            refused = 1
            try:
                os.setgid(65534)
                os.setuid(65534)  # nobody
                s = connect(port, family)
                s.sendall(b"$?#3f")
                try:
                    refused = 0 if s.recv(100) == b"" else 2
                except ConnectionResetError:
                    refused = 0
            finally:
                os._exit(refused)
        _, st = os.waitpid(child, 0)
        how = "an IPv6 socket" if family else "an IPv4 socket"
        check(f"nobody's connection from {how}: closed without a reply", 0,
              os.waitstatus_to_exitcode(st))
        if os.waitstatus_to_exitcode(st) != 0:
            run.kill()  # served: no refusal line will come
            exit_with_verdict()
        check(f"the refusal on stderr ({how})",
              "asymu: gdb stub: refused a connection from 127.0.0.1:PORT: it is uid 65534's, "
              "and only uid 0 may debug",
              re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", run.stderr.readline().strip()))
    c = Client.__new__(Client)
    c.s, c.buf = connect(port, v6), b""
    check("root's connection is served", "T05thread:1;", c.ask("?"))
    c.packet("c")
    check("c acknowledged", b"+", c.read(1))
    check("the program exits", "W03", c.reply())
    finish(run, 3, f"counter 42 ({bits[isa]}-bit)\n")


{"break": case_break, "fork-exec": case_fork_exec, "signal": case_signal,
 "fault": case_fault, "packets": case_packets, "sec-cpsr": case_sec_cpsr,
 "sec-peer-uid": case_sec_peer_uid}[case]()
exit_with_verdict()
