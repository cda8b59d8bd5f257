# SPDX-License-Identifier: GPL-2.0-or-later
# pyloop.py - a small pure-Python benchmark run with `python3.11 -S -c`:
# N rounds of dict updates, deletions and string building (about 8 dict or
# str operations each), then a checksum of the results, which every runner
# must print the same. Usage: python3.11 -S -c "$(cat pyloop.py)" N
import sys

n = int(sys.argv[1])
counts = {}
acc = 0
for i in range(n):
    key = "key%d" % (i % 4099)
    counts[key] = counts.get(key, 0) + i
    text = key.upper() + str(i)
    acc = (acc * 31 + len(text) + text.count("1")) & 0xFFFFFFFF
    if i % 7 == 0:
        counts.pop("key%d" % (i * 13 % 4099), None)
print(len(counts), sum(counts.values()) & 0xFFFFFFFF, acc)
