#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The worked example of docs/tracing.md ("With rt-app"): Debian's rt-app
1.0 runs examples/rtapp/light-heavy.json on a machine of capacity-512 and
capacity-1024 vCPUs, traced as a trace.dat, and `asymu report` of it must
print exactly what the document shows (the commands are the document's,
run in a directory of their own), so the document stays true.

usage: rtapp_report_doc.py ASYMU ROOT DOC WORKLOAD
"""
import os
import subprocess
import sys
import tempfile

asymu, root, doc, workload = sys.argv[1:5]
if not os.path.exists(os.path.join(root, "usr/bin/rt-app")):
    print(f"skipped: {root} has no usr/bin/rt-app")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp, open(workload) as stdin:
    run = subprocess.run(["env", "-i", asymu, "run", "--sysroot", root, "--cwd", "/tmp",
                          "--seed", "1", "--cpus", "8", "--capacity", "0-3=512,4-7=1024",
                          "--trace", "rt.dat", "--trace-format", "dat", "--", "/bin/sh", "-c",
                          "cat > rt.json && rt-app rt.json 2>/dev/null"],
                         stdin=stdin, capture_output=True, text=True, cwd=tmp, timeout=120)
    if run.returncode != 0:
        sys.exit(f"FAIL: the run exited {run.returncode}\n{run.stdout}{run.stderr}")
    report = subprocess.run([asymu, "report", "rt.dat"], capture_output=True, text=True,
                            cwd=tmp, timeout=120)
if report.returncode != 0:
    sys.exit(f"FAIL: asymu report exited {report.returncode}\n{report.stderr}")
if "```\n" + report.stdout + "```\n" not in open(doc).read():
    sys.exit(f"FAIL: {doc} does not show this report (paste it in the rt-app example):\n"
             f"{report.stdout}")
print("ok: the document shows the report of its rt-app example")
