#!/usr/bin/env python3
"""Renders the tables of docs/performance.md from the benchmarks' JSON.

A generated table sits between two markers in the Markdown:

    <!-- table: workloads config=trn2 backend=golden -->
    | ... |
    <!-- end table -->

The first word names the table's kind (its JSON file and columns, KINDS below); the
key=value pairs keep only the records whose fields equal them. The JSON is the recorded
snapshot in bench/results/, which `make bench` refreshes:

    scripts/perf_tables.py check   [--doc D] [--results R]  # exit 1 when a table differs
    scripts/perf_tables.py update  [--doc D] [--results R] [--from build/bench]

`update --from DIR` first records DIR's JSON files of the known kinds in the results directory:
a config's records there replace that config's recorded ones (so `make bench-trn2` alone keeps
the small config's figures), the other configs' stay.
`make test` runs `check` (docs.performance_tables), so a table cannot drift from its data.
"""
import argparse
import difflib
import json
import os
import re
import sys

START = re.compile(r"^<!-- table: (\S+)((?: [\w.-]+=[^ ]+)*) -->$")
END = "<!-- end table -->"


def num(v):
    return f"{v:,}"


def frac(v):
    return f"{v:.3f}"


def workloads_row(r):
    if "error" in r:
        return [r["model"], r["layer"], r["kernel"], r["shape"], "-", f"not built: {r['error']}",
                "", "", "", "", ""]
    return [r["model"], r["layer"], r["kernel"], r["shape"], r["backend"], num(r["cycles"]),
            num(r["golden_cycles"]), frac(r["pe_utilization"]), frac(r["hbm_utilization"]),
            f"**{frac(r['roofline_fraction'])}**", r["bound"]]


def dma_row(r):
    return [r["config"], r["direction"].replace("_", " "), str(r["partitions"]),
            num(r["bytes_per_partition"] // 1024), str(r["hbm_latency"]), str(r["transfers"]),
            num(r["cycles"]), f"**{frac(r['efficiency'])}**"]


# kind -> (JSON file, header, row function)
KINDS = {
    "workloads": ("workloads.json",
                  ["model", "layer", "kernel", "shape", "backend", "cycles", "golden", "PE util",
                   "HBM util", "roofline", "bound"], workloads_row),
    "dma": ("dma.json",
            ["config", "direction", "partitions", "KiB a partition", "HBM latency", "transfers",
             "cycles", "efficiency"], dma_row),
}


class TableError(Exception):
    pass


def load(results, kind, cache):
    if kind not in KINDS:
        raise TableError(f"unknown table kind '{kind}' (known: {', '.join(sorted(KINDS))})")
    path = os.path.join(results, KINDS[kind][0])
    if path not in cache:
        cache[path] = load_list(path)
    return cache[path]


def load_list(path):
    try:
        with open(path, encoding="utf-8") as f:
            records = json.load(f)
    except (OSError, ValueError) as e:
        raise TableError(f"{path}: {e}") from e
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise TableError(f"{path}: not a list of records")
    return records


def render(kind, filters, records, where):
    _, header, row = KINDS[kind]
    keep = [r for r in records if all(str(r.get(k)) == v for k, v in filters.items())]
    if not keep:
        raise TableError(f"{where}: no '{kind}' record matches {filters}")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    try:
        lines += ["| " + " | ".join(row(r)) + " |" for r in keep]
    except (KeyError, TypeError, ValueError) as e:
        raise TableError(f"{where}: a '{kind}' record lacks or mistypes a field: {e}") from e
    return lines


def record(source, results, json_name):
    """Merges source/json_name into results/json_name, config by config."""
    new = load_list(os.path.join(source, json_name))
    dst = os.path.join(results, json_name)
    old = load_list(dst) if os.path.exists(dst) else []
    configs = {r.get("config") for r in new}
    kept = [r for r in old if r.get("config") not in configs]
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(kept + new, f, indent=1)
        f.write("\n")
    print(f"perf_tables: recorded {len(new)} records of {sorted(map(str, configs))} in {dst} "
          f"({len(kept)} of other configs kept)")


def regenerate(doc_lines, results, doc):
    """The document with every marked table rendered again."""
    out, cache, i = [], {}, 0
    while i < len(doc_lines):
        line = doc_lines[i]
        out.append(line)
        m = START.match(line)
        i += 1
        if not m:
            continue
        where = f"{doc}:{i}"
        filters = dict(f.split("=", 1) for f in m.group(2).split())
        end = next((j for j in range(i, len(doc_lines)) if doc_lines[j] == END), None)
        if end is None:
            raise TableError(f"{where}: table '{m.group(1)}' has no '{END}'")
        out += render(m.group(1), filters, load(results, m.group(1), cache), where)
        out.append(END)
        i = end + 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["check", "update"])
    ap.add_argument("--doc", default="docs/performance.md")
    ap.add_argument("--results", default="bench/results")
    ap.add_argument("--from", dest="source", help="update: copy this directory's bench JSON first")
    a = ap.parse_args()
    try:
        if a.source:
            if a.mode != "update":
                raise TableError("--from goes with update")
            for json_name, _, _ in KINDS.values():
                if os.path.exists(os.path.join(a.source, json_name)):
                    record(a.source, a.results, json_name)
        with open(a.doc, encoding="utf-8") as f:
            lines = f.read().split("\n")
        new = regenerate(lines, a.results, a.doc)
    except (OSError, TableError) as e:
        sys.exit(f"perf_tables: {e}")
    if new == lines:
        print(f"perf_tables: {a.doc} matches {a.results}")
        return
    if a.mode == "check":
        sys.stdout.writelines(difflib.unified_diff([l + "\n" for l in lines], [l + "\n" for l in new],
                                                   a.doc, f"{a.doc} from {a.results}", n=0))
        sys.exit(f"perf_tables: {a.doc} differs from {a.results}: "
                 "run `scripts/perf_tables.py update` (after `make bench`: --from build/bench)")
    with open(a.doc, "w", encoding="utf-8") as f:
        f.write("\n".join(new))
    print(f"perf_tables: rewrote the tables of {a.doc}")


if __name__ == "__main__":
    main()
