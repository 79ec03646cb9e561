//! `extinction train`: fit the network of [`crate::extinction::eval::nnue`] to self-play data
//! (`extinction datagen` lines, `FEN | cp | result`, White's view). The network learns what
//! the hand-written evaluation misses: the engine's score is that evaluation plus the
//! network's output, so the fit starts from everything the hand-written terms know (the
//! threats against last pieces, which quiet training positions rarely show). The target of each
//! position is a blend of the search's score, as an expected result `sigmoid(cp / SCALE)`, and
//! the game's result; the loss is the squared error of `sigmoid(output)` against it. Adam on
//! mini-batches, the gradient of each batch summed over rayon's threads, a held-out share of
//! the positions reported every epoch; the trained floats are quantised into the network file.

use std::path::PathBuf;

use rayon::prelude::*;
use shakmaty::Color;

use crate::extinction::eval::evaluate;
use crate::extinction::eval::nnue::{feature, Network, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::extinction::rules::position::{Position, ROLES};
use crate::rng::Rng;

/// Arguments of `extinction train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Data files of `extinction datagen` (`FEN | cp | result` lines).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Network file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Start from this network file (e.g. the shipped one) instead of random weights: the
    /// fit refines what it already knows with the new data.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 4)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size at the start; it falls tenfold over the last 30 % of the epochs.
    #[arg(long, default_value_t = 0.003)]
    pub lr: f32,
    /// Share of the search's score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 1.0)]
    pub score_weight: f32,
    /// Share of the positions held out to measure the fit (the last ones: whole games).
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Searched scores beyond this are clipped: the sigmoid is flat there anyway.
const MAX_CP: f32 = 3000.0;
/// The float weights are kept where their quantised values cannot overflow.
const MAX_FEATURE_WEIGHT: f32 = 1.98;
const MAX_OUTPUT_WEIGHT: f32 = 32000.0 / QB as f32;

/// One training position: its inputs from the side to move's view (the other view follows),
/// the hand-written evaluation as a logit (centipawns / SCALE) and the target, the side to
/// move's expected score.
struct Sample {
    start: u32,
    len: u8,
    base: f32,
    target: f32,
}

struct Data {
    features: Vec<u16>,
    samples: Vec<Sample>,
}

impl Data {
    fn features(&self, s: &Sample) -> &[u16] {
        &self.features[s.start as usize..s.start as usize + s.len as usize]
    }
}

/// The other view's index of an input given from the side to move's view.
#[inline]
fn flipped(f: usize) -> usize {
    let side = f / 384;
    let rest = f % 384;
    (1 - side) * 384 + (rest / 64) * 64 + ((rest % 64) ^ 56)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Parse one `FEN | cp | result` line into the side to move's view.
fn parse_line(line: &str, score_weight: f32) -> Option<(Vec<u16>, f32, f32)> {
    let mut fields = line.split('|').map(str::trim);
    let pos = Position::from_fen(fields.next()?).ok()?;
    let cp: f32 = fields.next()?.parse().ok()?;
    let result: f32 = fields.next()?.parse().ok()?;
    if fields.next().is_some() || !(0.0..=1.0).contains(&result) || pos.is_finished() {
        return None;
    }
    let us = pos.turn();
    let white_target = score_weight * sigmoid(cp.clamp(-MAX_CP, MAX_CP) / SCALE as f32)
        + (1.0 - score_weight) * result;
    let target = if us == Color::White {
        white_target
    } else {
        1.0 - white_target
    };
    let mut features = Vec::with_capacity(32);
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            for sq in pos.pieces(color, role) {
                features.push(feature(us, color, role, sq as usize) as u16);
            }
        }
    }
    let base = evaluate(&pos) as f32 / SCALE as f32;
    Some((features, base, target))
}

fn load(args: &TrainArgs) -> Result<Data, String> {
    let mut data = Data {
        features: Vec::new(),
        samples: Vec::new(),
    };
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let parsed: Vec<Option<(Vec<u16>, f32, f32)>> = lines
            .par_iter()
            .map(|l| parse_line(l, args.score_weight))
            .collect();
        let bad = parsed.iter().filter(|p| p.is_none()).count();
        for (features, base, target) in parsed.into_iter().flatten() {
            data.samples.push(Sample {
                start: data.features.len() as u32,
                len: features.len() as u8,
                base,
                target,
            });
            data.features.extend_from_slice(&features);
        }
        if bad > 0 {
            log::warn!("{}: skipped {bad} unreadable lines", path.display());
        }
    }
    if data.samples.len() < 100 {
        return Err(format!(
            "only {} positions: too few to train on",
            data.samples.len()
        ));
    }
    Ok(data)
}

