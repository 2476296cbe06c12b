#!/usr/bin/env python3
"""Markdown tables from the criterion results of `cargo bench --bench kernels`.

Reads every `target/criterion/**/new/benchmark.json` (group, function and throughput) with
its sibling `estimates.json` (the median, in ns per iteration), divides by the number of
elements per iteration, and prints:

- one table per `clip/<mix>` group: median ns per segment with its 95% confidence interval,
  and the speed-up over `parry2d_cast_local_ray` and over `bevy_math_raycast2d` (their time
  divided by this one; above 1 means faster than them);
- one table for the other groups: median ns per call;
- the issue's targets, checked against the `clip/uniform` and `sweep_point_segment` numbers.

Usage: python3 scripts/bench_table.py [path/to/target/criterion]
(default: $CARGO_TARGET_DIR/criterion, else target/criterion next to this script's parent)
Standard library only (Python 3.11+).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

# Elements per iteration in benches/kernels.rs, used only when benchmark.json has no throughput.
DEFAULT_ELEMENTS = 65_536

CLIP_MIXES = ["uniform", "mostly_outside", "mostly_inside", "mixed", "long_traversing"]
CLIP_FUNCTIONS = [
    "liang_barsky",
    "slab",
    "cohen_sutherland",
    "sectors",
    "default",
    "batch_simd",
    "parry2d_cast_local_ray",
    "bevy_math_raycast2d",
]
PARRY = "parry2d_cast_local_ray"
BEVY = "bevy_math_raycast2d"
OTHER_GROUPS = ["segment_segment", "segment_circle", "sweep_point_segment"]


@dataclass
class Result:
    group: str
    function: str
    ns: float  # median, per element
    lo: float  # 95% confidence interval of the median, per element
    hi: float


Results = dict[tuple[str, str], Result]


def load(root: Path) -> Results:
    results: Results = {}
    for meta_path in sorted(root.glob("**/new/benchmark.json")):
        estimates_path = meta_path.with_name("estimates.json")
        if not estimates_path.is_file():
            continue
        meta = json.loads(meta_path.read_text())
        estimates = json.loads(estimates_path.read_text())
        group = meta.get("group_id", "")
        function = meta.get("function_id") or meta.get("value_str") or ""
        throughput = meta.get("throughput") or {}
        elements = DEFAULT_ELEMENTS
        if isinstance(throughput, dict):
            elements = throughput.get("Elements", DEFAULT_ELEMENTS)
        median = estimates["median"]
        interval = median["confidence_interval"]
        results[(group, function)] = Result(
            group,
            function,
            median["point_estimate"] / elements,
            interval["lower_bound"] / elements,
            interval["upper_bound"] / elements,
        )
    return results


def ratio(reference: Result | None, this: Result) -> str:
    if reference is None or this.ns <= 0.0:
        return "–"
    return f"{reference.ns / this.ns:.2f}×"


def ordered(results: Results, group: str, preferred: list[str]) -> list[Result]:
    """The group's results, `preferred` functions first in that order, then any others."""
    in_group = {f: r for (g, f), r in results.items() if g == group}
    others = sorted(f for f in in_group if f not in preferred)
    names = [f for f in preferred if f in in_group] + others
    return [in_group[f] for f in names]


def clip_tables(results: Results) -> list[str]:
    lines: list[str] = []
    groups = sorted({g for g, _ in results if g.startswith("clip/")})
    groups = [f"clip/{m}" for m in CLIP_MIXES if f"clip/{m}" in groups] + [
        g for g in groups if g.removeprefix("clip/") not in CLIP_MIXES
    ]
    for group in groups:
        parry = results.get((group, PARRY))
        bevy = results.get((group, BEVY))
        lines.append(f"### `{group}`")
        lines.append("")
        lines.append("| function | ns/segment (median) | 95% CI | vs parry2d | vs bevy_math |")
        lines.append("|---|---:|---:|---:|---:|")
        for r in ordered(results, group, CLIP_FUNCTIONS):
            lines.append(
                f"| `{r.function}` | {r.ns:.2f} | {r.lo:.2f}–{r.hi:.2f} "
                f"| {ratio(parry, r)} | {ratio(bevy, r)} |"
            )
        lines.append("")
    return lines


def other_table(results: Results) -> list[str]:
    groups = sorted({g for g, _ in results if not g.startswith("clip/")})
    groups = [g for g in OTHER_GROUPS if g in groups] + [g for g in groups if g not in OTHER_GROUPS]
    if not groups:
        return []
    lines = [
        "### Other queries",
        "",
        "| group | function | ns/call (median) | 95% CI |",
        "|---|---|---:|---:|",
    ]
    for group in groups:
        for r in ordered(results, group, []):
            lines.append(f"| `{group}` | `{r.function}` | {r.ns:.2f} | {r.lo:.2f}–{r.hi:.2f} |")
    lines.append("")
    return lines


def targets(results: Results) -> list[str]:
    lines = ["### Targets", "", "| target | measured | met |", "|---|---:|:---:|"]
    parry = results.get(("clip/uniform", PARRY))
    for function, label, goal in [
        ("default", "default scalar clip ≥ 5× parry2d (uniform)", 5.0),
        ("batch_simd", "batch clip ≥ 15× parry2d (uniform)", 15.0),
    ]:
        this = results.get(("clip/uniform", function))
        if parry is None or this is None:
            lines.append(f"| {label} | missing | – |")
        else:
            speedup = parry.ns / this.ns
            lines.append(f"| {label} | {speedup:.2f}× | {'yes' if speedup >= goal else 'no'} |")
    for r in ordered(results, "sweep_point_segment", []):
        met = "yes" if r.ns < 10.0 else "no"
        label = f"sweep_point_segment single-digit ns (`{r.function}`)"
        lines.append(f"| {label} | {r.ns:.2f} ns | {met} |")
    lines.append("")
    return lines


def main() -> int:
    if len(sys.argv) > 1:
        root = Path(sys.argv[1])
    else:
        repo = Path(__file__).resolve().parent.parent
        target = os.environ.get("CARGO_TARGET_DIR") or repo / "target"
        root = Path(target) / "criterion"
    results = load(root)
    if not results:
        hint = "run `cargo bench --bench kernels` first"
        print(f"no criterion results under {root}; {hint}", file=sys.stderr)
        return 1
    print("\n".join(clip_tables(results) + other_table(results) + targets(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
