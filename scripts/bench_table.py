#!/usr/bin/env python3
"""Prints criterion's medians for the kernels bench as a Markdown table.

Reads target/criterion/<pair>/<size>/<contender>/new/estimates.json, written by
`cargo bench --bench kernels`, for every pair kind of the pair table (src/narrow/pairs.rs).
Columns: median throughput of each contender in G pairs/s (G rays/s for the ray casts) and
the x8 kernel's ratios to the others. Usage: scripts/bench_table.py [criterion dir]
"""
import json
import re
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
# The pair kinds in the order of the pair table (src/narrow/pairs.rs): `name: $crate::...;`.
TABLE = pathlib.Path(__file__).resolve().parent.parent / "src" / "narrow" / "pairs.rs"
PAIRS = re.findall(r"^\s+([a-z_]+): \$crate::", TABLE.read_text(), re.M)
SIZES = {"4k": 4096, "4M": 4 << 20}


def median_ns(pair, size, who):
    path = root / f"{pair}_{size}" / who / "new" / "estimates.json"
    if not path.exists():
        path = root / pair / size / who / "new" / "estimates.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["median"]["point_estimate"]


def gps(n, ns):
    return n / ns if ns else None  # pairs per ns = G pairs/s


for size, n in SIZES.items():
    read = " read-only G/s | x8 / read-only |" if size == "4M" else ""
    print(f"\n{n} pairs ({size}): median G pairs/s\n")
    print(f"| pair | x8 | reference | parry2d | x8 / reference | x8 / parry2d |{read}")
    print("|---|---|---|---|---|---|" + ("---|---|" if size == "4M" else ""))
    for pair in PAIRS:
        t = {w: median_ns(pair, size, w) for w in ["x8", "reference", "parry2d", "read-only"]}
        if t["x8"] is None:
            continue
        x8, ref, peer = gps(n, t["x8"]), gps(n, t["reference"]), gps(n, t["parry2d"])
        row = f"| {pair} | {x8:.2f} | {ref:.3f} | {peer:.4f} | {x8 / ref:.1f}x | {x8 / peer:.0f}x |"
        if size == "4M" and t["read-only"]:
            ro = gps(n, t["read-only"])
            row += f" {ro:.2f} | {100 * x8 / ro:.0f} % |"
        print(row)
