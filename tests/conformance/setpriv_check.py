#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-setpriv-ISA: Debian's setpriv (util-linux) in the guest root
changing ids and capability sets before it runs a program (issue 26 item 5;
emu/kernel/capability.c). setpriv uses capget and capset, PR_SET_KEEPCAPS,
PR_CAPBSET_DROP, PR_CAP_AMBIENT and setresuid/setresgid/setgroups; the
program it runs shows what reached it. The expected lines are what the
same commands print as root on Linux (checked on the host, whose root lacks
CAP_SYS_RESOURCE in its bounding set: 000001fffeffffff there).

Exit 77 (skipped) when the root has no setpriv.

usage: setpriv_check.py ASYMU ROOT
"""
import os
import subprocess
import sys

asymu, root = sys.argv[1:3]
for prog in ("usr/bin/setpriv", "usr/bin/id", "bin/cat"):
    if not os.path.exists(os.path.join(root, prog)):
        print(f"skipped: {root} has no {prog}")
        sys.exit(77)

NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"]
CASES = [
    # Down to nobody with no inheritable capabilities: id's answer.
    ("nobody", NOBODY + ["--inh-caps=-all", "/usr/bin/id"],
     None, "uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)\n"),
    # Root with a bounding set of CAP_CHOWN and CAP_NET_RAW: the execve of
    # cat gives exactly those (cap_bprm_creds_from_file()).
    ("bounding", ["--bounding-set=-all,+net_raw,+chown", "--inh-caps=-all", "/bin/cat",
                  "/proc/self/status"],
     ("Uid", "Gid", "Cap"),
     "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
     "CapInh:\t0000000000000000\nCapPrm:\t0000000000002001\nCapEff:\t0000000000002001\n"
     "CapBnd:\t0000000000002001\nCapAmb:\t0000000000000000\n"),
    # nobody keeping CAP_NET_RAW as an ambient capability across the execve.
    ("ambient", NOBODY + ["--inh-caps=+net_raw", "--ambient-caps=+net_raw", "/bin/cat",
                          "/proc/self/status"],
     ("Uid", "Gid", "Groups", "Cap"),
     "Uid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nGroups:\t \n"
     "CapInh:\t0000000000002000\nCapPrm:\t0000000000002000\nCapEff:\t0000000000002000\n"
     "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000002000\n"),
]

failed = []
for name, args, keep, expected in CASES:
    r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--",
                        os.path.join(root, "usr/bin/setpriv")] + args,
                       capture_output=True, text=True, timeout=120)
    out = r.stdout
    if keep:
        out = "".join(l for l in out.splitlines(keepends=True) if l.startswith(keep))
    if r.returncode != 0 or out != expected:
        failed.append(f"{name}: setpriv {' '.join(args)}\nstatus {r.returncode}\n"
                      f"expected:\n{expected}got:\n{out}\nstderr:\n{r.stderr[-2000:]}")
    else:
        print(f"ok: {name}")
if failed:
    sys.exit("FAIL:\n" + "\n".join(failed))
