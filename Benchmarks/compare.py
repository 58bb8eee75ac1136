#!/usr/bin/env python3
"""Side-by-side comparison of ImageProbe with peer libraries on one corpus, in one run.

Called by Benchmarks/compare.sh, which builds the peers. Every peer driver speaks one protocol:
  TOOL time MS FILE...      -> path<TAB>ns per probe<TAB>width<TAB>height  (-1s when it fails)
  TOOL minbytes FILE...     -> path<TAB>smallest prefix giving the whole-file answer<TAB>w<TAB>h
  TOOL repeat N FILE...     -> runs the probes N times (for callgrind; ImageProbe, stb, Rust)
Probes loop inside each peer's own process, so start-up doesn't count. ImageProbe runs in
dimensions-only mode, as the peers only report sizes; its "minbytes" is its bytesRead.

A file counts for a peer only where the peer's answer is right (the corpus manifest's size
when there is one, else ImageProbe's).
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys

GROUPS = {"heif": "heif/avif", "avif": "heif/avif", "cur": "ico/cur", "ico": "ico/cur"}


def run(command, files, batch=200):
    """Runs a peer command over files in batches; returns {path: (value, width, height)}."""
    results = {}
    for start in range(0, len(files), batch):
        try:
            output = subprocess.run(command + files[start:start + batch], capture_output=True, text=True,
                                    timeout=1800).stdout
        except subprocess.TimeoutExpired:
            continue
        for line in output.splitlines():
            parts = line.split("\t")
            if len(parts) == 4:
                try:
                    results[parts[0]] = (float(parts[1]), int(parts[2]), int(parts[3]))
                except ValueError:
                    pass
    return results


def callgrind_per_probe(command, files):
    """Instructions per probe: (Ir of 1001 rounds - Ir of 1 round) / 1000 / files."""
    def instructions(rounds):
        output = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
                                + [str(rounds)] + files, capture_output=True, text=True).stderr
        match = re.search(r"Collected : (\d+)", output)
        return int(match.group(1)) if match else None
    low, high = instructions(1), instructions(1001)
    if low is None or high is None or not files:
        return None
    return (high - low) / 1000 / len(files)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("--tools", required=True, help="JSON: {name: [command...]} (ours first)")
    parser.add_argument("--repeat-tools", default="{}", help="JSON: {name: [command...]} for callgrind")
    parser.add_argument("--time-ms", default="20")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--json", help="write the raw results here")
    args = parser.parse_args()

    tools = json.loads(args.tools)
    names = list(tools)
    ours = names[0]
    manifest = os.path.join(args.corpus, "manifest.jsonl")
    truth, formats = {}, {}
    if os.path.exists(manifest):
        for line in open(manifest):
            row = json.loads(line)
            if row["expect"] == "ok":
                path = os.path.join(args.corpus, row["file"])
                truth[path] = (row["width"], row["height"])
                formats[path] = row["format"]
        files = sorted(truth)
    else:
        files = sorted(os.path.join(root, name) for root, _, names_ in os.walk(args.corpus) for name in names_)
    print(f"corpus: {args.corpus}, {len(files)} files; tools: {', '.join(names)}", flush=True)

    times = {name: run(command + ["time", args.time_ms], files) for name, command in tools.items()}
    minbytes = {name: run(command + ["minbytes"], files) for name, command in tools.items()}
    robust = {name: run(command + ["robustbytes"], files) for name, command in tools.items()}
    if not truth:  # no manifest: ImageProbe's answers stand in as the truth
        for path, (_, w, h) in times[ours].items():
            if w > 0:
                truth[path] = (w, h)
        formats = {path: "all" for path in truth}

    def right(name, path, table):
        result = table[name].get(path)
        return result is not None and (result[1], result[2]) == truth.get(path)

    groups = collections.defaultdict(list)
    for path in files:
        if path in truth:
            groups[GROUPS.get(formats[path], formats[path])].append(path)

    # Table 1: speed. Median ns per file over the files both we and the peer get right.
    print("\n## Probe time from memory (median ns per file; ratio = ours / peer, below 1 means we are faster)\n")
    header = "| format | files | " + " | ".join(f"{name} ns (right)" for name in names) + " | " \
             + " | ".join(f"vs {name}" for name in names[1:]) + " |"
    print(header)
    print("|" + " --- |" * (2 + len(names) + len(names) - 1))
    summary = {}
    for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        paths = groups[group]
        cells, ratios = [], []
        for name in names:
            good = [p for p in paths if right(name, p, times)]
            cells.append(f"{statistics.median(times[name][p][0] for p in good):.0f} ({len(good)})" if good else "—")
        for name in names[1:]:
            both = [p for p in paths if right(name, p, times) and right(ours, p, times)]
            if both:
                ratio = statistics.median(times[ours][p][0] for p in both) / statistics.median(times[name][p][0] for p in both)
                ratios.append(f"{ratio:.2f}")
                summary.setdefault(name, []).append((group, ratio, len(both)))
            else:
                ratios.append("—")
        print(f"| {group} | {len(paths)} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")

    # Table 2: bytes needed. For each file and peer that is right, the smallest prefix that gives
    # the peer its answer (plain bisection), and the smallest that gives it whatever follows the
    # prefix (robust: end of file, or one of four 16-byte suffixes), against ImageProbe's bytesRead.
    for title, table in (("plain bisection: the prefix alone, end of file included", minbytes),
                         ("robust: the answer holds whatever bytes follow the prefix", robust)):
        print(f"\n## Bytes needed, dimensions only ({title})\n")
        print("| peer | files right | we need more | same | fewer | median peer bytes | median ours |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        best_peer = {}
        for name in names[1:]:
            paths = [p for p in files if right(name, p, table) and right(ours, p, table)]
            more = [p for p in paths if table[ours][p][0] > table[name][p][0]]
            same = [p for p in paths if table[ours][p][0] == table[name][p][0]]
            for p in paths:
                best_peer[p] = min(best_peer.get(p, float("inf")), table[name][p][0])
            if paths:
                print(f"| {name} | {len(paths)} | {len(more)} | {len(same)} | {len(paths) - len(more) - len(same)} | "
                      f"{statistics.median(table[name][p][0] for p in paths):.0f} | "
                      f"{statistics.median(table[ours][p][0] for p in paths):.0f} |")
        above = sorted(p for p in best_peer if table[ours][p][0] > best_peer[p])
        print(f"\nFiles where ImageProbe needs more bytes than the best peer: {len(above)} of {len(best_peer)}")
        for p in above:
            peers_here = [n for n in names[1:] if right(n, p, table) and table[n][p][0] == best_peer[p]]
            print(f"- {os.path.basename(p)}: ours {table[ours][p][0]:.0f}, best peer {best_peer[p]:.0f} ({', '.join(peers_here)})")

    if args.callgrind:
        repeat_tools = json.loads(args.repeat_tools)
        print("\n## Instructions per probe (callgrind; files each tool gets right)\n")
        print("| format | " + " | ".join(repeat_tools) + " |")
        print("|" + " --- |" * (1 + len(repeat_tools)))
        for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
            cells = []
            for name, command in repeat_tools.items():
                good = [p for p in groups[group] if right(name, p, times)]
                value = callgrind_per_probe(command, good) if good else None
                cells.append(f"{value:.0f}" if value is not None else "—")
            print(f"| {group} | " + " | ".join(cells) + " |", flush=True)

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"times": times, "minbytes": minbytes, "robust": robust, "summary": summary}, out)


if __name__ == "__main__":
    main()
