#!/usr/bin/env python3
"""Simulated cycles of the quick benchmarks against their recorded figures (issue 24 item 6).

    bench_cycles.py check  DIR RECORD.yaml    exit 1 when a figure moved or a record is missing
    bench_cycles.py record DIR RECORD.yaml    write RECORD.yaml from DIR's JSON

DIR holds the JSON of the quick benches (`make test` writes build/bench-quick). Every record
with a `cycles` field is identified by its other plain fields, measured ones left out (the list
below). Simulated cycles are deterministic, so this is not a timed test: a figure more than
TOLERANCE away from its record, either way, fails, so a regression cannot hide and an
improvement is recorded (with docs/performance.md) rather than left unstated.
"""
import json
import os
import sys

import yaml

TOLERANCE = 0.02
# Fields that are measurements or derived from them, not part of a record's identity.
MEASURED = {
    "cycles", "cycles_per_instruction", "start_cost", "utilization", "efficiency",
    "sim_cycles_per_s", "estimated_cycles", "hbm_bytes_per_cycle", "flit_efficiency",
    "latency_cycles", "retries", "timeouts", "crc_errors", "pe_cycles", "dma_bytes", "hbm_bytes",
    "ideal_cycles", "hbm_bytes_per_cycle_configured", "first_result_cycle", "wall_seconds",
    "trace", "hops", "latency_cycles_per_hop", "throughput_flits_per_cycle_per_chip", "golden_ratio",
    "instructions_retired", "ipc", "roofline_fraction", "golden_cycles", "cycles_per_element",
}


def identity(rec):
    parts = [f"{k}={rec[k]}" for k in sorted(rec)
             if k not in MEASURED and isinstance(rec[k], (str, int, float))]
    return " ".join(parts)


def measured(directory):
    """{file: {identity: cycles}} over the directory's benchmark JSON."""
    out = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json") or name.endswith(".trace.json"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            records = json.load(f)
        if not isinstance(records, list):
            continue
        figures = {}
        for rec in records:
            if isinstance(rec, dict) and isinstance(rec.get("cycles"), (int, float)):
                key = identity(rec)
                if key in figures:
                    sys.exit(f"{name}: two records are both '{key}'")
                figures[key] = rec["cycles"]
        if figures:
            out[name] = figures
    return out


def check(now, recorded, record_path):
    problems = []
    for name, figures in recorded.items():
        got = now.get(name, {})
        for key, want in figures.items():
            if key not in got:
                problems.append(f"{name}: '{key}' recorded, not measured")
                continue
            if abs(got[key] - want) > TOLERANCE * want:
                problems.append(f"{name}: '{key}': {got[key]} cycles, recorded {want} "
                                f"({(got[key] - want) / want:+.1%})")
    for name, figures in now.items():
        for key in figures:
            if key not in recorded.get(name, {}):
                problems.append(f"{name}: '{key}' measured, not recorded")
    checked = sum(len(f) for f in recorded.values())
    if problems:
        print("\n".join(f"FAIL  {p}" for p in problems))
        print(f"{len(problems)} of {checked} figures differ from {record_path} (tolerance "
              f"{TOLERANCE:.0%}). When the change is meant, record the new figures with "
              f"`scripts/bench_cycles.py record build/bench-quick {record_path}` and update "
              f"docs/performance.md.")
        return 1
    print(f"PASS  {checked} simulated cycle figures within {TOLERANCE:.0%} of {record_path}")
    return 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "record"):
        sys.exit(__doc__)
    mode, directory, record_path = sys.argv[1:]
    now = measured(directory)
    if mode == "record":
        with open(record_path, "w", encoding="utf-8") as f:
            f.write("# Simulated cycles of the quick benchmarks (make test's bench.*_quick runs), checked\n"
                    "# by scripts/bench_cycles.py: written by its `record` mode, never by hand.\n")
            yaml.safe_dump(now, f, sort_keys=True, width=200)
        return 0
    with open(record_path, encoding="utf-8") as f:
        recorded = yaml.safe_load(f) or {}
    return check(now, recorded, record_path)


if __name__ == "__main__":
    sys.exit(main())
