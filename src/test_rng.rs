//! A small fixed random source for the crate's unit tests (xorshift32): the same numbers on
//! every run and machine.

/// The generator's state.
pub(crate) struct Xorshift(u32);

impl Xorshift {
    /// A generator from `seed` (not zero).
    pub(crate) fn new(seed: u32) -> Self {
        Self(seed)
    }

    /// The next 32 random bits.
    pub(crate) fn bits(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    /// A number below `m`.
    pub(crate) fn below(&mut self, m: u32) -> u32 {
        self.bits() % m
    }

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        (self.bits() >> 8) as f32 / (1 << 24) as f32
    }

    /// A square box `[min_x, min_y, max_x, max_y]` of side `side`, its minimum corner
    /// anywhere in the square of side `span` from `from`.
    pub(crate) fn square(&mut self, from: [f32; 2], span: f32, side: f32) -> [f32; 4] {
        let (x, y) = (from[0] + span * self.unit(), from[1] + span * self.unit());
        [x, y, x + side, y + side]
    }
}
