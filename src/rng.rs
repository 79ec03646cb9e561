//! One small seeded random number generator (SplitMix64) for everything that must be
//! reproducible from a seed: self-play openings, sampling mixed strategies, random tests.

/// A deterministic generator: the same seed gives the same sequence on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }

    /// A uniform float in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform index below `n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_f64() * n as f64) as usize % n
    }

    /// Put `items` in a uniformly random order (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// An index drawn with the given (not necessarily normalised) probabilities.
    pub fn pick(&mut self, probs: &[f64]) -> usize {
        let total: f64 = probs.iter().sum();
        let mut r = self.next_f64() * total;
        for (i, &p) in probs.iter().enumerate() {
            if r < p {
                return i;
            }
            r -= p;
        }
        probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_sequence_and_indices_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut counts = [0usize; 7];
        for _ in 0..7000 {
            let x = a.below(7);
            assert_eq!(x, b.below(7));
            counts[x] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(Rng::new(1).below(0), 0);
    }

    #[test]
    fn pick_follows_the_weights() {
        let mut rng = Rng::new(7);
        let mut hits = [0usize; 3];
        for _ in 0..10_000 {
            hits[rng.pick(&[0.0, 0.25, 0.75])] += 1;
        }
        assert_eq!(hits[0], 0);
        assert!((2200..2800).contains(&hits[1]), "{hits:?}");
    }
}
