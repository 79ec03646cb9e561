//! `extinction tune`: Texel-style tuning of the evaluation weights on positions labelled with
//! game results or with an engine's expected scores.
//!
//! Every term of [`evaluate_with`] is linear in the weights (material, scarcity, tables,
//! mobility, pawns and threats are counts times weights, tapered by phase), so each position is
//! reduced once to a sparse coefficient vector by evaluating it with unit weight vectors. The
//! tuner then fits `sigmoid(K * eval)` to the results by full-batch Adam gradient descent with a
//! small pull toward the starting weights (positions are few and correlated), rounds, and
//! rewrites the generated part of the weights file the engine's evaluation uses
//! ([`weights_tuned`]), by default in place.

use std::fmt::Write as _;
use std::path::PathBuf;

use shakmaty::Color;

use crate::extinction::eval::weights_tuned::{self, GENERATED_MARKER};
use crate::extinction::eval::{evaluate_with, Score, Weights, ACTIVE_WEIGHTS, DEFAULT_WEIGHTS};
use crate::extinction::rules::position::{role_index, Position, ROLES};

/// Arguments of `extinction tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Labelled positions (`FEN | label` lines from `datagen` or `import-pgn`); repeatable.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Gradient-descent epochs.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam step size, in centipawns per epoch.
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// L2 pull toward the starting weights (per weight, per centipawn²; 0 disables).
    #[arg(long, default_value_t = 1e-6)]
    pub prior: f64,
    /// Sigmoid scale K (fitted to the starting weights when absent).
    #[arg(long)]
    pub k: Option<f64>,
    /// Start from the hand-set weights instead of the ones currently in use.
    #[arg(long)]
    pub from_defaults: bool,
    /// Hold out every n-th position to report a validation loss (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Where to write the Rust weights file (default: the engine's own, in the source tree).
    #[arg(long, default_value = weights_tuned::SOURCE_PATH)]
    pub out: PathBuf,
}

/// Number of weights in the flat vector (see [`to_vector`]).
pub const WEIGHT_COUNT: usize = 12 + 6 + 4 + 2 + 12 + 16 + 2 + 2 + 1 + 6 * 64 * 2;

fn push_score(v: &mut Vec<i32>, s: Score) {
    v.push(s.0);
    v.push(s.1);
}

/// Flatten weights in a fixed order: piece values, scarcity, the four last-piece threat
/// terms, hanging piece, mobility, passed pawns, doubled, isolated, tempo, tables.
pub fn to_vector(w: &Weights) -> Vec<i32> {
    let mut v = Vec::with_capacity(WEIGHT_COUNT);
    w.piece_value.iter().for_each(|&s| push_score(&mut v, s));
    v.extend_from_slice(&w.scarcity);
    v.extend_from_slice(&[
        w.last_piece_attacked,
        w.last_pieces_forked,
        w.attacks_enemy_last_piece,
        w.last_piece_exposed,
    ]);
    push_score(&mut v, w.hanging_piece);
    w.mobility.iter().for_each(|&s| push_score(&mut v, s));
    w.passed_pawn.iter().for_each(|&s| push_score(&mut v, s));
    push_score(&mut v, w.doubled_pawn);
    push_score(&mut v, w.isolated_pawn);
    v.push(w.tempo);
    for table in &w.psqt {
        table.iter().for_each(|&s| push_score(&mut v, s));
    }
    debug_assert_eq!(v.len(), WEIGHT_COUNT);
    v
}

