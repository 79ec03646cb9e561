//! The tablebase file format: one file per class, written atomically, in a directory per rule
//! set (`rules_dir`).
//!
//! Layout (little endian): magic `APOCTB\r\n`, format version (u32), class (6 bytes: footmen,
//! horsemen, penalties, White's first), the rule set's code (1 byte: 0 classic, 1 vchess), a
//! zero byte, number of positions (u64), number of fractional values (u64), number of won or
//! lost positions (u64), largest residual of the value iteration (f64), iterations (u32),
//! converged flag (u32), bytes per stamp (u32: 1 or 2); then the 2-bit codes of the positions
//! (0 = loss, 1 = draw, 2 = win, 3 = fractional), 32 to a u64 word; the fractional values as f64
//! in position order; for each won or lost position, in position order, the stamp of its win
//! (0 = none); then an FNV-1a 64 checksum of all the bytes before it. Most values are -1, 0 or
//! 1 and stamps are small, so a position takes about 0.25 + 8 x (fractional share) + 1 x
//! (decisive share) bytes; the layout is the in-memory one of `CompactValues`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::ClassKey;
use super::values::CompactValues;
use crate::apocalypse::rules::ruleset::RuleSet;

/// File magic.
const MAGIC: &[u8; 8] = b"APOCTB\r\n";
/// Format version; bump on any layout change, or when older builds stored wrong values (version 1
/// left limit-sure wins at the value iteration's c/N approximation of ±1; version 3 added the
/// rule set; version 4 packs codes in words, narrows stamps and stamps wins per block).
pub const VERSION: u32 = 4;
/// Bytes before the packed values.
const HEADER_LEN: usize = 8 + 4 + 8 + 8 + 8 + 8 + 8 + 4 + 4 + 4;

/// Values of one class with how the iteration ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassFile {
    /// The class.
    pub key: ClassKey,
    /// The rules the values hold under.
    pub rules: RuleSet,
    /// One value and (for won and lost positions) one stamp per position of the class index:
    /// the order in which a win was established within its block, 0 if none.
    pub values: CompactValues,
    /// Largest value change in the last iteration (0 when the class needed no iteration).
    pub residual: f64,
    /// Iterations used by the slowest block.
    pub iterations: u32,
    /// Whether every block converged below the tolerance.
    pub converged: bool,
}

/// The file name of a class, e.g. `PPNvp-01.tb`.
pub fn file_name(key: &ClassKey) -> String {
    format!("{}.tb", key.name())
}

/// The directory of one rule set's files under the tablebase directory `top`.
pub fn rules_dir(top: &Path, rules: RuleSet) -> PathBuf {
    top.join(rules.name())
}

