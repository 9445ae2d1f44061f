#!/usr/bin/env python3
"""The reporting half of scripts/timing.sh (docs/fpga.md "Timing and area").

  timing_report.py tops BUDGET all|quick ROOT...
                                          the modules to measure: the roots given, then the
                                          checked tops and units BUDGET (rtl/timing.yaml) lists;
                                          quick leaves out the ones it calls long
  timing_report.py hierarchical BUDGET   the tops BUDGET maps module by module
  timing_report.py json BUDGET OUT SECS   reads OUT/jobs.txt and each job's Yosys output, writes
                                          OUT/timing.json and OUT/area.json, prints a table,
                                          and exits 1 when a checked top misses the budget
"""
import json
import re
import sys

import yaml

# The per-stage budget may be set tighter, never looser than this (docs/fpga.md).
MAX_BUDGET_LUT_LEVELS = 10
# xcvu9p: the UltraScale+ part of AWS F1.
VU9P = {"luts": 1182240, "ffs": 2364480, "dsps": 6840, "brams": 2160}


class BudgetError(Exception):
    pass


def load_budget(path):
    with open(path) as f:
        spec = yaml.safe_load(f)
    for key in ("budget", "checked", "measure", "long", "hierarchical", "over_budget"):
        if key not in spec:
            raise BudgetError(f"{path}: no '{key}' section")
    budget = spec["budget"]
    for key in ("lut_levels", "gate_levels"):
        if not isinstance(budget.get(key), int) or budget[key] <= 0:
            raise BudgetError(f"{path}: budget.{key} must be a positive integer")
    if budget["lut_levels"] > MAX_BUDGET_LUT_LEVELS:
        raise BudgetError(f"{path}: budget.lut_levels {budget['lut_levels']} is above the "
                          f"{MAX_BUDGET_LUT_LEVELS} LUT6 levels a stage may have")
    over = spec["over_budget"] or {}
    for top, levels in over.items():
        if top not in spec["checked"]:
            raise BudgetError(f"{path}: over_budget names '{top}', which is not a checked top")
        # null: listed before its first measurement (a long top), no ratchet until then.
        if levels is not None and (not isinstance(levels, int) or levels <= budget["lut_levels"]):
            raise BudgetError(f"{path}: over_budget.{top} must be a level count above the budget")
    spec["over_budget"] = over
    spec["unmeasured"] = spec.get("unmeasured") or {}
    for top, why in spec["unmeasured"].items():
        if not isinstance(why, str) or not why.strip():
            raise BudgetError(f"{path}: unmeasured.{top} needs its reason")
        if spec["over_budget"].get(top, 0) is not None:
            raise BudgetError(f"{path}: unmeasured.{top} must be listed in over_budget as null")
    return spec


def cmd_tops(budget_path, quick, roots):
    """The tops to measure: with quick, those rtl/timing.yaml calls long are left out, and the
    ones it calls unmeasured always (TOPS still names them)."""
    spec = load_budget(budget_path)
    seen = []
    for top in list(roots) + spec["checked"] + spec["measure"]:
        if top in spec["unmeasured"]:
            continue
        if top not in seen and not (quick and top in spec["long"]):
            seen.append(top)
    print("\n".join(seen))


def cmd_hierarchical(budget_path):
    """The tops rtl/timing.yaml maps module by module (scripts/timing.sh)."""
    print("\n".join(load_budget(budget_path)["hierarchical"]))


def ltp_levels(text):
    """The three `ltp -noff` results of a timing run: the gate mapping, then ABC's default LUT6
    mapping and the depth-only one (scripts/timing.sh)."""
    found = [int(n) for n in re.findall(r"Longest topological path in \S+ \(length=(\d+)\)", text)]
    if len(found) != 3:
        raise BudgetError(f"expected three ltp results, found {len(found)}")
    return found[0], found[1], found[2]


def base_name(module):
    """A Yosys module name without its parameter decoration ($paramod...\\name\\P=...)."""
    parts = [p for p in module.split("\\") if p and not p.startswith("$") and "=" not in p]
    return parts[0] if parts else module


def stat_modules(text):
    """Per module (as Yosys names it) its own cells by type, from a hierarchical `stat`."""
    modules, current = {}, None
    for line in text.splitlines():
        head = re.match(r"^=== (.+) ===$", line)
        if head:
            current = None if head.group(1) == "design hierarchy" else modules.setdefault(head.group(1), {})
            continue
        cell = re.match(r"^\s{5,}(\S+)\s+(\d+)$", line)
        if current is not None and cell:
            current[cell.group(1)] = int(cell.group(2))
    return modules


def classify(cell_type):
    if cell_type == "$lut" or re.fullmatch(r"LUT[1-6]", cell_type):
        return "luts"
    if re.match(r"^(\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|DFFSR)|FD[CPRS]E?)", cell_type):
        return "ffs"
    if cell_type.startswith("DSP48"):
        return "dsps"
    if cell_type.startswith("RAMB36"):
        return "bram36"
    if cell_type.startswith("RAMB18"):
        return "bram18"
    if re.match(r"^RAM(32|64|128|256)", cell_type):
        return "lutram"
    if cell_type.startswith("CARRY"):
        return "carries"
    return None


