#!/usr/bin/env python3
"""Prints build/bench/workloads.json as the Markdown table of docs/performance.md "Workloads".

Usage: scripts/workloads_table.py [workloads.json] [--config trn2]
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="?", default="build/bench/workloads.json")
    ap.add_argument("--config", default="trn2")
    a = ap.parse_args()
    try:
        with open(a.json, encoding="utf-8") as f:
            records = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"workloads_table: {a.json}: {e}")
    print("| model | layer | kernel | shape | backend | cycles | golden | PE util | HBM util | roofline | bound |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in records:
        if r.get("config") != a.config:
            continue
        if "error" in r:
            print(f"| {r['model']} | {r['layer']} | {r['kernel']} | {r['shape']} | - | not built: {r['error']} |||||")
            continue
        print(f"| {r['model']} | {r['layer']} | {r['kernel']} | {r['shape']} | {r['backend']} | {r['cycles']:,} | "
              f"{r['golden_cycles']:,} | {r['pe_utilization']:.3f} | {r['hbm_utilization']:.3f} | "
              f"**{r['roofline_fraction']:.3f}** | {r['bound']} |")


if __name__ == "__main__":
    main()
