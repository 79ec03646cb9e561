//! The server's answers: the page at `/` and its style sheet and script modules, the limits at `GET /api/info`, and the JSON API
//! (`POST /api/board`, `/api/moves`, `/api/play`, `/api/solve`, `/api/probe`) over the rules, the search,
//! the exact solver and the tablebases (`GET /api/tablebases` and `POST /api/tablebases/build`
//! report and build them), under the rule set a request names (`"rules"`) or the
//! server's default. No sockets here: a request is a method, a path and a
//! body, an answer a status, a content type and a body, so every route is tested directly.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::value::RawValue;

use super::page::asset;
use super::problem::Problem;
use super::replies::{
    side_key, BoardReply, EngineChoice, InfoReply, ModelReply, MovesReply, TurnReply,
};
use super::requests::{
    self, Analysis, BoardRequest, BuildRequest, Declarer, PlayRequest, PositionRequest,
    SolveRequest, MAX_MOVETIME_MS, MAX_TURNS,
};
use super::shelf::Shelf;
use crate::apocalypse::cli::print::clean;
use crate::apocalypse::cli::solve::{iteration_json, turns_json};
use crate::apocalypse::cli::tablebase::probe_json;
use crate::apocalypse::play::engine_move;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::rules::notation::format_move;
use crate::apocalypse::rules::resolve::resolve_declared;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::{self, Limits, MAX_DEPTH};
use crate::apocalypse::search::opponent_model::{ModelKind, SafeExploiter};
use crate::apocalypse::solver::Method;
use crate::apocalypse::tablebase::Tablebases;
use crate::rng::Rng;

/// Analyses (searches, exact solves, engine moves) allowed to run at once; more get a 503
/// at once instead of slowing every one of them down.
pub const MAX_RUNNING_ANALYSES: usize = 8;

/// An answer to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type` header.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Answer {
    fn json(body: String) -> Answer {
        Answer {
            status: 200,
            content_type: "application/json",
            body,
        }
    }

    fn serialized_with(status: u16, reply: &impl Serialize) -> Result<Answer, Problem> {
        let mut answer = Answer::serialized(reply)?;
        answer.status = status;
        Ok(answer)
    }

    fn serialized(reply: &impl Serialize) -> Result<Answer, Problem> {
        serde_json::to_string(reply)
            .map(Answer::json)
            .map_err(|e| Problem::Internal(format!("reply not serializable: {e}")))
    }

    /// The one-line plain-text answer to a problem.
    pub fn problem(problem: &Problem) -> Answer {
        Answer {
            status: problem.status(),
            content_type: "text/plain; charset=utf-8",
            body: format!("{}\n", problem.message()),
        }
    }
}

/// Games whose model of the person the server keeps; the oldest is forgotten beyond this.
pub const MAX_MODELLED_GAMES: usize = 256;

/// What the API needs from the server: the tablebases of each rule set, the default rule set
/// and thinking time, a source of seeds for the engine's draws, a count of analyses running
/// and the engine's model of each person it plays.
pub struct Api {
    tables: Shelf,
    rules: RuleSet,
    movetime_ms: u64,
    seed: u64,
    draws: AtomicU64,
    running: AtomicUsize,
    games: Mutex<ModelledGames>,
}

/// The engine's models of the people it plays, by game number.
#[derive(Default)]
struct ModelledGames {
    next: u64,
    by_game: BTreeMap<u64, SafeExploiter>,
}

impl ModelledGames {
    /// The model of game `game` if it exists for the engine playing `side`, else a new one;
    /// taken out while the engine thinks, so that other games are not held up.
    fn take(&mut self, game: Option<u64>, side: Side) -> (u64, SafeExploiter) {
        if let Some(id) = game {
            if self.by_game.get(&id).is_some_and(|e| e.side() == side) {
                if let Some(e) = self.by_game.remove(&id) {
                    return (id, e);
                }
            }
        }
        self.next += 1;
        (
            self.next,
            SafeExploiter::modelling(side, ModelKind::Learned),
        )
    }