/// Inverse of [`to_vector`]; `v` must hold [`WEIGHT_COUNT`] values.
pub fn from_vector(v: &[i32]) -> Weights {
    let mut it = v.iter().copied();
    let mut next = || it.next().unwrap_or(0);
    let mut w = DEFAULT_WEIGHTS;
    for s in w.piece_value.iter_mut() {
        *s = Score(next(), next());
    }
    for x in w.scarcity.iter_mut() {
        *x = next();
    }
    w.last_piece_attacked = next();
    w.last_pieces_forked = next();
    w.attacks_enemy_last_piece = next();
    w.last_piece_exposed = next();
    w.hanging_piece = Score(next(), next());
    for s in w.mobility.iter_mut() {
        *s = Score(next(), next());
    }
    for s in w.passed_pawn.iter_mut() {
        *s = Score(next(), next());
    }
    w.doubled_pawn = Score(next(), next());
    w.isolated_pawn = Score(next(), next());
    w.tempo = next();
    for table in w.psqt.iter_mut() {
        for s in table.iter_mut() {
            *s = Score(next(), next());
        }
    }
    w
}

/// Index in the flat vector of the first table entry.
const PSQT_START: usize = WEIGHT_COUNT - 6 * 64 * 2;

/// The part of the weights file kept when it is rewritten: everything up to the marker line.
fn kept_header() -> Result<&'static str, String> {
    let text = weights_tuned::SOURCE_TEXT;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        end += line.len();
        if line.trim_end() == GENERATED_MARKER {
            return Ok(&text[..end]);
        }
    }
    Err(format!("the weights file has no line '{GENERATED_MARKER}'"))
}

