//! `apocalypse bench`: both exact solvers on the positions of a file, nodes and times side by
//! side, with a check that they agree on every value.

use std::time::Instant;

use super::print::clean;
use crate::apocalypse::rules::board::Position;
use crate::apocalypse::rules::notation::parse_position;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::solver::{self, Method};
use crate::console::outln;

/// Arguments of `apocalypse bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Lines `POSITION ; TURNS ; both|pruned` (`#` starts a comment).
    #[arg(long, default_value = "benches/apocalypse-positions.txt")]
    pub file: String,
}

/// Run `apocalypse bench` under `rules`.
pub fn run(args: &BenchArgs, rules: RuleSet) -> Result<(), String> {
    bench(&args.file, rules)
}

/// One solver run: value, nodes, milliseconds.
fn timed_solve(pos: &Position, turns: u32, method: Method, rules: RuleSet) -> (f64, u64, f64) {
    let started = Instant::now();
    let root = solver::solve(pos, turns, method, rules);
    (
        root.value,
        root.nodes,
        started.elapsed().as_secs_f64() * 1000.0,
    )
}

/// Run the benchmark file under `rules`: lines `POSITION ; TURNS ; both|pruned` (`#` starts a
/// comment).
pub fn bench(file: &str, rules: RuleSet) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    outln!(
        "{:<40} {:>5} {:>10} {:>12} {:>10} {:>12} {:>10} {:>8}",
        "position",
        "turns",
        "value",
        "plain nodes",
        "plain ms",
        "pruned nodes",
        "pruned ms",
        "ratio"
    );
    let mut ratios = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [position, turns, methods] = fields[..] else {
            return Err(format!(
                "bad bench line '{line}': expected POSITION ; TURNS ; METHODS"
            ));
        };
        let pos = parse_position(position)?;
        let turns: u32 = turns
            .parse()
            .map_err(|_| format!("bad turns in '{line}'"))?;
        let (value, nodes, millis) = timed_solve(&pos, turns, Method::Pruned, rules);
        let (plain_nodes, plain_ms, ratio) = if methods == "both" {
            let (plain_value, plain_nodes, plain_ms) =
                timed_solve(&pos, turns, Method::Plain, rules);
            if (plain_value - value).abs() > 1e-6 {
                return Err(format!(
                    "{position}: pruned value {value} differs from plain {plain_value}"
                ));
            }
            let ratio = plain_nodes as f64 / nodes.max(1) as f64;
            ratios.push(ratio);
            (
                plain_nodes.to_string(),
                format!("{plain_ms:.1}"),
                format!("{ratio:.1}"),
            )
        } else {
            ("-".to_string(), "-".to_string(), "-".to_string())
        };
        outln!(
            "{:<40} {:>5} {:>10.6} {:>12} {:>10} {:>12} {:>10.1} {:>8}",
            position,
            turns,
            clean(value),
            plain_nodes,
            plain_ms,
            nodes,
            millis,
            ratio
        );
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        outln!(
            "node ratio plain/pruned: median {:.1}, min {:.1}, max {:.1}",
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1]
        );
    }
    Ok(())
}
