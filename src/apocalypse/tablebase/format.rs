//! The tablebase file format: one file per class, written atomically, in a directory per rule
//! set (`rules_dir`).
//!
//! Layout (little endian): magic `APOCTB\r\n`, format version (u32), class (6 bytes: footmen,
//! horsemen, penalties, White's first), the rule set's code (1 byte: 0 classic, 1 vchess), a
//! zero byte, number of positions (u64), number of fractional values (u64), largest residual of
//! the value iteration (f64), iterations (u32), converged flag (u32); then 2 bits per position
//! (0 = loss, 1 = draw, 2 = win, 3 = fractional), then the fractional values as f64 in position
//! order; then for each won or lost position, in position order, the stamp of its win (u32,
//! 0 = none); then an FNV-1a 64 checksum of all the bytes before it. Most values are -1, 0 or
//! 1, so a position takes a little over 2 bits.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::ClassKey;
use crate::apocalypse::rules::ruleset::RuleSet;

/// File magic.
const MAGIC: &[u8; 8] = b"APOCTB\r\n";
/// Format version; bump on any layout change, or when older builds stored wrong values (version 1
/// left limit-sure wins at the value iteration's c/N approximation of ±1; version 3 added the
/// rule set).
pub const VERSION: u32 = 3;
/// Bytes before the packed values.
const HEADER_LEN: usize = 8 + 4 + 8 + 8 + 8 + 8 + 4 + 4;

/// Values of one class with how the iteration ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassFile {
    /// The class.
    pub key: ClassKey,
    /// The rules the values hold under.
    pub rules: RuleSet,
    /// One value per position of the class index.
    pub values: Vec<f64>,
    /// One stamp per position: the order in which a win (value ±1) was established, 0 if none.
    pub stamps: Vec<u32>,
    /// Largest value change in the last iteration (0 when the class needed no iteration).
    pub residual: f64,
    /// Iterations used by the slowest group.
    pub iterations: u32,
    /// Whether every group converged below the tolerance.
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

fn code_of(v: f64) -> u8 {
    if v == -1.0 {
        0
    } else if v == 0.0 {
        1
    } else if v == 1.0 {
        2
    } else {
        3
    }
}

/// Serialise a class.
pub fn encode(file: &ClassFile) -> Vec<u8> {
    let n = file.values.len();
    let fractional: Vec<f64> = file
        .values
        .iter()
        .copied()
        .filter(|&v| code_of(v) == 3)
        .collect();
    let mut out = Vec::with_capacity(HEADER_LEN + n.div_ceil(4) + fractional.len() * 8 + 8);
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
    out.extend_from_slice(&(n as u64).to_le_bytes());
    out.extend_from_slice(&(fractional.len() as u64).to_le_bytes());
    out.extend_from_slice(&file.residual.to_le_bytes());
    out.extend_from_slice(&file.iterations.to_le_bytes());
    out.extend_from_slice(&(file.converged as u32).to_le_bytes());
    for chunk in file.values.chunks(4) {
        let mut byte = 0u8;
        for (i, &v) in chunk.iter().enumerate() {
            byte |= code_of(v) << (2 * i);
        }
        out.push(byte);
    }
    for v in &fractional {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for (&v, &stamp) in file.values.iter().zip(&file.stamps) {
        if v.abs() == 1.0 {
            out.extend_from_slice(&stamp.to_le_bytes());
        }
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
    let fractional = u64_at(bytes, 28) as usize;
    let residual = f64::from_le_bytes(bytes[36..44].try_into().expect("8 bytes"));
    let iterations = u32_at(bytes, 44);
    let converged = u32_at(bytes, 48) != 0;
    let n = n as usize;
    let packed = n.div_ceil(4);
    let codes = &body[HEADER_LEN..(HEADER_LEN + packed).min(body.len())];
    let decisive = (0..n.min(codes.len() * 4))
        .filter(|&i| matches!((codes[i / 4] >> (2 * (i % 4))) & 3, 0 | 2))
        .count();
    if body.len() != HEADER_LEN + packed + fractional * 8 + decisive * 4 {
        return Err("wrong length for its header".to_string());
    }
    let stamps_at = HEADER_LEN + packed + fractional * 8;
    let mut extra = body[HEADER_LEN + packed..stamps_at]
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")));
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        let v = match (codes[i / 4] >> (2 * (i % 4))) & 3 {
            0 => -1.0,
            1 => 0.0,
            2 => 1.0,
            _ => extra
                .next()
                .ok_or("fewer fractional values than codes say")?,
        };
        values.push(v);
    }
    if extra.next().is_some() {
        return Err("more fractional values than codes say".to_string());
    }
    let mut stored_stamps = body[stamps_at..]
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
    let stamps = values
        .iter()
        .map(|v| {
            if v.abs() == 1.0 {
                stored_stamps.next().unwrap_or(0)
            } else {
                0
            }
        })
        .collect();
    Ok(ClassFile {
        key,
        rules,
        values,
        stamps,
        residual,
        iterations,
        converged,
    })
}

/// Write a class file atomically (temporary file, then rename), so an interrupted build never
/// leaves a half-written file under the final name.
pub fn write_atomically(dir: &Path, file: &ClassFile) -> Result<u64, String> {
    let path = path_of(dir, &file.key);
    let tmp = path.with_extension("tb.tmp");
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

    #[test]
    fn encode_decode_round_trip_and_damage_is_caught() {
        let key = ClassKey::parse("PNvp-10").unwrap();
        let file = ClassFile {
            key,
            rules: RuleSet::Classic,
            values: vec![1.0, 0.0, -1.0, 0.25, 0.0, -0.5, 1.0],
            stamps: vec![3, 0, 1, 0, 0, 0, 0],
            residual: 1e-12,
            iterations: 3,
            converged: true,
        };
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
}