/// The float network the trainer fits; [`FloatNet::quantised`] turns it into the engine's.
#[derive(Clone)]
struct FloatNet {
    /// `INPUTS * HIDDEN` feature weights, then `HIDDEN` biases, `2 * HIDDEN` output weights
    /// and the output bias: one flat vector, so that Adam treats every parameter alike.
    params: Vec<f32>,
}

const FEATURE_BIAS: usize = INPUTS * HIDDEN;
const OUTPUT_WEIGHTS: usize = FEATURE_BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT_WEIGHTS + 2 * HIDDEN;
const PARAMS: usize = OUTPUT_BIAS + 1;

impl FloatNet {
    fn random(rng: &mut Rng) -> FloatNet {
        let mut params = vec![0.0f32; PARAMS];
        let mut uniform = |scale: f32| (rng.next_f64() as f32 * 2.0 - 1.0) * scale;
        for p in &mut params[..FEATURE_BIAS] {
            *p = uniform(0.1);
        }
        for p in &mut params[OUTPUT_WEIGHTS..OUTPUT_BIAS] {
            *p = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
        }
        FloatNet { params }
    }

    /// The hidden layer of one view before clipping.
    fn hidden(&self, features: &[u16], flip: bool) -> [f32; HIDDEN] {
        let mut h = [0f32; HIDDEN];
        h.copy_from_slice(&self.params[FEATURE_BIAS..OUTPUT_WEIGHTS]);
        for &f in features {
            let f = if flip {
                flipped(f as usize)
            } else {
                f as usize
            };
            let column = &self.params[f * HIDDEN..(f + 1) * HIDDEN];
            for (v, w) in h.iter_mut().zip(column) {
                *v += w;
            }
        }
        h
    }

    /// The output (a logit: centipawns / SCALE) with both views' hidden layers.
    fn forward(&self, features: &[u16]) -> (f32, [f32; HIDDEN], [f32; HIDDEN]) {
        let us = self.hidden(features, false);
        let them = self.hidden(features, true);
        let mut out = self.params[OUTPUT_BIAS];
        for (i, h) in [&us, &them].into_iter().enumerate() {
            let weights =
                &self.params[OUTPUT_WEIGHTS + i * HIDDEN..OUTPUT_WEIGHTS + (i + 1) * HIDDEN];
            for (v, w) in h.iter().zip(weights) {
                out += v.clamp(0.0, 1.0) * w;
            }
        }
        (out, us, them)
    }

    /// Add one sample's loss gradient to `grad`; returns its loss.
    fn backward(&self, features: &[u16], base: f32, target: f32, grad: &mut [f32]) -> f32 {
        let (out, us, them) = self.forward(features);
        let p = sigmoid(base + out);
        let g = 2.0 * (p - target) * p * (1.0 - p);
        grad[OUTPUT_BIAS] += g;
        for (i, h) in [&us, &them].into_iter().enumerate() {
            let base = OUTPUT_WEIGHTS + i * HIDDEN;
            let mut d_hidden = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = h[j];
                grad[base + j] += g * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    d_hidden[j] = g * self.params[base + j];
                }
            }
            for j in 0..HIDDEN {
                grad[FEATURE_BIAS + j] += d_hidden[j];
            }
            for &f in features {
                let f = if i == 1 {
                    flipped(f as usize)
                } else {
                    f as usize
                };
                let column = &mut grad[f * HIDDEN..(f + 1) * HIDDEN];
                for (c, d) in column.iter_mut().zip(d_hidden.iter()) {
                    *c += d;
                }
            }
        }
        (p - target) * (p - target)
    }

    fn clip(&mut self) {
        for p in &mut self.params[..OUTPUT_WEIGHTS] {
            *p = p.clamp(-MAX_FEATURE_WEIGHT, MAX_FEATURE_WEIGHT);
        }
        for p in &mut self.params[OUTPUT_WEIGHTS..OUTPUT_BIAS] {
            *p = p.clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
        }
    }

    /// The float weights a quantised network stands for (the inverse of
    /// [`FloatNet::quantised`] up to rounding).
    fn from_quantised(net: &Network) -> FloatNet {
        let mut params = vec![0.0f32; PARAMS];
        let mut put = |start: usize, column: &[i16; HIDDEN], scale: i32| {
            for (j, &w) in column.iter().enumerate() {
                params[start + j] = f32::from(w) / scale as f32;
            }
        };
        for (f, column) in net.feature_weights.iter().enumerate() {
            put(f * HIDDEN, column, QA);
        }
        put(FEATURE_BIAS, &net.feature_bias, QA);
        put(OUTPUT_WEIGHTS, &net.output_weights[0], QB);
        put(OUTPUT_WEIGHTS + HIDDEN, &net.output_weights[1], QB);
        params[OUTPUT_BIAS] = net.output_bias as f32 / (QA * QB) as f32;
        FloatNet { params }
    }

    fn quantised(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let column = |start: usize, scale: i32| {
            let mut c = [0i16; HIDDEN];
            for (j, w) in c.iter_mut().enumerate() {
                *w = q(self.params[start + j], scale);
            }
            c
        };
        Network {
            feature_weights: (0..INPUTS).map(|f| column(f * HIDDEN, QA)).collect(),
            feature_bias: column(FEATURE_BIAS, QA),
            output_weights: [
                column(OUTPUT_WEIGHTS, QB),
                column(OUTPUT_WEIGHTS + HIDDEN, QB),
            ],
            output_bias: (self.params[OUTPUT_BIAS] * (QA * QB) as f32).round() as i32,
        }
    }
}

