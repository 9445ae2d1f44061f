#!/usr/bin/env python3
"""scripts/timing_report.py's verdicts on made-up Yosys outputs (docs/fpga.md "The budget"):
the shallower LUT6 mapping counts, a listed top leaves the list only when its LUT6 and gate
levels both meet the budget, and an `unmeasured` top needs its reason and a null listing."""
import json
import os
import subprocess
import sys
import tempfile

REPORT = os.path.join(sys.argv[1], "scripts", "timing_report.py")
failures = []


def ltp(top, gates, lut_default, lut_depth):
    return "".join(f"Longest topological path in {top} (length={n}):\n"
                   for n in (gates, lut_default, lut_depth))


def run(budget, tops, cmd="json"):
    """Writes BUDGET and one timing output per top {name: (gates, default, depth)}, runs the report."""
    d = tempfile.mkdtemp()
    with open(f"{d}/budget.yaml", "w") as f:
        f.write(budget)
    with open(f"{d}/jobs.txt", "w") as f:
        f.writelines(f"timing {t} fpga\n" for t in tops)
    for t, levels in tops.items():
        with open(f"{d}/fpga.{t}.timing.txt", "w") as f:
            f.write(ltp(t, *levels))
    args = ["json", f"{d}/budget.yaml", d, "1"] if cmd == "json" else ["tops", f"{d}/budget.yaml", "all", "tern_x"]
    p = subprocess.run([sys.executable, REPORT] + args, capture_output=True, text=True)
    recs = json.load(open(f"{d}/timing.json")) if cmd == "json" and p.returncode != 2 else []
    return p.returncode, p.stdout + p.stderr, {r["top"]: r for r in recs}


def expect(what, cond, out):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        print(out)
        failures.append(what)


def budget(over="", unmeasured="", checked=("a", "b")):
    return (f"budget: {{lut_levels: 8, gate_levels: 36}}\nchecked: [{', '.join(checked)}]\n"
            f"measure: []\nlong: []\nhierarchical: [b]\nover_budget: {{{over}}}\n"
            + (f"unmeasured: {{{unmeasured}}}\n" if unmeasured else ""))


rc, out, recs = run(budget(), {"a": (30, 12, 8)})
expect("the shallower mapping counts (default 12, depth-only 8: passes at 8)",
       rc == 0 and recs["a"]["lut_levels"] == 8 and recs["a"]["status"] == "pass", out)
rc, out, recs = run(budget(), {"a": (30, 9, 10)})
expect("a checked top deeper than the budget fails", rc == 1 and "9 LUT6 levels, budget 8" in out, out)
rc, out, recs = run(budget(over="b: 10"), {"b": (40, 9, 8)})
expect("a listed top within the LUT6 budget but not the gates' stays listed",
       rc == 0 and recs["b"]["status"] == "over budget (listed)" and recs["b"]["method"] == "hierarchical", out)
rc, out, recs = run(budget(over="b: 10"), {"b": (30, 9, 8)})
expect("a listed top within both budgets must leave the list", rc == 1 and "take it off" in out, out)
rc, out, recs = run(budget(over="b: 10"), {"b": (30, 11, 12)})
expect("a listed top deeper than its figure fails", rc == 1 and "deeper than the 10" in out, out)
rc, out, _ = run(budget(over="b: null", unmeasured="b: ''"), {})
expect("an unmeasured top without its reason is refused", rc == 2 and "unmeasured.b needs its reason" in out, out)
rc, out, _ = run(budget(over="b: 12", unmeasured="b: too big"), {})
expect("an unmeasured top listed with a figure is refused", rc == 2 and "listed in over_budget as null" in out, out)
rc, out, _ = run(budget(over="b: null", unmeasured="b: too big"), {}, cmd="tops")
expect("the tops to measure leave an unmeasured one out", rc == 0 and out.split() == ["tern_x", "a"], out)
sys.exit(1 if failures else 0)
