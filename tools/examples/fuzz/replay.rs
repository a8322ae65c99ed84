//! Replaying a reproducer: one pair's reference against its kernel, in all eight lanes and
//! alone (with seven padding lanes), for the overlap tests, the contacts, the manifolds and
//! the ray casts (the sweeps' is in `sweeps.rs`).

use crate::shapes::{Arbitrary, manifold_bits};
use crate::{contact_bits, from_bits};
use widephase::{
    Contact, ContactPair, Contacts, HitMask, Manifold, ManifoldPair, Manifolds, Overlaps, Ray,
    RayCast, Rays, ShapeSoa, batch_contact, batch_manifold, batch_raycast, batch_test,
};

/// Replays one manifold: the reference and the batch function alone; whether they give the
/// same bits.
pub(crate) fn replay_manifold<A, B>(
    a_bits: &[u32],
    b_bits: &[u32],
    reference: fn(&A::Shape, &B::Shape) -> Option<Manifold>,
) -> Result<bool, String>
where
    A: ManifoldPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let a: A::Shape = from_bits(a_bits).ok_or("wrong number of fields for the first shape")?;
    let b: B::Shape = from_bits(b_bits).ok_or("wrong number of fields for the second shape")?;
    let want = reference(&a, &b);
    let mut one = Manifolds::new();
    batch_manifold(
        &[a].into_iter().collect::<A>(),
        &[b].into_iter().collect::<B>(),
        &mut one,
    )
    .expect("equal lengths");
    println!("a = {a:?}\nb = {b:?}");
    println!("reference: {want:?}; batch_manifold: {:?}", one.get(0));
    Ok(manifold_bits(one.get(0)) == manifold_bits(want))
}

/// Replays one contact: the reference and the kernel in all eight lanes and alone; whether
/// they give the same bits.
pub(crate) fn replay_contact<A, B>(
    a_bits: &[u32],
    b_bits: &[u32],
    reference: fn(&A::Shape, &B::Shape) -> Option<Contact>,
) -> Result<bool, String>
where
    A: ContactPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let a: A::Shape = from_bits(a_bits).ok_or("wrong number of fields for the first shape")?;
    let b: B::Shape = from_bits(b_bits).ok_or("wrong number of fields for the second shape")?;
    let want = reference(&a, &b);
    let full = A::contact_kernel(
        &[a; 8].into_iter().collect::<A>().block(0),
        &[b; 8].into_iter().collect::<B>().block(0),
    );
    let mut one = Contacts::new();
    batch_contact(
        &[a].into_iter().collect::<A>(),
        &[b].into_iter().collect::<B>(),
        &mut one,
    )
    .expect("equal lengths");
    println!("a = {a:?}\nb = {b:?}");
    println!(
        "reference: {want:?}; kernel, lane 0 of eight: {:?}; kernel, one lane: {:?}",
        full.lane(0),
        one.get(0)
    );
    let lanes = (0..8).all(|l| contact_bits(full.lane(l)) == contact_bits(want));
    Ok(lanes && contact_bits(one.get(0)) == contact_bits(want))
}

/// Replays one ray cast: the reference and the kernel in all eight lanes and alone; whether
/// they give the same bits.
pub(crate) fn replay_cast<S>(
    r_bits: &[u32],
    s_bits: &[u32],
    reference: fn(&Ray, &S::Shape) -> f32,
) -> Result<bool, String>
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: Arbitrary,
{
    let r: Ray = from_bits(r_bits).ok_or("wrong number of fields for the ray")?;
    let s: S::Shape = from_bits(s_bits).ok_or("wrong number of fields for the shape")?;
    let want = reference(&r, &s);
    let full = S::kernel(
        &[r; 8].into_iter().collect::<Rays>().block(0),
        &[s; 8].into_iter().collect::<S>().block(0),
    );
    let mut one = Vec::new();
    batch_raycast(
        &[r].into_iter().collect(),
        &[s].into_iter().collect::<S>(),
        &mut one,
    )
    .expect("equal lengths");
    println!(
        "ray = {r:?}
shape = {s:?}"
    );
    println!(
        "reference: {want:?}; kernel, all lanes: {:?}; kernel, one lane: {:?}",
        full.to_array(),
        one[0]
    );
    Ok(full
        .to_array()
        .iter()
        .all(|t| t.to_bits() == want.to_bits())
        && one[0].to_bits() == want.to_bits())
}

/// Replays one pair: the reference and the kernel (the pair in all eight lanes, and alone with
/// seven padding lanes); whether they agree.
pub(crate) fn replay_pair<A, B>(
    a_bits: &[u32],
    b_bits: &[u32],
    reference: fn(&A::Shape, &B::Shape) -> bool,
) -> Result<bool, String>
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let a: A::Shape = from_bits(a_bits).ok_or("wrong number of fields for the first shape")?;
    let b: B::Shape = from_bits(b_bits).ok_or("wrong number of fields for the second shape")?;
    let want = reference(&a, &b);
    let full = A::kernel(
        &[a; 8].into_iter().collect::<A>().block(0),
        &[b; 8].into_iter().collect::<B>().block(0),
    );
    let mut one = HitMask::new();
    batch_test(
        &[a].into_iter().collect::<A>(),
        &[b].into_iter().collect::<B>(),
        &mut one,
    )
    .expect("equal lengths");
    println!("a = {a:?}\nb = {b:?}");
    println!(
        "reference: {want}; kernel, all lanes: {full:#010b}; kernel, one lane: {}",
        one.get(0)
    );
    Ok(full == if want { 0xff } else { 0 } && one.get(0) == want)
}