    /// Keep `model` for the next turn of `game`.
    fn put(&mut self, game: u64, model: SafeExploiter) {
        self.by_game.insert(game, model);
        while self.by_game.len() > MAX_MODELLED_GAMES {
            self.by_game.pop_first();
        }
    }
}

/// Marks one analysis as running for as long as it lives.
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Api {
    /// An API over the tablebases `open_tables` gives for each rule set, playing `rules`
    /// unless a request names others, the engine thinking `movetime_ms` by default, its draws
    /// seeded from `seed`. It builds no tablebases unless given a directory
    /// (`building_into`).
    #[cfg(test)]
    pub fn new(
        open_tables: impl Fn(RuleSet) -> Tablebases,
        rules: RuleSet,
        movetime_ms: u64,
        seed: u64,
    ) -> Api {
        Api::with_shelf(Shelf::new(open_tables, None), rules, movetime_ms, seed)
    }

    /// An API whose tablebases are those of `dir` (opened for each rule set), which
    /// `POST /api/tablebases/build` builds into; otherwise as `new`.
    pub fn building_into(dir: PathBuf, rules: RuleSet, movetime_ms: u64, seed: u64) -> Api {
        let open = |r| Tablebases::open(&dir, r);
        Api::with_shelf(
            Shelf::new(open, Some(dir.clone())),
            rules,
            movetime_ms,
            seed,
        )
    }

    fn with_shelf(tables: Shelf, rules: RuleSet, movetime_ms: u64, seed: u64) -> Api {
        Api {
            tables,
            rules,
            movetime_ms: movetime_ms.clamp(1, MAX_MOVETIME_MS),
            seed,
            draws: AtomicU64::new(0),
            running: AtomicUsize::new(0),
            games: Mutex::new(ModelledGames::default()),
        }
    }

    /// The tablebases of `rules` as they are now (a finished build replaces them).
    fn tables(&self, rules: RuleSet) -> Arc<Tablebases> {
        self.tables.get(rules)
    }

    /// The rule set a request names, else the server's.
    fn rules(&self, field: &Option<String>) -> Result<RuleSet, Problem> {
        requests::rules(field.as_deref(), self.rules)
    }

    /// The answer to `method path` with `body`.
    pub fn answer(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        self.route(method, path, body)
            .unwrap_or_else(|problem| Answer::problem(&problem))
    }

    fn route(&self, method: &str, path: &str, body: &[u8]) -> Result<Answer, Problem> {
        let expect = |allowed: &'static str| {
            if method == allowed {
                Ok(())
            } else {
                Err(Problem::MethodNotAllowed { allowed })
            }
        };
        match path {
            "/api/board" => {
                expect("POST")?;
                let request: BoardRequest = requests::parse_json(body)?;
                Answer::serialized(&BoardReply::new(&requests::board(&request)?))
            }
            "/api/info" => {
                expect("GET")?;
                Answer::serialized(&InfoReply {
                    movetime: self.movetime_ms,
                    max_movetime: MAX_MOVETIME_MS,
                    max_depth: MAX_DEPTH,
                    max_turns: MAX_TURNS,
                    tablebase_pieces: self.tables(self.rules).max_pieces(),
                    rules: self.rules.name(),
                })
            }
            "/api/tablebases" => {
                expect("GET")?;
                Answer::serialized(&self.tables.status(self.rules))
            }
            "/api/tablebases/build" => {
                expect("POST")?;
                let request: BuildRequest = requests::parse_json(body)?;
                let max_pieces = requests::build_pieces(&request)?;
                self.tables.start_build(max_pieces, self.rules)?;
                Answer::serialized_with(202, &self.tables.status(self.rules))
            }
            "/api/moves" => {
                expect("POST")?;
                let request: PositionRequest = requests::parse_json(body)?;
                let rules = self.rules(&request.rules)?;
                Answer::serialized(&MovesReply::new(
                    &requests::position(&request.position)?,
                    rules,
                ))
            }
            "/api/play" => {
                expect("POST")?;
                self.play(&requests::parse_json(body)?)
            }
            "/api/solve" => {
                expect("POST")?;
                self.solve(&requests::parse_json(body)?)
            }
            "/api/probe" => {
                expect("POST")?;
                let request: PositionRequest = requests::parse_json(body)?;
                let tables = self.tables(self.rules(&request.rules)?);
                let pos = requests::position(&request.position)?;
                probe_json(&pos, &tables)
                    .map(Answer::json)
                    .map_err(Problem::Unprocessable)
            }
            _ => {
                let asset = asset(path)
                    .ok_or_else(|| Problem::NotFound(path.chars().take(100).collect()))?;
                expect("GET")?;
                Ok(Answer {
                    status: 200,
                    content_type: asset.content_type,
                    body: asset.text.to_string(),
                })
            }
        }
    }

    /// Count one more analysis running, or refuse it when too many are.
    fn start_analysis(&self) -> Result<Running<'_>, Problem> {
        let before = self.running.fetch_add(1, Ordering::SeqCst);
        let running = Running(&self.running);
        if before >= MAX_RUNNING_ANALYSES {
            return Err(Problem::Busy(before));
        }
        Ok(running)
    }

    fn solve(&self, request: &SolveRequest) -> Result<Answer, Problem> {
        let analysis = requests::analysis(request)?;
        let rules = self.rules(&request.rules)?;
        let pos = requests::unfinished_position(&request.position, rules)?;
        let _running = self.start_analysis()?;
        match analysis {
            Analysis::Exact { turns } => {
                Ok(Answer::json(turns_json(&pos, turns, Method::Pruned, rules)))
            }
            Analysis::Search { depth, movetime_ms } => {
                let limits = Limits::new(depth, Some(movetime_ms));
                anytime::search(&pos, limits, &self.tables(rules), |_| {})
                    .map(|it| Answer::json(iteration_json(&it)))
                    .ok_or_else(|| Problem::Internal("the search completed no iteration".into()))
            }
        }
    }

    fn play(&self, request: &PlayRequest) -> Result<Answer, Problem> {
        let rules = self.rules(&request.rules)?;
        let pos = requests::unfinished_position(&request.position, rules)?;
        let declarers = [
            requests::declarer(&pos, Side::White, &request.white, rules)?,
            requests::declarer(&pos, Side::Black, &request.black, rules)?,
        ];
        let movetime_ms = requests::movetime(request.movetime.unwrap_or(self.movetime_ms))?;
        // Against a person the engine models them, over the turns of one game.
        let engine_sides: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| matches!(declarers[s.index()], Declarer::Engine))
            .collect();
        let mut model = match engine_sides[..] {
            [side] if request.exploit != Some(false) => {
                Some(self.lock_games().take(request.game, side))
            }
            _ => None,
        };
        let mut declared = [Move::FORFEIT; 2];
        let mut engine = Vec::new();
        for side in Side::BOTH {
            declared[side.index()] = match declarers[side.index()] {
                Declarer::Person(m) => m,
                Declarer::Engine => {
                    let exploiter = model.as_mut().map(|(_, e)| e);
                    match self.engine_choice(&pos, side, movetime_ms, rules, exploiter) {
                        Ok((m, choice)) => {
                            engine.push(choice);
                            m
                        }
                        Err(problem) => {
                            // A busy server must not cost the person's game its model.
                            if let Some((game, exploiter)) = model {
                                self.lock_games().put(game, exploiter);
                            }
                            return Err(problem);
                        }
                    }
                }
            };
        }
        let turn = resolve_declared(&pos, declared, rules);
        let mut reply = TurnReply::new(rules, &pos, &turn, engine);
        if let Some((game, mut exploiter)) = model {
            reply.model = Some(ModelReply::new(game, &exploiter.report()));
            exploiter.observe(turn.actions[exploiter.side().opponent().index()]);
            self.lock_games().put(game, exploiter);
        }
        Answer::serialized(&reply)
    }

    fn lock_games(&self) -> std::sync::MutexGuard<'_, ModelledGames> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine's declaration for `side` under `rules`, drawn from the strategy its search
    /// found, or from the strategy that safely exploits its model of the person (`exploiter`).
    fn engine_choice(
        &self,
        pos: &Position,
        side: Side,
        movetime_ms: u64,
        rules: RuleSet,
        exploiter: Option<&mut SafeExploiter>,
    ) -> Result<(Move, EngineChoice), Problem> {
        let _running = self.start_analysis()?;
        let draw = self.draws.fetch_add(1, Ordering::Relaxed);
        let mut rng = Rng::new(self.seed ^ draw.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let limits = Limits::new(None, Some(movetime_ms));
        let tables = self.tables(rules);
        let no_iteration = || Problem::Internal("the search completed no iteration".into());
        let (m, it, strategy) = match exploiter {
            Some(e) => e
                .choose(pos, limits, &tables, &mut rng)
                .ok_or_else(no_iteration)?,
            None => {
                let (m, iteration) = engine_move(pos, side, limits, &tables, &mut rng);
                let it = iteration.ok_or_else(no_iteration)?;
                let strategy = it.root.strategy(side).1.to_vec();
                (m, it, strategy)
            }
        };
        let (moves, _) = it.root.strategy(side);
        let probability = moves
            .iter()
            .zip(&strategy)
            .find(|(&candidate, _)| candidate == m)
            .map_or(0.0, |(_, &p)| p);
        let search = RawValue::from_string(iteration_json(&it))
            .map_err(|e| Problem::Internal(format!("search report is not JSON: {e}")))?;
        let choice = EngineChoice {
            side: side_key(side),
            declared: format_move(m),
            probability: clean(probability),
            search,
        };
        Ok((m, choice))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn api() -> Api {
        Api::new(Tablebases::none, RuleSet::Classic, 50, 7)
    }

    fn post(api: &Api, path: &str, body: &str) -> (u16, Value) {
        let answer = api.answer("POST", path, body.as_bytes());
        let value = if answer.status == 200 {
            serde_json::from_str(&answer.body).expect("JSON")
        } else {
            assert!(answer.body.ends_with('\n') && answer.body.lines().count() == 1);
            Value::String(answer.body)
        };
        (answer.status, value)
    }

    #[test]
    fn routes_methods_and_unknown_paths() {
        let api = api();
        let page = api.answer("GET", "/", b"");
        assert_eq!(page.status, 200);
        assert!(page.content_type.starts_with("text/html"));
        assert!(page.body.contains("<svg"));
        assert_eq!(api.answer("POST", "/", b"").status, 405);
        assert_eq!(api.answer("GET", "/api/solve", b"").status, 405);
        assert_eq!(api.answer("GET", "/nothing", b"").status, 404);
        let info: Value = serde_json::from_str(&api.answer("GET", "/api/info", b"").body).unwrap();
        assert_eq!(info["movetime"], 50);
        assert_eq!(info["max_turns"], MAX_TURNS);
    }

    #[test]
    fn solve_answers_as_the_command_line_does() {
        let api = api();
        let (status, exact) = post(&api, "/api/solve", r#"{"position":"start","turns":2}"#);
        assert_eq!(status, 200);
        assert_eq!(exact["value"], 0.0);
        assert_eq!(exact["turns"], 2);
        assert_eq!(exact["exploitability"], 0.0);
        let (status, search) = post(&api, "/api/solve", r#"{"position":"start","depth":2}"#);
        assert_eq!(status, 200);
        assert_eq!(search["depth"], 2);
        let total: f64 = search["white"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9);
        let (status, _) = post(
            &api,
            "/api/solve",
            r#"{"position":"5/2p2/5/5/2N2","depth":2}"#,
        );
        assert_eq!(status, 422);
    }

    #[test]
    fn the_engine_keeps_a_model_of_the_person_over_one_game() {
        let api = api();
        let turn = |body: &str| {
            let (status, reply) = post(&api, "/api/play", body);
            assert_eq!(status, 200, "{reply}");
            reply
        };
        let first = turn(r#"{"position":"start","white":"c1c2","black":"engine","movetime":20}"#);
        let game = first["model"]["game"].as_u64().expect("a model game");
        // Nothing seen yet: no trust, nothing given away, optimal play.
        assert_eq!(first["model"]["trust"], 0.0);
        assert_eq!(first["model"]["budget"], 0.0);
        assert_eq!(first["model"]["strayed"], 0.0);
        assert!(!first["model"]["prediction"].as_array().unwrap().is_empty());
        let next = first["next"].as_str().unwrap();
        let second = turn(&format!(
            r#"{{"position":"{next}","white":"a1b3","black":"engine","movetime":20,"game":{game}}}"#
        ));
        assert_eq!(second["model"]["game"].as_u64(), Some(game));
        // A game the server does not know, or one where the engine played the other side,
        // starts a new model.
        let other = turn(&format!(
            r#"{{"position":"start","white":"engine","black":"c5c4","movetime":20,"game":{game}}}"#
        ));
        assert_ne!(other["model"]["game"].as_u64(), Some(game));
        let unknown = turn(
            r#"{"position":"start","white":"c1c2","black":"engine","movetime":20,"game":999999}"#,
        );
        assert_ne!(unknown["model"]["game"].as_u64(), Some(999999));
        // Without exploitation, or with the engine on both sides, there is no model.
        let plain = turn(
            r#"{"position":"start","white":"c1c2","black":"engine","movetime":20,"exploit":false}"#,
        );
        assert!(plain["model"].is_null());
        let both = turn(r#"{"position":"start","white":"engine","black":"engine","movetime":20}"#);
        assert!(both["model"].is_null());
    }

    #[test]
    fn modelled_games_are_forgotten_oldest_first() {
        let mut games = ModelledGames::default();
        for _ in 0..MAX_MODELLED_GAMES + 3 {
            let (id, model) = games.take(None, Side::Black);
            games.put(id, model);
        }
        assert_eq!(games.by_game.len(), MAX_MODELLED_GAMES);
        assert!(!games.by_game.contains_key(&1));
        let newest = MAX_MODELLED_GAMES as u64 + 3;
        assert_eq!(games.take(Some(newest), Side::Black).0, newest);
    }

    #[test]
    fn play_resolves_a_turn_with_the_engine_drawing_its_move() {
        let api = api();
        let (status, turn) = post(
            &api,
            "/api/play",
            r#"{"position":"start","white":"c1c2","black":"engine","movetime":20}"#,
        );
        assert_eq!(status, 200);
        assert_eq!(turn["white"]["declared"], "c1c2");
        let engine = &turn["engine"][0];
        assert_eq!(engine["side"], "black");
        let drawn = engine["move"].as_str().unwrap();
        assert_eq!(turn["black"]["declared"], drawn);
        // The move drawn has positive probability in the strategy reported with it.
        assert!(engine["search"]["black"][drawn].as_f64().unwrap() > 0.0);
        assert_eq!(
            engine["probability"].as_f64(),
            engine["search"]["black"][drawn].as_f64()
        );
        assert!(turn["next"].as_str().unwrap().ends_with(" 2"));
        let (status, message) = post(
            &api,
            "/api/play",
            r#"{"position":"start","white":"c1c3","black":"c5c4"}"#,
        );
        assert_eq!(status, 400);
        assert!(message
            .as_str()
            .unwrap()
            .contains("illegal move c1c3 for White"));
    }

    #[test]
    fn probe_without_tablebases_is_unprocessable_but_finished_games_have_a_value() {
        let api = api();
        let (status, _) = post(&api, "/api/probe", r#"{"position":"start"}"#);
        assert_eq!(status, 422);
        let (status, over) = post(&api, "/api/probe", r#"{"position":"5/2p2/5/5/2N2"}"#);
        assert_eq!(status, 200);
        assert_eq!(over["value"], -1.0);
    }

    #[test]
    fn too_many_analyses_are_refused() {
        let api = api();
        let held: Vec<_> = (0..MAX_RUNNING_ANALYSES)
            .map(|_| api.start_analysis().unwrap())
            .collect();
        let (status, message) = post(&api, "/api/solve", r#"{"position":"start","turns":1}"#);
        assert_eq!(status, 503);
        assert!(message.as_str().unwrap().starts_with("busy"));
        drop(held);
        assert_eq!(api.running.load(Ordering::SeqCst), 0);
        let (status, _) = post(&api, "/api/solve", r#"{"position":"start","turns":1}"#);
        assert_eq!(status, 200);
    }
}
