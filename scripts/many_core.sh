#!/usr/bin/env bash
# The `scaling` example's tables on a many-core machine that has no Rust toolchain, in one
# command that fits a short loan of the machine (about 6 minutes on a 16-core Xeon, each run
# cut off after LIMIT seconds so that one slow run cannot take the rest).
#
# Build where Rust is, then carry the binary and this script over:
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --example scaling
#   bash scripts/many_core.sh "$OUT"          # on the many-core machine
#
# Each run's output lands in a file of its own under the folder given (default: $OUT, else
# /tmp/many_core) as soon as it ends, most wanted first, with the machine's `lscpu` beside
# them; done.txt lists the runs that ended and their exit codes.
#
# Knobs: BIN (the scaling binary), THREADS (default 1,2,4,8,16), LIMIT (seconds a run, 150).
set -u

bin=${BIN:-./target/release/examples/scaling}
out=${1:-${OUT:-/tmp/many_core}}
threads=${THREADS:-1,2,4,8,16}
limit=${LIMIT:-150}
mkdir -p "$out"
if [ ! -x "$bin" ]; then
    echo "many_core: no scaling binary at $bin (build it first, see the header)" >&2
    exit 2
fi
{ lscpu; echo; echo "nproc: $(nproc)"; date -u; } > "$out/machine.txt" 2>&1

run() {
    local name=$1
    shift
    timeout "$limit" "$bin" --threads "$threads" "$@" > "$out/$name.txt" 2>&1
    echo "$name: rc $? ($*)" >> "$out/done.txt"
}

# The scene first: every shape moving about 3 % of its size a frame.
run mixed --shapes 100000,1000000 --frames 100
# The kept path alone at 1 M (no timed choice of the cheaper path).
run mixed_kept_only --shapes 1000000 --frames 40 --choice off
# The other worlds.
run tiles --scene tiles --shapes 100000,1000000 --frames 40
run sized --scene sized --shapes 100000,1000000 --frames 40
run polygons --scene polygons --shapes 100000,1000000 --frames 40
run crowded --scene crowded --shapes 100000,1000000 --frames 40
cat "$out/done.txt"
