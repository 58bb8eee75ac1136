#!/usr/bin/env python3
"""Peer driver for Python imagesize and Pillow's lazy Image.open(...).size.

usage: python_probe.py imagesize|pillow time MS FILE... | minbytes FILE...
"""
import io
import sys
import time
import warnings

warnings.simplefilter("ignore")


def prober(library):
    if library == "imagesize":
        import imagesize

        def probe(data):
            w, h = imagesize.get(io.BytesIO(data))
            return (w, h) if w > 0 and h > 0 else None
    else:
        from PIL import Image

        Image.MAX_IMAGE_PIXELS = None

        def probe(data):
            try:
                with Image.open(io.BytesIO(data)) as image:
                    return image.size
            except Exception:
                return None
    return probe


SUFFIXES = [b"0" * 16, b"\xff" * 16, bytes([0x9A, 0x11, 0xE3, 0x42, 0x07, 0xC8, 0x5D, 0x2B, 0x76, 0xF0, 0x38, 0x81, 0x4E,
                                          0xD9, 0x13, 0x6C]), b"\x01" * 16]


def same_answer(probe, data, answer):
    try:
        return probe(data) == answer
    except Exception:
        return False


def main():
    library, command = sys.argv[1], sys.argv[2]
    probe = prober(library)
    files = sys.argv[4:] if command == "time" else sys.argv[3:]
    for path in files:
        data = open(path, "rb").read()
        try:
            answer = probe(data)
        except Exception:
            answer = None
        if answer is None:
            print(f"{path}\t-1\t-1\t-1")
            continue
        if command == "time":
            budget = float(sys.argv[3]) * 1e6
            start = time.perf_counter_ns()
            iterations = 0
            while time.perf_counter_ns() - start < budget:
                for _ in range(4):
                    probe(data)
                iterations += 4
            print(f"{path}\t{(time.perf_counter_ns() - start) / iterations:.1f}\t{answer[0]}\t{answer[1]}")
        else:
            low, high = 1, len(data)
            while low < high:
                middle = (low + high) // 2
                same = same_answer(probe, data[:middle], answer)
                if same and command == "robustbytes":
                    same = all(same_answer(probe, data[:middle] + suffix, answer) for suffix in SUFFIXES)
                if same:
                    high = middle
                else:
                    low = middle + 1
            print(f"{path}\t{low}\t{answer[0]}\t{answer[1]}")


if __name__ == "__main__":
    main()
