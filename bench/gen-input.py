#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-input.py OUT SIZE - writes SIZE bytes of compressor input to OUT, the
same bytes on every machine and Python 3 version (random.Random with an
integer seed, getrandbits and randbytes are stable across versions).

The input mixes runs of English-like text (words drawn from a vocabulary of
made-up words with a skewed frequency, in lines of varying length), which
the compressors shrink several times over, with runs of random bytes, which
they cannot shrink: about three quarters text, one quarter random, in runs of
4-64 KiB, so a compressor spends its time both matching and giving up."""
import os
import random
import sys

SEED = 20261203


def vocabulary(rng, n=4000):
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    # Common letters first: a skewed choice gives text-like letter counts.
    weights = [26 - i for i in range(26)]
    return ["".join(rng.choices(letters, weights, k=rng.randint(1, 11))) for _ in range(n)]


def text_run(rng, words, cum, size):
    out = []
    length = 0
    while length < size:
        line = " ".join(rng.choices(words, cum_weights=cum, k=rng.randint(3, 16)))
        line = line[0].upper() + line[1:] + ".\n"
        out.append(line)
        length += len(line)
    return "".join(out).encode()[:size]


def generate(size):
    rng = random.Random(SEED)
    words = vocabulary(rng)
    # Zipf-like: the k-th word is 1/k as frequent as the first.
    cum = []
    total = 0.0
    for k in range(1, len(words) + 1):
        total += 1.0 / k
        cum.append(total)
    chunks = []
    left = size
    while left > 0:
        n = min(left, rng.randint(4096, 65536))
        if rng.random() < 0.25:
            chunks.append(rng.randbytes(n))
        else:
            chunks.append(text_run(rng, words, cum, n))
        left -= n
    return b"".join(chunks)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-input.py OUT SIZE")
    out, size = sys.argv[1], int(sys.argv[2])
    data = generate(size)
    tmp = out + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
