#!/usr/bin/env python3
"""Prints criterion's medians for the kernels bench as Markdown tables, a v3 and a v4 build side by side.

Reads <dir>/<group>/<contender>/new/estimates.json, written by `cargo bench -p widephase-bench --bench kernels`, for
every pair kind of the pair table (src/narrow/pairs.rs). Usage:

    scripts/bench_table.py [V3_DIR [V4_DIR]]

V3_DIR defaults to target/criterion (the repository's own x86-64-v3 build), V4_DIR to
target/v4/criterion (`RUSTFLAGS="-C target-cpu=x86-64-v4" CARGO_TARGET_DIR=target/v4 cargo bench
--bench kernels`). Each build's run times both widths ("x8", "x16"); the build's own width is x8
on v3 and x16 on v4, and its ratio to parry2d is taken within that build's run.
"""
import json
import pathlib
import re
import sys

V3 = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
V4 = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "target/v4/criterion")
# The pair kinds in the order of the pair table (src/narrow/pairs.rs): `name: $crate::...;`.
TABLE = pathlib.Path(__file__).resolve().parent.parent / "src" / "narrow" / "pairs.rs"
PAIRS = re.findall(r"^\s+([a-z_]+): \$crate::", TABLE.read_text(), re.M)
SIZES = {"4k": 4096, "4M": 4 << 20}


def median_ns(root, group, who):
    """Criterion's median in ns, or None; group names with '/' are stored one folder per part."""
    for path in [root / group.replace("/", "_") / who, root.joinpath(*group.split("/"), who)]:
        est = path / "new" / "estimates.json"
        if est.exists():
            return json.loads(est.read_text())["median"]["point_estimate"]
    return None


def rate(n, root, group, who):
    ns = median_ns(root, group, who)
    return n / ns if ns else None  # pairs per ns = G pairs/s


def fmt(x, digits=3):
    return "–" if x is None else f"{x:.{digits}g}"


def ratio(a, b, unit="x"):
    return "–" if a is None or b is None else f"{a / b:.2f}{unit}" if unit == "x" else f"{100 * a / b:.0f} %"


def pair_tables():
    for size, n in SIZES.items():
        print(f"\n{n} pairs ({size}): median G pairs/s (G rays/s for the ray casts)\n")
        ro = " v4: read-only | v4: x16 / read-only |" if size == "4M" else ""
        print("| pair | v3: x8 | v4: x8 | v4: x16 | v4: x16 / x8 | v4: reference | v4: parry2d "
              "| v3: x8 / parry2d | v4: x16 / parry2d |" + ro)
        print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if ro else ""))
        for pair in PAIRS:
            g = f"{pair}/{size}"
            v3_8 = rate(n, V3, g, "x8")
            v4_8, v4_16 = rate(n, V4, g, "x8"), rate(n, V4, g, "x16")
            if v3_8 is None and v4_16 is None:
                continue
            ref, peer3, peer4 = rate(n, V4, g, "reference"), rate(n, V3, g, "parry2d"), rate(n, V4, g, "parry2d")
            row = (f"| {pair} | {fmt(v3_8)} | {fmt(v4_8)} | {fmt(v4_16)} | {ratio(v4_16, v4_8)} | {fmt(ref)} "
                   f"| {fmt(peer4)} | {ratio(v3_8, peer3)} | {ratio(v4_16, peer4)} |")
            if ro:
                read = rate(n, V4, g, "read-only")
                row += f" {fmt(read)} | {ratio(v4_16, read, '%')} |"
            print(row)


def contact_table():
    n = SIZES["4k"]
    print(f"\nContacts, {n} pairs: median M pairs/s\n")
    print("| pair | v3: x8 | v4: x8 | v4: x16 | v4: x16 / x8 | v4: x16 / overlap | v4: parry2d | v4: x16 / parry2d |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in PAIRS:
        g = f"contact/{pair}"
        v3_8 = rate(n, V3, g, "x8")
        v4_8, v4_16, over = rate(n, V4, g, "x8"), rate(n, V4, g, "x16"), rate(n, V4, g, "overlap")
        peer = rate(n, V4, g, "parry2d")
        if v4_16 is None and v3_8 is None:
            continue
        m = lambda x: "–" if x is None else f"{1000 * x:,.0f}"
        print(f"| {pair} | {m(v3_8)} | {m(v4_8)} | {m(v4_16)} | {ratio(v4_16, v4_8)} | {ratio(v4_16, over, '%')} "
              f"| {m(peer)} | {ratio(v4_16, peer)} |")


pair_tables()
contact_table()