/// Mean loss over `indices`.
fn mean_loss(net: &FloatNet, data: &Data, indices: &[usize]) -> f64 {
    let total: f64 = indices
        .par_iter()
        .map(|&i| {
            let s = &data.samples[i];
            let p = sigmoid(s.base + net.forward(data.features(s)).0);
            f64::from((p - s.target) * (p - s.target))
        })
        .sum();
    total / indices.len().max(1) as f64
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        params
            .par_iter_mut()
            .zip(self.m.par_iter_mut())
            .zip(self.v.par_iter_mut())
            .zip(grad.par_iter())
            .for_each(|(((p, m), v), &g)| {
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            });
    }
}

/// Run `extinction train`.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    if args.batch == 0 || args.epochs == 0 {
        return Err("--batch and --epochs must be at least 1".into());
    }
    let data = load(args)?;
    let mut rng = Rng::new(args.seed);
    // The held-out positions are the last ones of the data: whole games the fit never saw
    // (positions of one game share its result and much of their structure).
    let order: Vec<usize> = (0..data.samples.len()).collect();
    let held_out = ((order.len() as f64 * args.validation) as usize).min(order.len() / 2);
    let (training, validation) = order.split_at(order.len() - held_out);
    let mut training = training.to_vec();
    eprintln!(
        "train: {} positions, {} held out, {HIDDEN} hidden units",
        data.samples.len(),
        validation.len()
    );
    let alone: f64 = validation
        .iter()
        .map(|&i| {
            let s = &data.samples[i];
            f64::from((sigmoid(s.base) - s.target).powi(2))
        })
        .sum::<f64>()
        / validation.len().max(1) as f64;
    eprintln!("train: held-out loss of the hand-written evaluation alone {alone:.6}");
    let mut net = match &args.init {
        None => FloatNet::random(&mut rng),
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let start =
                Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            let net = FloatNet::from_quantised(&start);
            eprintln!(
                "train: starting from {}, held-out loss {:.6}",
                path.display(),
                mean_loss(&net, &data, validation)
            );
            net
        }
    };
    let mut adam = Adam {
        m: vec![0.0; PARAMS],
        v: vec![0.0; PARAMS],
        t: 0,
    };
    let threads = rayon::current_num_threads().max(1);
    let mut grads = vec![vec![0f32; PARAMS]; threads];
    let decay_from = (args.epochs as f64 * 0.7) as usize;
    let mut best: Option<(f64, FloatNet)> = None;
    for epoch in 0..args.epochs {
        let lr = if epoch < decay_from {
            args.lr
        } else {
            let f = (epoch - decay_from + 1) as f32 / (args.epochs - decay_from) as f32;
            args.lr * 0.1f32.powf(f)
        };
        rng.shuffle(&mut training);
        let mut train_loss = 0.0f64;
        for batch in training.chunks(args.batch) {
            let chunk = batch.len().div_ceil(threads);
            let losses: Vec<f64> = grads
                .par_iter_mut()
                .zip(batch.par_chunks(chunk))
                .map(|(grad, part)| {
                    grad.iter_mut().for_each(|g| *g = 0.0);
                    let mut loss = 0.0f64;
                    for &i in part {
                        let s = &data.samples[i];
                        let features = data.features(s);
                        loss += f64::from(net.backward(features, s.base, s.target, grad));
                    }
                    loss
                })
                .collect();
            train_loss += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(chunk);
            let (first, rest) = grads.split_at_mut(1);
            let total = &mut first[0];
            for other in rest.iter().take(used - 1) {
                total
                    .par_iter_mut()
                    .zip(other.par_iter())
                    .for_each(|(t, o)| *t += o);
            }
            let scale = 1.0 / batch.len() as f32;
            total.par_iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut net.params, total, lr);
            net.clip();
        }
        let held_out_loss = mean_loss(&net, &data, validation);
        eprintln!(
            "epoch {:>3}/{}: lr {lr:.6}, training loss {:.6}, held-out loss {held_out_loss:.6}",
            epoch + 1,
            args.epochs,
            train_loss / training.len() as f64,
        );
        if best.as_ref().is_none_or(|(loss, _)| held_out_loss < *loss) {
            best = Some((held_out_loss, net.clone()));
        }
    }
    // The epoch that predicted unseen games best, not the last one: past it the net learns
    // the training games themselves.
    if let Some((loss, kept)) = best.filter(|_| !validation.is_empty()) {
        eprintln!("train: keeping the epoch with held-out loss {loss:.6}");
        net = kept;
    }
    let quantised = net.quantised();
    let mut worst = 0i32;
    for &i in validation.iter().take(2000) {
        let s = &data.samples[i];
        let float_cp = (net.forward(data.features(s)).0 * SCALE as f32).round() as i32;
        let pos_cp = quantised_output(&quantised, data.features(s));
        worst = worst.max((float_cp - pos_cp).abs());
    }
    eprintln!("train: quantisation moves held-out scores by at most {worst} cp");
    std::fs::write(&args.out, quantised.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!("train: network written to {}", args.out.display());
    Ok(())
}

