#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""trace_freq_check.py ASYMU GUEST_DIR OUT - power:cpu_frequency (issue 28
item 1, docs/tracing.md): schedutil's steps as the kernel traces them. The
hog of e2e-sched-27-5-schedutil-hog (sched-fair freq 7 400 on --soc sm8550:
asleep, cpu 7's domain drops to its lowest OPP; a 400 ms hog raises it step
by step to the top; the program's end lets it drop again) is traced as the
ftrace text and as a trace.dat. The text passes ftrace_check.py (Perfetto's
rules); cpu 7's cpu_frequency lines are exactly the OPPs the guest's own
scaling_cur_freq reads at both ends, in that order; trace-cmd report of the
trace.dat shows the same events at the same times."""
import os
import re
import subprocess
import sys

from checks import check, exit_with_verdict

asymu, guest_dir, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
text, dat = os.path.join(out, "freq.txt"), os.path.join(out, "freq.dat")
for path, fmt in ((text, "ftrace"), (dat, "dat")):
    r = subprocess.run([asymu, "run", "--soc", "sm8550", "--seed", "1", "--trace", path,
                        "--trace-format", fmt, "--", f"{guest_dir}/sched-fair-aarch64", "freq", "7",
                        "400"], capture_output=True, text=True, timeout=120)
    check(f"the guest's scaling_cur_freq ({fmt})",
          "aarch64: cpu 7 after sleeping: 595200 kHz\naarch64: cpu 7 after a 400 ms hog: 3187200 kHz\n",
          r.stdout)
here = os.path.dirname(os.path.abspath(__file__))
r = subprocess.run([sys.executable, os.path.join(here, "ftrace_check.py"), text],
                   capture_output=True, text=True)
check("ftrace_check.py (Perfetto's rules)", 0, r.returncode)
EVENT = re.compile(r"\[(\d+)\].*?\s(\d+\.\d+): cpu_frequency:\s+state=(\d+) cpu_id=(\d+)$")


def events(lines):
    return [m.groups() for m in map(EVENT.search, lines) if m]


in_text = events(open(text).read().splitlines())
cpu7 = [int(state) for _, _, state, cpu in in_text if cpu == "7"]
# sm8550's X3 OPPs from the lowest up (sched/soc presets), then down again.
check("cpu 7's frequencies", [595200, 729600, 864000, 998400, 1132800, 1248000, 1363200, 1478400,
                              1593600, 1708800, 1843200, 1977600, 2092800, 2227200, 2342400,
                              2476800, 2592000, 2726400, 2841600, 2956800, 3187200, 595200], cpu7)
# -t: nanoseconds, cut to the text's microseconds as the kernel cuts them.
report = subprocess.run(["trace-cmd", "report", "-t", dat], capture_output=True, text=True)
check("trace-cmd report's status", 0, report.returncode)
NS = re.compile(r"(\d+\.\d{6})\d{3}:")
in_dat = events(NS.sub(r"\1:", line) for line in report.stdout.splitlines())
check("trace.dat: the same cpu_frequency events", in_text, in_dat)
exit_with_verdict()
