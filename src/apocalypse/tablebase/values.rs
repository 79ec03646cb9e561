//! The values of one class held compactly, as the file stores them: two bits a position
//! (loss, draw, win, fractional), the fractional values as `f64` and, for every won or lost
//! position, the stamp of its win. Rank directories (one count per 32 positions) find a
//! position's fractional value or stamp with one popcount, so a class costs about
//! 0.5 + 8 x (fractional share) + 2 x (decisive share) bytes a position in memory instead of 12.

/// Two-bit codes of a value.
const LOSS: u64 = 0;
const DRAW: u64 = 1;
const WIN: u64 = 2;
const FRACTIONAL: u64 = 3;

/// The low bit of each 2-bit code in a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Largest stamp a class may hold (stamps are rounds of the limit-sure analysis of a block).
pub const MAX_STAMP: u32 = u16::MAX as u32;

/// One class's values, read-only.
#[derive(Clone, Debug, PartialEq)]
pub struct CompactValues {
    len: usize,
    /// 32 codes per word, position `i` at bits `2 (i % 32)`.
    codes: Vec<u64>,
    /// Fractional codes before each word.
    fractional_before: Vec<u32>,
    /// Decisive (won or lost) codes before each word.
    decisive_before: Vec<u32>,
    fractional: Vec<f64>,
    stamps: Vec<u16>,
}

fn code_of(v: f64) -> u64 {
    if v == -1.0 {
        LOSS
    } else if v == 0.0 {
        DRAW
    } else if v == 1.0 {
        WIN
    } else {
        FRACTIONAL
    }
}

/// Mask of the codes below position `i % 32` of a word.
fn below(i: usize) -> u64 {
    (1u64 << (2 * (i % 32))) - 1
}

impl CompactValues {
    /// Pack one value and one stamp per position (stamps of positions that are not won or
    /// lost are ignored; they must fit `MAX_STAMP`).
    pub fn pack(values: &[f64], stamps: &[u32]) -> Result<CompactValues, String> {
        let mut codes = vec![0u64; values.len().div_ceil(32)];
        let mut fractional = Vec::new();
        let mut decisive_stamps = Vec::new();
        for (i, (&v, &stamp)) in values.iter().zip(stamps).enumerate() {
            let code = code_of(v);
            codes[i / 32] |= code << (2 * (i % 32));
            match code {
                FRACTIONAL => fractional.push(v),
                LOSS | WIN => decisive_stamps.push(
                    u16::try_from(stamp)
                        .map_err(|_| format!("stamp {stamp} exceeds {MAX_STAMP}"))?,
                ),
                _ => {}
            }
        }
        CompactValues::from_parts(values.len(), codes, fractional, decisive_stamps)
    }

    /// Assemble from the stored parts, checking that they agree.
    pub fn from_parts(
        len: usize,
        codes: Vec<u64>,
        fractional: Vec<f64>,
        stamps: Vec<u16>,
    ) -> Result<CompactValues, String> {
        if codes.len() != len.div_ceil(32) {
            return Err("wrong number of value codes".to_string());
        }
        let (mut fractional_before, mut decisive_before) = (Vec::new(), Vec::new());
        let (mut f, mut d) = (0u32, 0u32);
        for (w, &word) in codes.iter().enumerate() {
            fractional_before.push(f);
            decisive_before.push(d);
            let used = if (w + 1) * 32 <= len {
                u64::MAX
            } else {
                below(len)
            };
            f += (word & (word >> 1) & LOW_BITS & used).count_ones();
            d += (!word & LOW_BITS & used).count_ones();
        }
        if f as usize != fractional.len() || d as usize != stamps.len() {
            return Err(format!(
                "codes call for {f} fractional values and {d} stamps, found {} and {}",
                fractional.len(),
                stamps.len()
            ));
        }
        Ok(CompactValues {
            len,
            codes,
            fractional_before,
            decisive_before,
            fractional,
            stamps,
        })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn code(&self, i: usize) -> u64 {
        (self.codes[i / 32] >> (2 * (i % 32))) & 3
    }

    /// The value of position `i`.
    pub fn value(&self, i: usize) -> f64 {
        match self.code(i) {
            LOSS => -1.0,
            DRAW => 0.0,
            WIN => 1.0,
            _ => {
                let word = self.codes[i / 32];
                let before = (word & (word >> 1) & LOW_BITS & below(i)).count_ones();
                self.fractional[(self.fractional_before[i / 32] + before) as usize]
            }
        }
    }

    /// The stamp of position `i` (0 unless it is won or lost and the build stamped it).
    pub fn stamp(&self, i: usize) -> u32 {
        match self.code(i) {
            LOSS | WIN => {
                let word = self.codes[i / 32];
                let before = (!word & LOW_BITS & below(i)).count_ones();
                self.stamps[(self.decisive_before[i / 32] + before) as usize] as u32
            }
            _ => 0,
        }
    }

    /// The packed codes (32 a word).
    pub fn codes(&self) -> &[u64] {
        &self.codes
    }

    /// The fractional values in position order.
    pub fn fractional(&self) -> &[f64] {
        &self.fractional
    }

    /// The stamps of the won and lost positions in position order.
    pub fn stamps(&self) -> &[u16] {
        &self.stamps
    }

    /// Every value, in position order.
    pub fn unpack(&self) -> Vec<f64> {
        (0..self.len).map(|i| self.value(i)).collect()
    }

    /// Positions won by White, drawn, lost, and with a fractional value.
    pub fn tally(&self) -> [u64; 4] {
        let mut r = [0u64; 4];
        for i in 0..self.len {
            r[match self.code(i) {
                WIN => 0,
                DRAW => 1,
                LOSS => 2,
                _ => 3,
            }] += 1;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_and_stamp_reads_back_across_word_boundaries() {
        let mut values = Vec::new();
        let mut stamps = Vec::new();
        for i in 0..1000u32 {
            let v = match i % 7 {
                0 | 5 => 1.0,
                1 => -1.0,
                2 | 6 => 0.0,
                _ => (i as f64 / 1000.0) - 0.5 + 1e-7,
            };
            values.push(v);
            stamps.push(if v.abs() == 1.0 { i % 300 } else { 0 });
        }
        let packed = CompactValues::pack(&values, &stamps).unwrap();
        assert_eq!(packed.len(), 1000);
        for i in 0..1000 {
            assert_eq!(packed.value(i), values[i], "value {i}");
            assert_eq!(packed.stamp(i), stamps[i], "stamp {i}");
        }
        assert_eq!(packed.unpack(), values);
        let t = packed.tally();
        assert_eq!(t.iter().sum::<u64>(), 1000);
        assert_eq!(t[0], values.iter().filter(|&&v| v == 1.0).count() as u64);
    }

    #[test]
    fn mismatched_parts_and_oversized_stamps_are_refused() {
        assert!(CompactValues::pack(&[1.0], &[70_000]).is_err());
        let good = CompactValues::pack(&[0.5, 1.0, 0.0], &[0, 3, 0]).unwrap();
        assert!(CompactValues::from_parts(3, good.codes().to_vec(), vec![], vec![3]).is_err());
        assert!(CompactValues::from_parts(3, good.codes().to_vec(), vec![0.5], vec![]).is_err());
        assert!(CompactValues::from_parts(40, good.codes().to_vec(), vec![0.5], vec![3]).is_err());
    }
}
