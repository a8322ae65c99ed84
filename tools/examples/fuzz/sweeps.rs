//! The sweep kinds of the fuzzer: `batch_sweep_at` at both widths against the scalar
//! reference, on the generators' pairs with awkward motions. A mismatch's `b` bits carry the
//! motion's two after the shape's fields, so that `--replay` can run it again.

use super::shapes::{Arbitrary, Gen};
use super::{Mismatch, first_mismatch, from_bits};
use widephase::wide::{f32x8, f32x16};
use widephase::{Motions, ShapeSoa, Sweep, SweepPair, Sweeps, batch_sweep, batch_sweep_at};

/// A sweep's bits: `None`, or the bits of `t` and the normal.
fn sweep_bits(s: Option<Sweep>) -> Option<[u32; 3]> {
    s.map(|s| [s.t.to_bits(), s.normal[0].to_bits(), s.normal[1].to_bits()])
}

/// Runs one seeded batch of `n` sweeps of `A` moving against `B`; the first mismatch (in the
/// hit or in the bits of `t` and the normal), if any.
pub fn batch_sweeps<A, B>(kind: &'static str, seed: u64, n: usize) -> Option<Mismatch>
where
    A: SweepPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let mut g = Gen::new(seed);
    let (va, vb) = g.pairs::<A::Shape, B::Shape>(n);
    let vm: Vec<[f32; 2]> = (0..n).map(|i| g.motion(&va[i], &vb[i])).collect();
    let a: A = va.iter().copied().collect();
    let b: B = vb.iter().copied().collect();
    let motions: Motions = vm.iter().copied().collect();
    let (mut eight, mut sixteen) = (Sweeps::new(), Sweeps::new());
    batch_sweep_at::<f32x8, _, _>(&a, &b, &motions, &mut eight).expect("equal lengths");
    batch_sweep_at::<f32x16, _, _>(&a, &b, &motions, &mut sixteen).expect("equal lengths");
    let mut m = first_mismatch(
        (kind, seed),
        (&va, &vb),
        |i| (eight.get(i), sixteen.get(i)),
        |i| A::sweep_reference(&va[i], &vb[i], vm[i]),
        |&s| sweep_bits(s),
    )?;
    let motion = vm[m.index];
    m.b = format!("{} moving by {motion:?}", m.b);
    m.b_bits.extend(motion.map(f32::to_bits));
    Some(m)
}

/// Replays one sweep (`b`'s bits followed by the motion's two): the reference, the kernel in
/// all eight lanes and the batch function alone; whether they give the same bits.
pub fn replay_sweep<A, B>(a_bits: &[u32], b_bits: &[u32]) -> Result<bool, String>
where
    A: SweepPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let split = b_bits
        .len()
        .checked_sub(2)
        .ok_or("no motion after the second shape")?;
    let a: A::Shape = from_bits(a_bits).ok_or("wrong number of fields for the first shape")?;
    let b: B::Shape =
        from_bits(&b_bits[..split]).ok_or("wrong number of fields for the second shape")?;
    let motion = [
        f32::from_bits(b_bits[split]),
        f32::from_bits(b_bits[split + 1]),
    ];
    let want = A::sweep_reference(&a, &b, motion);
    let full = A::sweep_kernel(
        &[a; 8].into_iter().collect::<A>().block(0),
        &[b; 8].into_iter().collect::<B>().block(0),
        &[f32x8::splat(motion[0]), f32x8::splat(motion[1])],
    );
    let mut one = Sweeps::new();
    batch_sweep(
        &[a].into_iter().collect::<A>(),
        &[b].into_iter().collect::<B>(),
        &[motion].into_iter().collect(),
        &mut one,
    )
    .expect("equal lengths");
    println!("a = {a:?}\nb = {b:?}\nmotion = {motion:?}");
    println!(
        "reference: {want:?}; kernel, lane 0 of eight: {:?}; kernel, one lane: {:?}",
        full.lane(0),
        one.get(0)
    );
    let lanes = (0..8).all(|l| sweep_bits(full.lane(l)) == sweep_bits(want));
    Ok(lanes && sweep_bits(one.get(0)) == sweep_bits(want))
}
