#!/usr/bin/env bash
# The `scaling` example's tables on a many-core machine that has no Rust toolchain, in one
# command that fits a short loan of the machine: at most TOTAL seconds in all, each run cut
# off after LIMIT seconds so that one slow run cannot take the rest.
#
# Build where Rust is, statically linked (the other machine's C library may be older than the
# one the build links against), then carry the binary over with this script:
#   RUSTFLAGS="-C target-cpu=x86-64-v3 -C target-feature=+crt-static" \
#     cargo build --release --example scaling --target x86_64-unknown-linux-gnu
#   bash scripts/many_core.sh "$OUT"          # on the many-core machine
# (carry: target/x86_64-unknown-linux-gnu/release/examples/scaling, 5.5 MB)
#
# Each run's output lands under the folder given (default: $OUT, else /tmp/many_core) as soon
# as it ends, most wanted first, with the machine's `lscpu` beside them; done.txt lists the
# runs that ended and their exit codes. The other worlds share one file, worlds.txt, and the
# 100 k frames called from the main thread follow the others in mixed_100k.txt: seven files
# in all, since the device tool brings back at most eight (a ninth was lost once).
#
# Knobs: BIN (the scaling binary), THREADS (default 1,2,4,8,16), LIMIT (seconds a run at
# most, 240), TOTAL (seconds for all the runs, 480: the runs left when it is spent are skipped
# and listed as such). AGAINST (a second scaling binary, another build to compare with): first,
# the kept 100 k and 1 M frames of both builds, alternated for ROUNDS rounds (default 3), into
# ab.txt (the eighth file), each block headed by its binary; then the set with BIN. With
# AGAINST, THREADS=1,16 keeps it inside one ten-minute call.
set -u

static=./target/x86_64-unknown-linux-gnu/release/examples/scaling
if [ -x "$static" ]; then default=$static; else default=./target/release/examples/scaling; fi
bin=${BIN:-$default}
out=${1:-${OUT:-/tmp/many_core}}
threads=${THREADS:-1,2,4,8,16}
limit=${LIMIT:-240}
deadline=$((SECONDS + ${TOTAL:-480}))
mkdir -p "$out"
# The runs add to their files: none left from an earlier call into the same folder.
rm -f "$out"/{ab,mixed_100k,mixed_1m,mixed_100k_no_spin,mixed_1m_kept_only,worlds,done}.txt
against=${AGAINST:-}
for b in "$bin" ${against:+"$against"}; do
    if [ ! -x "$b" ]; then
        echo "many_core: no scaling binary at $b (build it first, see the header)" >&2
        exit 2
    fi
done
{ lscpu; echo; echo "nproc: $(nproc)"; echo "binary: $bin${against:+ (against $against)}"; date -u; } > "$out/machine.txt" 2>&1

# run FILE ARGS...: the binary with ARGS, its output added to FILE.txt.
run() {
    local name=$1 left=$((deadline - SECONDS))
    shift
    if [ "$left" -lt 10 ]; then
        echo "$name: skipped, the time was spent ($*)" >> "$out/done.txt"
        return
    fi
    local start=$SECONDS
    timeout "$((left < limit ? left : limit))" "${exe:-$bin}" --threads "${only:-$threads}" "$@" \
        >> "$out/$name.txt" 2>&1
    echo "$name: rc $? in $((SECONDS - start)) s ($*)" >> "$out/done.txt"
}

# Two builds compared first, where asked: the same frames, one build then the other, each
# round (the machine's drift falls on both).
if [ -n "$against" ]; then
    for round in $(seq 1 "${ROUNDS:-3}"); do
        for exe in "$bin" "$against"; do
            echo "== round $round: $exe" >> "$out/ab.txt"
            run ab --shapes 100000,1000000 --frames 128 --warm-up 30 --modes kept --choice off
        done
    done
    exe=
fi

# The scene first: every shape moving about 3 % of its size a frame, timed over the
# motion's whole period (see the example's FRAMES: a shorter window's median says where it fell).
run mixed_100k --shapes 100000 --frames 128
# The same frames called from the main thread on rayon's global pool, as a game calls them
# (`Scene::update` and the finder each hand their call over to the pool once): one thread
# count a run, added to the same file.
for only in ${threads//,/ }; do
    run mixed_100k --shapes 100000 --frames 128 --caller main
done
only=
# The kept 100 k frames with the scene in spatial order (`Scene::reorder`), added to the same
# file: the finder's indices then follow the slots, so a thread's share of the records in
# its gather is, mostly, the share its update wrote; in the scene as pushed each record the
# update writes was read last from another core (the motion reads its steps by id, out of
# order after the reorder: compare the finder's phases, not the update).
run mixed_100k --shapes 100000 --frames 128 --modes kept --reorder
run mixed_1m --shapes 1000000 --frames 128 --warm-up 100
# The same 100 k frames with the pool's threads left to sleep between a call's passes
# (`PairFinder::with_spinning(false)`): what holding them awake (`src/awake/`) wins here.
run mixed_100k_no_spin --shapes 100000 --frames 128 --spin off
# The kept path alone at 1 M (no timed choice of the cheaper path).
run mixed_1m_kept_only --shapes 1000000 --frames 128 --warm-up 30 --modes kept --choice off
# The other worlds.
for scene in tiles sized polygons crowded; do
    run worlds --scene "$scene" --shapes 100000,1000000 --frames 20
done
cat "$out/done.txt"
