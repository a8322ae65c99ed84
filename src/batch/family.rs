//! `batch_family!`: the three entry points every pair-wise batch family has alike — the call at
//! the build's lane width, the `_at` call at a chosen width, and the `par_` call on rayon's
//! threads — around the family's own `fill` (one run of blocks into its storage) and `split`
//! (the storage cut into tasks).

/// Writes `$batch`, `$batch_at` and `$par` for pair kinds `A: $Pair<B>`, taking `a`, `b`, the
/// extra columns `$m` (each as long as `a`) and `out`: the one length rule, `out` reset to
/// `a.len()` pairs, `$fill::<V, A, B>(a, b, $m.., first_block, run)` over the whole storage or
/// over each task's run from `$split`, and the hit bits past the end cleared.
macro_rules! batch_family {
    (
        $(#[$doc:meta])* $batch:ident,
        $(#[$doc_at:meta])* $batch_at:ident,
        $(#[$doc_par:meta])* $par:ident:
        $Pair:ident, ($($m:ident: $M:ty),*) -> $Out:ty, fill $fill:ident, split $split:path
    ) => {
        $(#[$doc])*
        pub fn $batch<A, B>(a: &A, b: &B, $($m: &$M,)* out: &mut $Out) -> Result<(), LengthMismatch>
        where
            A: $Pair<B>,
            B: ShapeSoa,
        {
            $batch_at::<Wide, A, B>(a, b, $($m,)* out)
        }

        $(#[$doc_at])*
        pub fn $batch_at<V, A, B>(a: &A, b: &B, $($m: &$M,)* out: &mut $Out) -> Result<(), LengthMismatch>
        where
            V: Simd,
            A: $Pair<B>,
            B: ShapeSoa,
        {
            check_lengths(a.len(), &[b.len() $(, $m.len())*])?;
            $fill::<V, A, B>(a, b, $($m,)* 0, out.reset(a.len()));
            out.mask_tail();
            Ok(())
        }

        $(#[$doc_par])*
        pub fn $par<A, B>(a: &A, b: &B, $($m: &$M,)* out: &mut $Out) -> Result<(), LengthMismatch>
        where
            A: $Pair<B> + Sync,
            B: ShapeSoa + Sync,
        {
            check_lengths(a.len(), &[b.len() $(, $m.len())*])?;
            $split(out.reset(a.len()), &|task, run| {
                $fill::<Wide, A, B>(a, b, $($m,)* task * TASK_PAIRS / KERNEL_LANES, run);
            });
            out.mask_tail();
            Ok(())
        }
    };
}
