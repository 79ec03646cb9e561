//! `apocalypse play-human`: a person declares moves in the terminal, the engine answers with a
//! move drawn from the strategy its search finds, and the board and what happened are printed
//! after every turn. By default the engine learns a model of the person's moves and safely
//! exploits it: it strays from its optimal strategy only by the value the person has given
//! away, and says how far it trusts its model.

use std::io::{BufRead, ErrorKind, Write};
use std::path::PathBuf;

use super::tables::open_for_search;
use crate::apocalypse::play::engine_move;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, to_action, Move};
use crate::apocalypse::rules::notation::{diagram, format_move, parse_move, parse_position};
use crate::apocalypse::rules::outcome::{outcome, Outcome};
use crate::apocalypse::rules::report::describe_turn;
use crate::apocalypse::rules::resolve::resolve_declared;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::search::opponent_model::{ModelKind, ModelReport, SafeExploiter};
use crate::apocalypse::tablebase::Tablebases;
use crate::rng::Rng;

/// Arguments of `apocalypse play-human`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayHumanArgs {
    /// Start position (quote it); default the start position.
    pub position: Vec<String>,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    pub side: SideArg,
    /// Engine time per turn in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Play the optimal strategy only, without modelling the person.
    #[arg(long)]
    pub no_exploit: bool,
    /// Random seed of the engine's draws (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user data
    /// directory; the 4-piece tables are built there on first use).
    #[arg(long)]
    pub tb_dir: Option<PathBuf>,
}

/// The side a person plays.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SideArg {
    White,
    Black,
}

/// A person plays a side against the engine on stdin and stdout under `rules`. Closed stdin
/// abandons the game; closed stdout ends it quietly.
pub fn run(args: &PlayHumanArgs, rules: RuleSet) -> Result<(), String> {
    let pos = if args.position.is_empty() {
        Position::start()
    } else {
        parse_position(&args.position.join(" "))?
    };
    let human = match args.side {
        SideArg::White => Side::White,
        SideArg::Black => Side::Black,
    };
    let tables = open_for_search(args.tb_dir.as_deref(), rules);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut rng = Rng::new(seed);
    let limits = Limits::new(None, Some(args.movetime));
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout();
    let game = Game {
        start: pos,
        human,
        limits,
        exploit: !args.no_exploit,
    };
    match play_human(&game, &tables, &mut rng, &mut input, &mut output) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("terminal error: {e}")),
    }
}

/// One line on what the engine thinks of the person: how far it trusts its model, what it
/// may stake and whether it strayed from its optimal strategy this turn.
fn model_line(report: &ModelReport) -> String {
    let use_ = if report.strayed > 0.0 {
        format!(
            "this turn it moved {:.0} % of its strategy towards the best reply",
            100.0 * report.strayed
        )
    } else {
        "this turn it played its optimal strategy".to_string()
    };
    let search = if report.follows_search {
        " Your moves match its own short search, so it predicts you by that search."
    } else {
        ""
    };
    format!(
        "Engine's model of you: trust {:.0} %, value you have given away {:+.3}; {use_}.{search}",
        100.0 * report.trust,
        report.budget
    )
}

/// Read one line; `None` at end of input, `Some(Err(..))` for a line that is not UTF-8 text
/// (read whole, so the next read starts on the next line).
fn read_line(input: &mut impl BufRead) -> Option<Result<String, std::string::FromUtf8Error>> {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8(bytes).map(|line| line.trim().to_string())),
    }
}

/// A game against a person: where it starts, the person's side, the engine's limits and
/// whether the engine models the person.
struct Game {
    start: Position,
    human: Side,
    limits: Limits,
    exploit: bool,
}

/// A person (on `input`/`output`) plays a game against the engine; the outcome, or `None`
/// when the person quits or the input ends.
fn play_human(
    game: &Game,
    tables: &Tablebases,
    rng: &mut Rng,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> std::io::Result<Option<Outcome>> {
    let rules = tables.rules();
    let (human, limits) = (game.human, game.limits);
    let mut pos = game.start;
    let engine = human.opponent();
    let mut exploiter = game
        .exploit
        .then(|| SafeExploiter::modelling(engine, ModelKind::Learned));
    writeln!(
        output,
        "You play {}. Declare a move (e.g. c1c2, d4d5@b2, 0000); 'moves' lists them, 'quit' ends.",
        human.name()
    )?;
    loop {
        write!(output, "{}", diagram(&pos))?;
        let state = outcome(&pos, rules);
        if state.is_over() {
            writeln!(output, "game over: {}", state.describe())?;
            return Ok(Some(state));
        }
        let declared = loop {
            write!(output, "{} to declare> ", human.name())?;
            output.flush()?;
            let line = match read_line(input) {
                None => {
                    writeln!(output, "\nend of input: game abandoned")?;
                    return Ok(None);
                }
                Some(Err(_)) => {
                    writeln!(output, "unreadable input (not UTF-8 text); try again")?;
                    continue;
                }
                Some(Ok(line)) => line,
            };
            match line.as_str() {
                "" => continue,
                "quit" | "exit" => return Ok(None),
                "moves" => {
                    let names: Vec<String> = declarable_moves(&pos, human, rules)
                        .into_iter()
                        .map(format_move)
                        .collect();
                    writeln!(output, "{}", names.join(" "))?;
                    continue;
                }
                _ => {}
            }
            match parse_move(&line) {
                Err(e) => writeln!(output, "{e}; try again")?,
                Ok(m) => {
                    if !m.is_forfeit() && to_action(&pos, human, rules, m).is_forfeit() {
                        writeln!(
                            output,
                            "warning: {} is not a legal move here; it is void and costs you a penalty point",
                            format_move(m)
                        )?;
                    }
                    break m;
                }
            }
        };
        let reply = match exploiter.as_mut() {
            Some(e) => e
                .choose(&pos, limits, tables, rng)
                .map_or(Move::FORFEIT, |(m, _, _)| m),
            None => engine_move(&pos, engine, limits, tables, rng).0,
        };
        let mut joint = [Move::FORFEIT; 2];
        joint[human.index()] = declared;
        joint[engine.index()] = reply;
        let turn = resolve_declared(&pos, joint, rules);
        writeln!(
            output,
            "You declared {}, the engine declared {}.",
            format_move(declared),
            format_move(reply)
        )?;
        for line in describe_turn(&turn) {
            writeln!(output, "  {line}")?;
        }
        if let Some(e) = exploiter.as_mut() {
            let report = e.report();
            writeln!(output, "  {}", model_line(&report))?;
            e.observe(to_action(&pos, human, rules, declared));
        }
        pos = turn.next;
    }
}