/// The path of a class's file in `dir` (a rule set's directory).
pub fn path_of(dir: &Path, key: &ClassKey) -> PathBuf {
    dir.join(file_name(key))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Serialise a class.
pub fn encode(file: &ClassFile) -> Vec<u8> {
    let v = &file.values;
    let stamp_bytes: usize = if v.stamps().iter().all(|&s| s <= u8::MAX as u16) {
        1
    } else {
        2
    };
    let mut out = Vec::with_capacity(
        HEADER_LEN
            + v.codes().len() * 8
            + v.fractional().len() * 8
            + v.stamps().len() * stamp_bytes
            + 8,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let k = &file.key;
    out.extend_from_slice(&[
        k.footmen[0],
        k.horsemen[0],
        k.penalties[0],
        k.footmen[1],
        k.horsemen[1],
        k.penalties[1],
        file.rules.code(),
        0,
    ]);
    out.extend_from_slice(&(v.len() as u64).to_le_bytes());
    out.extend_from_slice(&(v.fractional().len() as u64).to_le_bytes());
    out.extend_from_slice(&(v.stamps().len() as u64).to_le_bytes());
    out.extend_from_slice(&file.residual.to_le_bytes());
    out.extend_from_slice(&file.iterations.to_le_bytes());
    out.extend_from_slice(&(file.converged as u32).to_le_bytes());
    out.extend_from_slice(&(stamp_bytes as u32).to_le_bytes());
    for word in v.codes() {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for f in v.fractional() {
        out.extend_from_slice(&f.to_le_bytes());
    }
    for &stamp in v.stamps() {
        out.extend_from_slice(&stamp.to_le_bytes()[..stamp_bytes]);
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Parse a class file, checking magic, version, class, rule set, length and checksum.
pub fn decode(
    bytes: &[u8],
    expected: &ClassKey,
    rules: RuleSet,
    positions: u64,
) -> Result<ClassFile, String> {
    if bytes.len() < HEADER_LEN + 8 || &bytes[..8] != MAGIC {
        return Err("not a tablebase file (bad magic or too short)".to_string());
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this program reads version {VERSION}"
        ));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64_at(tail, 0) {
        return Err("checksum mismatch (file damaged or truncated)".to_string());
    }
    let c = &bytes[12..20];
    let key = ClassKey {
        footmen: [c[0], c[3]],
        horsemen: [c[1], c[4]],
        penalties: [c[2], c[5]],
    };
    if key != *expected {
        return Err(format!(
            "holds class {}, expected {}",
            key.name(),
            expected.name()
        ));
    }
    match RuleSet::from_code(c[6]) {
        Some(r) if r == rules => {}
        Some(r) => {
            return Err(format!(
                "holds values under the {} rules, expected {}",
                r.name(),
                rules.name()
            ))
        }
        None => return Err(format!("unknown rule set code {}", c[6])),
    }
    let n = u64_at(bytes, 20);
    if n != positions {
        return Err(format!("holds {n} positions, the class has {positions}"));
    }
    let n = n as usize;
    let fractional = u64_at(bytes, 28) as usize;
    let decisive = u64_at(bytes, 36) as usize;
    let residual = f64::from_le_bytes(bytes[44..52].try_into().expect("8 bytes"));
    let iterations = u32_at(bytes, 52);
    let converged = u32_at(bytes, 56) != 0;
    let stamp_bytes = u32_at(bytes, 60) as usize;
    if !(1..=2).contains(&stamp_bytes) {
        return Err(format!("unknown stamp width {stamp_bytes}"));
    }
    let words = n.div_ceil(32);
    let expected_len = HEADER_LEN
        .checked_add(words * 8)
        .and_then(|l| l.checked_add(fractional.checked_mul(8)?))
        .and_then(|l| l.checked_add(decisive.checked_mul(stamp_bytes)?));
    if expected_len != Some(body.len()) {
        return Err("wrong length for its header".to_string());
    }
    let mut at = HEADER_LEN;
    let codes = body[at..at + words * 8]
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    at += words * 8;
    let fractional_values = body[at..at + fractional * 8]
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    at += fractional * 8;
    let stamps = body[at..]
        .chunks_exact(stamp_bytes)
        .map(|b| {
            let mut le = [0u8; 2];
            le[..stamp_bytes].copy_from_slice(b);
            u16::from_le_bytes(le)
        })
        .collect();
    let values = CompactValues::from_parts(n, codes, fractional_values, stamps)?;
    Ok(ClassFile {
        key,
        rules,
        values,
        residual,
        iterations,
        converged,
    })
}

/// Write a class file atomically (a temporary file named after this process, then a rename),
/// so an interrupted build never leaves a half-written file under the final name, and two
/// processes building the same class at once never write into one file.
pub fn write_atomically(dir: &Path, file: &ClassFile) -> Result<u64, String> {
    let path = path_of(dir, &file.key);
    let tmp = path.with_extension(format!("tb.{}.tmp", std::process::id()));
    let bytes = encode(file);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    result.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes.len() as u64)
}

/// Read and check a class file of a rule set's directory `dir`.
pub fn read(
    dir: &Path,
    key: &ClassKey,
    rules: RuleSet,
    positions: u64,
) -> Result<ClassFile, String> {
    let path = path_of(dir, key);
    let bytes = fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    decode(&bytes, key, rules, positions).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(stamps: &[u32]) -> ClassFile {
        let values = [1.0, 0.0, -1.0, 0.25, 0.0, -0.5, 1.0];
        ClassFile {
            key: ClassKey::parse("PNvp-10").unwrap(),
            rules: RuleSet::Classic,
            values: CompactValues::pack(&values, stamps).unwrap(),
            residual: 1e-12,
            iterations: 3,
            converged: true,
        }
    }

    #[test]
    fn encode_decode_round_trip_and_damage_is_caught() {
        let file = sample(&[3, 0, 1, 0, 0, 0, 0]);
        let key = file.key;
        let bytes = encode(&file);
        let classic = RuleSet::Classic;
        assert_eq!(decode(&bytes, &key, classic, 7), Ok(file));
        assert!(decode(&bytes[..bytes.len() - 1], &key, classic, 7).is_err());
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN] ^= 1;
        assert!(decode(&flipped, &key, classic, 7)
            .unwrap_err()
            .contains("checksum"));
        assert!(decode(&bytes, &key, classic, 8).is_err());
        assert!(decode(&bytes, &key, RuleSet::Vchess, 7)
            .unwrap_err()
            .contains("classic rules"));
    }

    #[test]
    fn stamps_take_one_byte_unless_one_needs_two() {
        let narrow = encode(&sample(&[3, 0, 255, 0, 0, 0, 7]));
        let wide = encode(&sample(&[3, 0, 256, 0, 0, 0, 7]));
        assert_eq!(wide.len(), narrow.len() + 3);
        let key = ClassKey::parse("PNvp-10").unwrap();
        let back = decode(&wide, &key, RuleSet::Classic, 7).unwrap();
        assert_eq!(back.values.stamp(2), 256);
        assert_eq!(back.values.stamp(6), 7);
    }
}