def area_record(top, cfg, text):
    modules = stat_modules(text)
    if top not in modules:
        raise BudgetError(f"no stat block for {top}")
    kinds = ("luts", "ffs", "dsps", "bram36", "bram18", "lutram", "carries")
    memo = {}

    def inclusive(name):
        if name not in memo:
            total = dict.fromkeys(kinds, 0)
            for cell_type, n in modules[name].items():
                if cell_type in modules:
                    for k, v in inclusive(cell_type).items():
                        total[k] += n * v
                elif classify(cell_type):
                    total[classify(cell_type)] += n
            memo[name] = total
        return memo[name]

    per_module = {}

    def walk(name, times):
        entry = per_module.setdefault(base_name(name), dict(dict.fromkeys(kinds, 0), instances=0))
        entry["instances"] += times
        for k, v in inclusive(name).items():
            entry[k] += times * v
        for cell_type, n in modules[name].items():
            if cell_type in modules:
                walk(cell_type, times * n)

    walk(top, 1)
    rec = {"top": top, "config": cfg, **inclusive(top)}
    rec["brams"] = rec["bram36"] + rec["bram18"] / 2
    rec["vu9p_lut_share"] = round(rec["luts"] / VU9P["luts"], 4)
    rec["vu9p_dsp_share"] = round(rec["dsps"] / VU9P["dsps"], 4)
    for entry in per_module.values():
        entry["brams"] = entry["bram36"] + entry["bram18"] / 2
    rec["modules"] = dict(sorted(per_module.items(), key=lambda kv: -kv[1]["luts"]))
    return rec


def check(rec, spec):
    """The budget verdict of one timing record: None when it passes or is not checked."""
    budget, top, levels = spec["budget"], rec["top"], rec["lut_levels"]
    if top not in spec["checked"]:
        return None
    if top not in spec["over_budget"]:
        if levels > budget["lut_levels"]:
            return f"{levels} LUT6 levels, budget {budget['lut_levels']}"
        if rec["gate_levels"] > budget["gate_levels"]:
            return f"{rec['gate_levels']} gate levels, budget {budget['gate_levels']}"
        return None
    listed = spec["over_budget"][top]
    if listed is None:
        return None  # listed before its first measurement: the figure to write in is reported
    if levels > listed:
        return f"{levels} LUT6 levels, deeper than the {listed} rtl/timing.yaml lists"
    if levels <= budget["lut_levels"] and rec["gate_levels"] <= budget["gate_levels"]:
        return f"{levels} LUT6 levels meets the budget: take it off rtl/timing.yaml's over_budget list"
    return None


def cmd_json(budget_path, out, seconds):
    spec = load_budget(budget_path)
    timing, area, failures = [], [], []
    with open(f"{out}/jobs.txt") as f:
        jobs = [line.split() for line in f if line.strip()]
    for kind, top, cfg in jobs:
        try:
            with open(f"{out}/{cfg}.{top}.{kind}.txt") as f:
                text = f.read()
        except OSError:
            failures.append(f"{kind} {top} ({cfg}): Yosys failed, see {out}/{cfg}.{top}.{kind}.log")
            continue
        try:
            if kind == "area":
                area.append(area_record(top, cfg, text))
                continue
            gates, lut_default, lut_depth = ltp_levels(text)
        except BudgetError as e:
            failures.append(f"{kind} {top} ({cfg}): {e}")
            continue
        rec = {"top": top, "config": cfg, "lut_levels": min(lut_default, lut_depth),
               "gate_levels": gates,
               "lut_levels_default_map": lut_default, "lut_levels_depth_map": lut_depth,
               "method": "hierarchical" if top in spec["hierarchical"] else "flattened",
               "budget_lut_levels": spec["budget"]["lut_levels"],
               "budget_gate_levels": spec["budget"]["gate_levels"],
               "checked": top in spec["checked"],
               "listed": top in spec["over_budget"],
               "listed_levels": spec["over_budget"].get(top)}
        verdict = check(rec, spec)
        rec["status"] = ("fail" if verdict else
                         "listed, figure pending" if rec["listed"] and rec["listed_levels"] is None else
                         "over budget (listed)" if rec["listed"] else
                         "pass" if rec["checked"] else "measured")
        if verdict:
            failures.append(f"timing {top}: {verdict}")
        timing.append(rec)
    with open(f"{out}/timing.json", "w") as f:
        json.dump(timing, f, indent=2)
    with open(f"{out}/area.json", "w") as f:
        json.dump(area, f, indent=2)
    print_tables(timing, area)
    for line in failures:
        print(f"FAIL  {line}")
    print(f"timing: {len(timing)} tops timed, {len(area)} areas, {len(failures)} failed, "
          f"{seconds} s -> {out}/timing.json, {out}/area.json")
    return 1 if failures else 0


def print_tables(timing, area):
    print(f"{'top':<24} {'config':<7} {'LUT6':>5} {'gates':>6}  {'mapped':<12} status")
    for r in sorted(timing, key=lambda r: (not r["checked"], r["top"])):
        print(f"{r['top']:<24} {r['config']:<7} {r['lut_levels']:>5} {r['gate_levels']:>6}  "
              f"{r['method']:<12} {r['status']}")
    print(f"{'top':<24} {'config':<7} {'LUTs':>9} {'FFs':>8} {'DSPs':>6} {'BRAM36':>7}  VU9P LUTs")
    for r in area:
        print(f"{r['top']:<24} {r['config']:<7} {r['luts']:>9} {r['ffs']:>8} {r['dsps']:>6} "
              f"{r['brams']:>7g}  {100 * r['vu9p_lut_share']:.1f} %")


def main(argv):
    try:
        if len(argv) >= 3 and argv[0] == "tops":
            cmd_tops(argv[1], argv[2] == "quick", argv[3:])
            return 0
        if len(argv) == 2 and argv[0] == "hierarchical":
            cmd_hierarchical(argv[1])
            return 0
        if len(argv) == 4 and argv[0] == "json":
            return cmd_json(argv[1], argv[2], int(argv[3]))
    except (BudgetError, OSError, yaml.YAMLError) as e:
        print(f"timing: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
