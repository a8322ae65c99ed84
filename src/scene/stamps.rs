//! Which slots of a store changed since a finder last looked: per slot, the version of the
//! store's last change to it, so that a kept finder's escape check passes over the shapes at
//! rest reading a word each, not their boxes and records.
//!
//! Every change of a store (a push, `set`, `set_filter`, `set_sensor`, a removal's move of the
//! last shape into the hole, `reorder`, and each `update`, for the slots whose shape it
//! changes) takes a new version and stamps the slots it changed with it. A polygon that
//! `update` moves keeps its record (its handle) and is stamped all the same: a kept finder
//! keeps each polygon's vertices copied, and copies them again only where the slot changed.
//!
//! A finder notes the store's identity and version after a call that left its state matching
//! the scene ([`Seen`]); on its next call a slot changed since then exactly when its stamp is
//! newer ([`changed`]). Stamps are the versions' low 32 bits: compared as a wrapping difference, a
//! slot changed since a version fewer than 2³¹ changes ago is never taken for unchanged (a
//! slot unchanged for longer may be taken for changed, which costs only its check), and a
//! finder that saw more changes pass checks every slot. A clone is another store (its own
//! identity): a finder called with it checks every slot.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The source of stores' identities.
static IDENTITIES: AtomicU64 = AtomicU64::new(1);

/// A store's identity: unique among the stores of this process, a clone's included.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Identity(u64);

impl Default for Identity {
    fn default() -> Self {
        Self(IDENTITIES.fetch_add(1, Relaxed))
    }
}

impl Clone for Identity {
    /// A new identity: the clone's shapes change apart from the original's.
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// A store's identity, its version (the number of changes it has seen) and, per slot, the
/// version of its last change (low 32 bits).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stamps {
    identity: Identity,
    version: u64,
    pub(crate) of: Vec<u32>,
}

impl Stamps {
    /// A new version, the stamp of the slots changed with it.
    #[inline(always)]
    pub(crate) fn next(&mut self) -> u32 {
        self.version += 1;
        self.version as u32
    }

    /// Stamps `slot` (a live slot or the store's end, a new one) with a new version.
    #[inline(always)]
    pub(crate) fn stamp(&mut self, slot: usize) {
        let v = self.next();
        if slot == self.of.len() {
            self.of.push(v);
        } else {
            self.of[slot] = v;
        }
    }
}

/// What a finder notes of a store to know, on its next call, which slots changed since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    identity: u64,
    version: u64,
}

/// The most versions between a finder's look and its next call for which the stamps tell.
const WITHIN: u64 = 1 << 31;

impl Seen {
    /// The store as it is now.
    pub(crate) fn of(stamps: &Stamps) -> Self {
        Self {
            identity: stamps.identity.0,
            version: stamps.version,
        }
    }

    /// The version to compare `stamps`' slots with ([`changed`]), where they are the store
    /// seen and fewer than 2³¹ versions passed since; `None`: every slot may have changed.
    pub(crate) fn since(self, stamps: &Stamps) -> Option<u32> {
        (self.identity == stamps.identity.0 && stamps.version - self.version < WITHIN)
            .then_some(self.version as u32)
    }
}

/// Whether a slot stamped `stamp` changed after version `since` (see the module docs).
#[inline(always)]
pub(crate) fn changed(stamp: u32, since: u32) -> bool {
    stamp.wrapping_sub(since) as i32 > 0
}

/// Whether any of the slots stamped `stamps` changed after version `since` ([`changed`] of
/// one of them): the greatest of their wrapping differences from `since`, with no early exit,
/// so that it is a few vector instructions (an `or` of the compares was not vectorized).
#[inline(always)]
pub(crate) fn any_changed(stamps: &[u32], since: u32) -> bool {
    let newest = stamps
        .iter()
        .fold(0, |m: i32, &s| m.max(s.wrapping_sub(since) as i32));
    newest > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_stamped_after_the_look_changed_and_one_before_did_not() {
        let mut s = Stamps::default();
        for slot in 0..3 {
            s.stamp(slot);
        }
        let seen = Seen::of(&s);
        let since = seen.since(&s).expect("the same store");
        assert!(s.of.iter().all(|&v| !changed(v, since)));
        s.stamp(1);
        let now: Vec<bool> = s.of.iter().map(|&v| changed(v, since)).collect();
        assert_eq!(now, [false, true, false]);
    }

    #[test]
    fn a_clone_and_a_distant_version_tell_nothing() {
        let mut s = Stamps::default();
        s.stamp(0);
        let seen = Seen::of(&s);
        assert_eq!(seen.since(&s.clone()), None);
        assert_ne!(Seen::of(&s.clone()), seen);
        s.version += WITHIN - 1;
        assert!(seen.since(&s).is_some());
        s.version += 1;
        assert_eq!(seen.since(&s), None);
    }

    /// `any_changed` of a run is whether `changed` holds for one of its stamps, across the
    /// wrap: runs of stamps as old as the look or older, with one newer stamp at each place
    /// or none, and the empty run.
    #[test]
    fn a_run_changed_where_one_of_its_stamps_did() {
        for since in [0, 5, u32::MAX - 3, u32::MAX, 1 << 31] {
            let old = [0u32, 1, 9, 1 << 30, (1 << 31) - 1].map(|d| since.wrapping_sub(d));
            let mut run: Vec<u32> = old.iter().copied().cycle().take(64).collect();
            assert!(!any_changed(&run, since) && !any_changed(&[], since));
            for at in [0, 1, 31, 63] {
                for d in [1u32, 2, (1 << 31) - 1] {
                    let kept = run[at];
                    run[at] = since.wrapping_add(d);
                    assert!(any_changed(&run, since), "{since} {at} {d}");
                    assert!(any_changed(&run[at..=at], since));
                    assert!(!any_changed(&run[..at], since));
                    run[at] = kept;
                }
            }
        }
    }

    /// The wrapping comparison across the stamps' 2³² wrap: a stamp newer than the look by
    /// up to 2³¹ - 1 versions is changed, one as old or older is not.
    #[test]
    fn stamps_compare_across_their_wrap() {
        for since in [0, 5, u32::MAX - 3, u32::MAX, 1 << 31] {
            for d in [1u32, 2, 7, (1 << 31) - 1] {
                assert!(changed(since.wrapping_add(d), since), "{since} {d}");
            }
            for d in [0u32, 1, 9, 1 << 30] {
                assert!(!changed(since.wrapping_sub(d), since), "{since} {d}");
            }
        }
    }
}