/// Rust source of the weights file with `TUNED_WEIGHTS` set to `w`: the file's kept header,
/// then the generated constant documented with `provenance`.
pub fn weights_source(w: &Weights, provenance: &str) -> Result<String, String> {
    let score = |s: Score| format!("Score({}, {})", s.0, s.1);
    let scores = |list: &[Score]| {
        list.iter()
            .map(|&s| score(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = kept_header()?.to_string();
    let _ = writeln!(
        out,
        "/// The weights the evaluation uses.\n///\n/// {provenance}"
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub const TUNED_WEIGHTS: Weights = Weights {{");
    let _ = writeln!(out, "    piece_value: [{}],", scores(&w.piece_value));
    let _ = writeln!(out, "    scarcity: {:?},", w.scarcity);
    let _ = writeln!(out, "    last_piece_attacked: {},", w.last_piece_attacked);
    let _ = writeln!(out, "    last_pieces_forked: {},", w.last_pieces_forked);
    let _ = writeln!(
        out,
        "    attacks_enemy_last_piece: {},",
        w.attacks_enemy_last_piece
    );
    let _ = writeln!(out, "    last_piece_exposed: {},", w.last_piece_exposed);
    let _ = writeln!(out, "    hanging_piece: {},", score(w.hanging_piece));
    let _ = writeln!(out, "    mobility: [{}],", scores(&w.mobility));
    let _ = writeln!(out, "    passed_pawn: [{}],", scores(&w.passed_pawn));
    let _ = writeln!(out, "    doubled_pawn: {},", score(w.doubled_pawn));
    let _ = writeln!(out, "    isolated_pawn: {},", score(w.isolated_pawn));
    let _ = writeln!(out, "    tempo: {},", w.tempo);
    let _ = writeln!(out, "    psqt: [");
    for table in &w.psqt {
        let _ = writeln!(out, "        [");
        for row in table.chunks(8) {
            let _ = writeln!(out, "            {},", scores(row));
        }
        let _ = writeln!(out, "        ],");
    }
    let _ = writeln!(out, "    ],");
    let _ = writeln!(out, "}};");
    Ok(out)
}

/// One labelled position reduced to the coefficients of the weights in its evaluation.
struct Sample {
    /// (weight index, coefficient) for the nonzero coefficients.
    coefficients: Vec<(u32, f32)>,
    /// Game result from the side to move's point of view: 1 win, 0.5 draw, 0 loss.
    result: f32,
}

/// Scale of the unit weights used to read off coefficients (divisible by the phase range).
const PROBE: i32 = 24 * 100;

/// Table indices (mg and eg) a position's pieces touch; other table weights have no effect.
fn touched_table_weights(pos: &Position) -> Vec<usize> {
    let mut out = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            for sq in pos.pieces(color, role) {
                let idx = if color == Color::White {
                    sq as usize
                } else {
                    sq.flip_vertical() as usize
                };
                let base = PSQT_START + (role_index(role) * 64 + idx) * 2;
                out.push(base);
                out.push(base + 1);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn coefficients(pos: &Position) -> Vec<(u32, f32)> {
    let mut unit = vec![0i32; WEIGHT_COUNT];
    let mut out = Vec::new();
    let probe = |unit: &mut Vec<i32>, i: usize, out: &mut Vec<(u32, f32)>| {
        unit[i] = PROBE;
        let e = evaluate_with(pos, &from_vector(unit));
        unit[i] = 0;
        if e != 0 {
            out.push((i as u32, e as f32 / PROBE as f32));
        }
    };
    for i in 0..PSQT_START {
        probe(&mut unit, i, &mut out);
    }
    for i in touched_table_weights(pos) {
        probe(&mut unit, i, &mut out);
    }
    out
}

/// Parse one `FEN | label` line; the label is White's score: a game result (`1`, `0.5`, `0`,
/// or `1-0` style) or an expected score between 0 and 1 (`import-pgn --score-of`). Fields
/// between the two (`datagen`'s search score) are ignored.
pub fn parse_labelled_line(line: &str) -> Option<(Position, f32)> {
    let (fen, _) = line.split_once('|')?;
    let (_, label) = line.rsplit_once('|')?;
    let pos = Position::from_fen(fen.trim()).ok()?;
    let white = match label.trim() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        number => number
            .parse::<f32>()
            .ok()
            .filter(|p| (0.0..=1.0).contains(p))?,
    };
    Some((pos, white))
}

fn load(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut bad = 0usize;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Some((pos, white)) = parse_labelled_line(line) else {
                bad += 1;
                continue;
            };
            if pos.is_finished() {
                continue;
            }
            let result = if pos.turn() == Color::White {
                white
            } else {
                1.0 - white
            };
            samples.push(Sample {
                coefficients: coefficients(&pos),
                result,
            });
        }
        if bad > 0 {
            log::warn!("{}: skipped {bad} unreadable lines", path.display());
        }
    }
    Ok(samples)
}

fn linear_eval(s: &Sample, w: &[f64]) -> f64 {
    s.coefficients
        .iter()
        .map(|&(i, c)| w[i as usize] * c as f64)
        .sum()
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn loss(samples: &[&Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k, linear_eval(s, w)) - s.result as f64;
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn fit_k(samples: &[&Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(samples, w, a) < loss(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Run the tuner; prints progress to stderr and writes the weights file.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let start = if args.from_defaults {
        DEFAULT_WEIGHTS
    } else {
        ACTIVE_WEIGHTS
    };
    let start_vec: Vec<f64> = to_vector(&start).iter().map(|&x| x as f64).collect();
    eprintln!("tune: reading and reducing positions ...");
    let samples = load(&args.data)?;
    if samples.len() < 100 {
        return Err(format!(
            "only {} usable positions: generate more data first",
            samples.len()
        ));
    }
    let (mut train, mut valid): (Vec<&Sample>, Vec<&Sample>) = (Vec::new(), Vec::new());
    for (i, s) in samples.iter().enumerate() {
        if args.holdout > 0 && i % args.holdout == args.holdout - 1 {
            valid.push(s);
        } else {
            train.push(s);
        }
    }
    let k = args.k.unwrap_or_else(|| fit_k(&train, &start_vec));
    eprintln!(
        "tune: {} training, {} validation positions, {} weights, K = {k:.3}",
        train.len(),
        valid.len(),
        WEIGHT_COUNT
    );
    let report = |epoch: usize, w: &[f64]| {
        eprintln!(
            "epoch {epoch:>5}: train loss {:.6}  validation loss {:.6}",
            loss(&train, w, k),
            loss(&valid, w, k)
        );
    };
    let mut w = start_vec.clone();
    report(0, &w);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0f64; WEIGHT_COUNT];
    let mut v = vec![0f64; WEIGHT_COUNT];
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=args.epochs {
        let mut grad = vec![0f64; WEIGHT_COUNT];
        for s in &train {
            let p = sigmoid(k, linear_eval(s, &w));
            let g = 2.0 * (p - s.result as f64) * p * (1.0 - p) * ln10 * k / 400.0;
            for &(i, c) in &s.coefficients {
                grad[i as usize] += g * c as f64;
            }
        }
        let n = train.len() as f64;
        for i in 0..WEIGHT_COUNT {
            let g = grad[i] / n + 2.0 * args.prior * (w[i] - start_vec[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= args.learning_rate * m_hat / (v_hat.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == args.epochs {
            report(epoch, &w);
        }
    }
    let rounded: Vec<i32> = w.iter().map(|&x| x.round() as i32).collect();
    let tuned = from_vector(&rounded);
    let provenance = format!(
        "Tuned on {} positions from {} ({} epochs, rate {}, prior {}, K {:.3}).",
        samples.len(),
        args.data
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        args.epochs,
        args.learning_rate,
        args.prior,
        k
    );
    std::fs::write(&args.out, weights_source(&tuned, &provenance)?)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!("tune: wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_round_trips() {
        let v = to_vector(&DEFAULT_WEIGHTS);
        assert_eq!(v.len(), WEIGHT_COUNT);
        assert_eq!(to_vector(&from_vector(&v)), v);
    }

    #[test]
    fn coefficients_reproduce_the_evaluation() {
        // The tuner's linear model must agree with the real evaluation (up to rounding).
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "4k3/1p3b2/2n5/3P1r2/8/2B1q3/P4N2/R2QK3 b - - 0 30",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let w: Vec<f64> = to_vector(&DEFAULT_WEIGHTS)
                .iter()
                .map(|&x| x as f64)
                .collect();
            let sample = Sample {
                coefficients: coefficients(&pos),
                result: 0.5,
            };
            let linear = linear_eval(&sample, &w);
            let real = evaluate_with(&pos, &DEFAULT_WEIGHTS) as f64;
            assert!((linear - real).abs() <= 3.0, "{fen}: {linear} vs {real}");
        }
    }

    #[test]
    fn regenerating_the_tuned_weights_reproduces_the_file() {
        let text = weights_tuned::SOURCE_TEXT;
        let provenance = text
            .lines()
            .skip_while(|l| *l != GENERATED_MARKER)
            .take_while(|l| !l.starts_with("#["))
            .last()
            .and_then(|l| l.strip_prefix("/// "))
            .expect("a provenance line above the constant");
        let regenerated =
            weights_source(&weights_tuned::TUNED_WEIGHTS, provenance).expect("marker present");
        assert_eq!(regenerated, text);
        let other = weights_source(&DEFAULT_WEIGHTS, "hand-set").expect("marker present");
        assert!(other.starts_with(kept_header().unwrap()) && other != text);
    }

    #[test]
    fn labelled_lines_parse() {
        let (pos, r) =
            parse_labelled_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0-1")
                .expect("line");
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(r, 0.0);
        assert!(parse_labelled_line("garbage | 1").is_none());
        assert!(parse_labelled_line("8/8/8/8/8/8/8/8 w - - 0 1").is_none());
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            parse_labelled_line(&format!("{start} | -35 | 0"))
                .unwrap()
                .1,
            0.0
        );
        assert_eq!(
            parse_labelled_line(&format!("{start} | 0.7311")).unwrap().1,
            0.7311
        );
        assert_eq!(parse_labelled_line(&format!("{start} | 1")).unwrap().1, 1.0);
        assert_eq!(
            parse_labelled_line(&format!("{start} | 0.5")).unwrap().1,
            0.5
        );
        assert!(parse_labelled_line(&format!("{start} | 1.2")).is_none());
        assert!(parse_labelled_line(&format!("{start} | -0.1")).is_none());
        assert!(parse_labelled_line(&format!("{start} | NaN")).is_none());
    }
}
