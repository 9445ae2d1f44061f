#!/usr/bin/env python3
"""Per-unit RTL coverage from a merged Verilator coverage file (scripts/coverage.sh).

    coverage_report.py MERGED.dat GOALS.yaml SUMMARY.json

A point is one of Verilator's: a block (line), an if/else or case arm (branch) or one bit of a
signal (toggle), in one source position. Instances and models of the same source are one
point, covered when any of them counted it. A unit is rtl/<unit> (fpga/ is its own); generated
config packages are left out. GOALS.yaml's `exclusions` take points out of the count, each
with its reason: a `file` (relative to the repository), a `kind` (line, branch or toggle) and
optionally `lines: [first, last]` and `signal` (a regular expression the toggle point's signal
name must match in full); an exclusion that matches no point is an error, so none goes stale.
Writes SUMMARY.json: one record per unit with `unit`, `line`, `toggle`, `branch` (percent of
the points not excluded; null when the unit has none), the point, covered and excluded counts,
and `goal` (met, waived or missed). Exits 1 when a unit misses a goal that GOALS.yaml does not
waive.
"""
import json
import os
import re
import sys
from collections import defaultdict

import yaml

KINDS = {"v_line": "line", "v_branch": "branch", "v_toggle": "toggle"}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_point(key):
    """The fields of one point's key: pairs separated by \\x01, key and value by \\x02."""
    fields = {}
    for pair in key.split("\x01"):
        if "\x02" in pair:
            k, v = pair.split("\x02", 1)
            fields[k] = v
    return fields


def unit_of(path):
    rel = os.path.relpath(path, REPO)
    parts = rel.split(os.sep)
    if parts[0] == "rtl" and len(parts) > 2:
        return parts[1]
    if parts[0] == "fpga":
        return "fpga"
    return None  # generated packages (build/gen) and anything outside the RTL tree


def read_points(merged):
    """{(unit, kind): {position: covered}} from the merged file."""
    points = defaultdict(dict)
    with open(merged, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.startswith("C '"):
                continue
            end = line.rindex("'")
            try:
                count = int(line[end + 1:])
            except ValueError:
                sys.exit(f"{merged}:{lineno}: no count after the point's key")
            p = parse_point(line[3:end])
            kind = KINDS.get(p.get("page", "").split("/")[0])
            unit = unit_of(p.get("f", ""))
            if kind is None or unit is None:
                continue
            pos = (p["f"], p.get("l"), p.get("n"), p.get("o"))
            cell = points[(unit, kind)]
            cell[pos] = cell.get(pos, False) or count > 0
    return points


def check_exclusion(e, where):
    """An exclusion entry, checked: every key known, kind and file given, a reason in words."""
    known = {"file", "kind", "lines", "signal", "reason"}
    extra = sorted(set(e) - known)
    if extra:
        sys.exit(f"{where}: unknown key(s) {', '.join(extra)} (known: {', '.join(sorted(known))})")
    for key in ("file", "kind", "reason"):
        if not e.get(key):
            sys.exit(f"{where}: '{key}' is missing")
    if e["kind"] not in KINDS.values():
        sys.exit(f"{where}: kind '{e['kind']}' is not one of line, branch, toggle")
    if "lines" in e and (len(e["lines"]) != 2 or e["lines"][0] > e["lines"][1]):
        sys.exit(f"{where}: lines must be [first, last]")
    if "signal" in e:
        e["signal_re"] = re.compile(e["signal"])


def excluded_by(e, kind, pos):
    path, line, _, name = pos
    if kind != e["kind"] or os.path.relpath(path, REPO) != e["file"]:
        return False
    if "lines" in e and not (e["lines"][0] <= int(line or 0) <= e["lines"][1]):
        return False
    return "signal_re" not in e or bool(e["signal_re"].fullmatch(name or ""))


def apply_exclusions(points, exclusions, goals_path):
    """Moves the excluded points out of `points`; returns {(unit, kind): excluded count}."""
    excluded = defaultdict(int)
    for i, e in enumerate(exclusions):
        check_exclusion(e, f"{goals_path}: exclusions[{i}]")
        hits = 0
        for (unit, kind), cell in points.items():
            for pos in [p for p in cell if excluded_by(e, kind, p)]:
                del cell[pos]
                excluded[(unit, kind)] += 1
                hits += 1
        if hits == 0:
            sys.exit(f"{goals_path}: exclusions[{i}] ({e['file']}, {e['kind']}) matches no point")
    return excluded


def percent(cell):
    if not cell:
        return None
    return round(100.0 * sum(cell.values()) / len(cell), 1)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    merged, goals_path, out = sys.argv[1:]
    with open(goals_path, encoding="utf-8") as f:
        cfg = yaml.safe_load(f)
    goals = cfg["goals"]
    waivers = cfg.get("waivers") or {}
    points = read_points(merged)
    excluded = apply_exclusions(points, cfg.get("exclusions") or [], goals_path)
    units = sorted({u for u, _ in points})
    unknown = sorted(set(waivers) - set(units))
    if unknown:
        sys.exit(f"{goals_path}: waivers for units with no coverage points: {', '.join(unknown)}")
    records, missed = [], []
    print(f"{'unit':<8} {'line %':>7} {'toggle %':>9} {'branch %':>9}  points (l/t/b)  goal")
    for u in units:
        rec = {"unit": u}
        for kind in ("line", "toggle", "branch"):
            cell = points.get((u, kind), {})
            rec[kind] = percent(cell)
            rec[kind + "_points"] = len(cell)
            rec[kind + "_covered"] = sum(cell.values())
            rec[kind + "_excluded"] = excluded.get((u, kind), 0)
        short = [k for k, g in goals.items() if rec[k] is not None and rec[k] < g]
        rec["goal"] = "met" if not short else ("waived" if u in waivers else "missed")
        if rec["goal"] == "missed":
            missed.append(f"{u} ({', '.join(short)})")
        records.append(rec)
        fmt = lambda v: "-" if v is None else f"{v:.1f}"
        print(f"{u:<8} {fmt(rec['line']):>7} {fmt(rec['toggle']):>9} {fmt(rec['branch']):>9}  "
              f"{rec['line_points']}/{rec['toggle_points']}/{rec['branch_points']}  {rec['goal']}")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(records, f, indent=1)
    os.replace(tmp, out)
    if missed:
        print(f"FAIL  under the goals (line {goals['line']} %, toggle {goals['toggle']} %) "
              f"without a waiver in {goals_path}: {'; '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
