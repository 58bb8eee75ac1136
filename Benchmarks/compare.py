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


def callgrind_per_probe(command, files, extra=()):
    """Instructions per probe: (Ir of 101 rounds - Ir of 1 round) / 100 / files. `extra` goes
    between the round count and the files (ImageProbe's `--chunk C`)."""
    def instructions(rounds):
        output = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
                                + [str(rounds)] + list(extra) + files, capture_output=True, text=True).stderr
        match = re.search(r"Collected : (\d+)", output)
        return int(match.group(1)) if match else None
    if not files:
        return None
    low, high = instructions(1), instructions(101)
    if low is None or high is None:
        return None
    return (high - low) / 100 / len(files)


def svg_bars(title, unit, groups, series, values, log=False, note=""):
    """A horizontal grouped bar chart as SVG text, with no library: one row per group, one
    bar per series. values[(group, series)] -> number or None."""
    import math
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"]
    bar, gap, left, width = 11, 8, 110, 520
    top = 48 + 16 * ((len(series) + 2) // 3)
    present = [v for v in values.values() if v]
    high = max(present) if present else 1
    low = min(present) if present else 1
    def scale(v):
        if log:
            lo, hi = math.log10(max(1, low / 2)), math.log10(high * 1.2)
            return width * (math.log10(max(v, 1)) - lo) / (hi - lo)
        return width * v / (high * 1.1)
    rows = []
    y = top
    for group in groups:
        rows.append(f'<text x="{left - 8}" y="{y + bar * len(series) / 2 + 4}" text-anchor="end">{group}</text>')
        for index, name in enumerate(series):
            v = values.get((group, name))
            if v:
                w = max(1.0, scale(v))
                rows.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 1}" fill="{colours[index % 5]}"/>')
                rows.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 2}" font-size="9">{v:,.0f}</text>')
            y += bar
        y += gap
    legend = []
    for index, name in enumerate(series):
        lx, ly = left + (index % 3) * 180, 34 + 16 * (index // 3)
        legend.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{colours[index % 5]}"/>'
                      f'<text x="{lx + 14}" y="{ly}">{name}</text>')
    height = y + 24
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{height}" '
            f'font-family="sans-serif" font-size="11">'
            f'<rect width="100%" height="100%" fill="white"/>'
            f'<text x="10" y="18" font-size="14" font-weight="bold">{title}</text>'
            + "".join(legend) + "".join(rows)
            + f'<text x="10" y="{height - 8}" font-size="9" fill="#555">{unit}{"; log scale" if log else ""}. {note}</text></svg>\n')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("--tools", required=True, help="JSON: {name: [command...]} (ours first)")
    parser.add_argument("--repeat-tools", default="{}", help="JSON: {name: [command...]} for callgrind")
    parser.add_argument("--time-ms", default="20")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--json", help="write the raw results here")
    parser.add_argument("--baseline", help="JSON: [command...] of an earlier ImageProbe build's bench, for before/after")
    parser.add_argument("--per-format", type=int, default=20, help="files per format for callgrind (first N, sorted)")
    parser.add_argument("--charts", help="directory to write instructions.svg and bytes.svg into")
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
        ours_repeat = repeat_tools[ours]
        baseline = json.loads(args.baseline) if args.baseline else None
        limit = args.per_format
        chart = {}

        print(f"\n## Instructions per probe (callgrind; dimensions only; at most {limit} files per format, "
              f"the first by name that both tools compared get right)\n")
        peers = [name for name in repeat_tools if name != ours]
        header = "| format | " + " | ".join(f"files | ours | {peer} | ours / {peer}" for peer in peers) + " |"
        print(header)
        print("|" + " --- |" * (1 + 4 * len(peers)))
        for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
            cells = []
            for peer in peers:
                shared = [p for p in groups[group] if right(peer, p, times) and right(ours, p, times)][:limit]
                if not shared:
                    cells.append("— | — | — | —")
                    continue
                mine = callgrind_per_probe(ours_repeat, shared)
                theirs = callgrind_per_probe(repeat_tools[peer], shared)
                ratio = f"{mine / theirs:.2f}" if mine and theirs else "—"
                cells.append(f"{len(shared)} | {mine:.0f} | {theirs:.0f} | {ratio}")
                chart[(group, peer)] = theirs
                chart.setdefault((group, ours + " (vs " + peer + " set)"), mine)
            print(f"| {group} | " + " | ".join(cells) + " |", flush=True)

        print(f"\n## ImageProbe alone: whole buffer, 1-byte and 1460-byte chunks (same {limit}-file sets: "
              f"the first by name it gets right)\n")
        columns = ["files", "whole", "1-byte", "per byte read", "1460-byte", "1460 / whole"]
        if baseline:
            columns = ["files", "before, whole", "whole", "before / after"] + columns[2:]
        print("| format | " + " | ".join(columns) + " |")
        print("|" + " --- |" * (1 + len(columns)))
        for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
            mine = [p for p in groups[group] if right(ours, p, times)][:limit]
            if not mine:
                continue
            whole = callgrind_per_probe(ours_repeat, mine)
            byte = callgrind_per_probe(ours_repeat, mine, ["--chunk", "1"])
            segment = callgrind_per_probe(ours_repeat, mine, ["--chunk", "1460"])
            read = statistics.mean(minbytes[ours][p][0] for p in mine)
            per_byte = (byte - whole) / read if byte and whole and read else None
            cells = [str(len(mine))]
            if baseline:
                before = callgrind_per_probe(baseline, mine)
                cells += [f"{before:.0f}" if before else "—", f"{whole:.0f}",
                          f"{before / whole:.2f}" if before and whole else "—"]
                chart[(group, ours + " before")] = before
            else:
                cells += [f"{whole:.0f}"]
            cells += [f"{byte:.0f}" if byte else "—", f"{per_byte:.0f}" if per_byte else "—",
                      f"{segment:.0f}" if segment else "—", f"{segment / whole:.2f}" if segment and whole else "—"]
            chart[(group, ours)] = whole
            print(f"| {group} | " + " | ".join(cells) + " |", flush=True)

        if args.charts:
            shown = [g for g in sorted(groups, key=lambda g: (-len(groups[g]), g)) if (g, ours) in chart]
            series = [ours] + ([ours + " before"] if baseline else []) + peers
            values = {(g, name): chart.get((g, name)) for g in shown for name in series}
            with open(os.path.join(args.charts, "instructions.svg"), "w") as out:
                out.write(svg_bars("Instructions per probe, dimensions only (fewer is better)", "callgrind, whole buffer in memory",
                                   shown, series, values, log=True,
                                   note=f"Up to {limit} corpus files per format; peers on the files they get right."))

    # Which convention each peer's wrong HEIF/AVIF answers follow.
    for name in names[1:]:
        wrong = [p for p in files if p in truth and formats.get(p) in ("heif", "avif", "jxl")
                 and p in times[name] and times[name][p][1] > 0 and not right(name, p, times)]
        if wrong:
            displayed = [p for p in wrong if (times[name][p][1], times[name][p][2]) == (truth[p][1], truth[p][0])]
            print(f"\n{name}: {len(wrong)} wrong HEIF/AVIF/JXL sizes; {len(displayed)} of them are the stored size "
                  f"with width and height exchanged (the displayed size after a quarter-turn), "
                  f"{len(wrong) - len(displayed)} are another item's size:")
            for p in wrong:
                kind = "displayed (rotated)" if p in displayed else "another item"
                print(f"- {os.path.basename(p)}: {times[name][p][1]}x{times[name][p][2]}, stored {truth[p][0]}x{truth[p][1]}: {kind}")

    if args.charts:
        # Bytes needed: ImageProbe's median against the best peer's, per format (robust measure).
        shown, values = [], {}
        for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
            paths = [p for p in groups[group] if right(ours, p, robust)]
            best = []
            for p in paths:
                peer_bytes = [robust[n][p][0] for n in names[1:] if right(n, p, robust)]
                if peer_bytes:
                    best.append((robust[ours][p][0], min(peer_bytes)))
            if best:
                shown.append(group)
                values[(group, ours)] = statistics.median(b[0] for b in best)
                values[(group, "best peer")] = statistics.median(b[1] for b in best)
        with open(os.path.join(args.charts, "bytes.svg"), "w") as out:
            out.write(svg_bars("Bytes needed for the size, dimensions only (fewer is better)", "median bytes per file",
                               shown, [ours, "best peer"], values, log=True,
                               note="Per file, the fewest bytes any peer needs whatever follows them, on files both get right."))

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"times": times, "minbytes": minbytes, "robust": robust, "summary": summary}, out)


if __name__ == "__main__":
    main()