/// The quantised network's score of a sample, computed the way the engine does.
fn quantised_output(net: &Network, features: &[u16]) -> i32 {
    let us = net.hidden(features.iter().map(|&f| f as usize));
    let them = net.hidden(features.iter().map(|&f| flipped(f as usize)));
    net.output_of_views(&us, &them)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_twice_is_the_identity_and_swaps_views() {
        for f in 0..INPUTS {
            assert_eq!(flipped(flipped(f)), f);
        }
        // White's pawn on e2 seen by White is Black's view of an enemy pawn on e7.
        let white = feature(Color::White, Color::White, shakmaty::Role::Pawn, 12);
        let black = feature(Color::Black, Color::White, shakmaty::Role::Pawn, 12);
        assert_eq!(flipped(white), black);
    }

    #[test]
    fn lines_parse_into_the_side_to_move_view() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let (features, _, white) =
            parse_line(&format!("{start} w KQkq - 0 1 | 0 | 1"), 0.5).unwrap();
        assert_eq!(features.len(), 32);
        assert!((white - 0.75).abs() < 1e-6);
        let (_, _, black) = parse_line(&format!("{start} b KQkq - 0 1 | 0 | 1"), 0.5).unwrap();
        assert!((black - 0.25).abs() < 1e-6);
        assert!(parse_line(&format!("{start} w KQkq - 0 1 | 1"), 0.5).is_none());
        assert!(parse_line(&format!("{start} w KQkq - 0 1 | x | 1"), 0.5).is_none());
        assert!(parse_line("garbage | 0 | 1", 0.5).is_none());
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (features, base, target) = parse_line(&format!("{start} | 120 | 1"), 0.75).unwrap();
        let mut net = FloatNet::random(&mut Rng::new(3));
        // Biases that put hidden units inside the clipping range, where the gradient lives.
        for j in 0..HIDDEN {
            net.params[FEATURE_BIAS + j] = 0.5;
        }
        let mut grad = vec![0f32; PARAMS];
        net.backward(&features, base, target, &mut grad);
        let loss = |n: &FloatNet| {
            let p = sigmoid(base + n.forward(&features).0);
            (p - target) * (p - target)
        };
        let probes = [
            features[0] as usize * HIDDEN + 3,
            FEATURE_BIAS + 5,
            OUTPUT_WEIGHTS + 7,
            OUTPUT_WEIGHTS + HIDDEN + 1,
            OUTPUT_BIAS,
        ];
        for &k in &probes {
            let eps = 1e-2;
            let (mut up, mut down) = (net.clone(), net.clone());
            up.params[k] += eps;
            down.params[k] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * eps);
            assert!(
                (numeric - grad[k]).abs() < 1e-3 + 0.05 * numeric.abs(),
                "param {k}: analytic {} numeric {numeric}",
                grad[k]
            );
        }
    }

    #[test]
    fn a_quantised_network_reads_back_into_the_same_floats() {
        let net = FloatNet::random(&mut Rng::new(5)).quantised();
        let again = FloatNet::from_quantised(&net).quantised();
        assert_eq!(net, again);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (features, _, _) = parse_line(&format!("{start} | 0 | 0.5"), 1.0).unwrap();
        let float_cp = FloatNet::from_quantised(&net).forward(&features).0 * SCALE as f32;
        assert!((float_cp - quantised_output(&net, &features) as f32).abs() < 2.0);
    }

    #[test]
    fn quantised_output_follows_the_float_net() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (features, _, _) = parse_line(&format!("{start} | 0 | 0.5"), 0.75).unwrap();
        let net = FloatNet::random(&mut Rng::new(9));
        let float_cp = net.forward(&features).0 * SCALE as f32;
        let q = quantised_output(&net.quantised(), &features);
        assert!((float_cp - q as f32).abs() < 15.0, "{float_cp} vs {q}");
    }
}
