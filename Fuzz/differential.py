#!/usr/bin/env python3
"""Writes pack files of generated inputs for differential testing (Fuzz/differential.sh):
seed files, truncated, mutated and spliced with a seeded random generator.

    Fuzz/differential.py OUT_DIR COUNT SEED [SEED_DIR_OR_FILE...]

A pack is a sequence of inputs, each a 32-bit little-endian length and its bytes; each pack
file holds up to 10,000 inputs (pack-0000.bin, pack-0001.bin...)."""
import os
import random
import struct
import sys

INTERESTING = [0, 1, 2, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


def seeds(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    found.append(os.path.join(root, name))
        elif os.path.isfile(path):
            found.append(path)
    data = []
    for path in sorted(found):
        with open(path, "rb") as file:
            head = file.read(256 * 1024)
        if head:
            data.append(head)
    return data


def mutate(rng, data, pool):
    data = bytearray(data)
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5, 8])):
        if not data:
            break
        kind = rng.randrange(8)
        at = rng.randrange(len(data))
        if kind == 0:  # flip bits
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:  # a random byte
            data[at] = rng.randrange(256)
        elif kind == 2:  # an interesting 8/16/32-bit value, either byte order
            value = rng.choice(INTERESTING) & 0xFFFFFFFF
            width = rng.choice([1, 2, 4])
            packed = value.to_bytes(4, rng.choice(["big", "little"]))[:width] if width < 4 else value.to_bytes(4, rng.choice(["big", "little"]))
            data[at:at + width] = packed
        elif kind == 3:  # insert bytes
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        elif kind == 4:  # delete a range
            del data[at:at + rng.randrange(1, 33)]
        elif kind == 5:  # repeat a range
            end = min(len(data), at + rng.randrange(1, 65))
            data[at:at] = data[at:end]
        elif kind == 6:  # splice another seed's bytes in
            other = rng.choice(pool)
            start = rng.randrange(len(other))
            data[at:] = other[start:start + rng.randrange(1, 4096)]
        else:  # truncate
            del data[at:]
    if data and rng.random() < 0.5:
        del data[rng.randrange(1, len(data) + 1):]
    return bytes(data)


def main():
    out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pool = seeds(sys.argv[4:])
    if not pool:
        sys.exit("differential.py: no seed inputs")
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    written = 0
    while written < count:
        with open(os.path.join(out, f"pack-{written // 10000:04d}.bin"), "wb") as pack:
            for _ in range(min(10000, count - written)):
                base = rng.choice(pool)
                # Headers are what the scanner reads: most inputs are a prefix.
                if rng.random() < 0.8:
                    base = base[:rng.choice([64, 512, 4096, 16384, 65536])]
                data = base if rng.random() < 0.05 else mutate(rng, base, pool)
                pack.write(struct.pack("<I", len(data)) + data)
                written += 1
    print(f"differential.py: {written} inputs from {len(pool)} seeds in {out}")


main()
