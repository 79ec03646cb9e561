//! The Apocalypse code keeps its layers (`docs/architecture.md`): from the bottom up `rules/`;
//! `solver/` and `tablebase/` side by side (neither uses the other); `search/`; `play.rs` (the
//! games); `cli/` (every subcommand, the web server included). Every `use` in `src/apocalypse/`
//! points into the file's own layer or a layer below, and no chain of uses leads back to where
//! it started. Read from the source text (test modules excluded), so a new upward import fails
//! here; the check itself is shown to catch one.

mod layers;

/// The layers from the bottom up; `solver` and `tablebase` share a rank.
const LAYERS: &[(&str, u32)] = &[
    ("rules", 0),
    ("solver", 1),
    ("tablebase", 1),
    ("search", 2),
    ("play", 3),
    ("cli", 4),
];

#[test]
fn each_layer_uses_only_itself_and_the_layers_below() {
    let graph = layers::assert_layered("apocalypse", LAYERS, &["search::anytime", "play"]);
    // The scan sees real uses, through `crate::`, `super::` and `self::` paths and groups,
    // three folders deep.
    assert!(graph["search::anytime"].contains("solver::pruned"));
    assert!(graph["search::anytime"].contains("search::eval"));
    assert!(graph["cli::play_human"].contains("play"));
    assert!(graph["cli::play_human"].contains("cli::tables"));
    assert!(graph["cli::serve::shelf"].contains("cli::tables"));
    assert!(graph["cli::serve::api"].contains("cli::serve::replies"));
    assert!(graph["cli::serve"].contains("cli::serve::api"));
    assert!(graph["rules::report"].contains("rules::resolve"));
}

#[test]
fn an_upward_a_sideways_and_a_circular_use_are_reported() {
    let upward = layers::fake(&[
        (
            "rules::board",
            "use crate::apocalypse::search::eval::evaluate;",
        ),
        ("search::eval", "pub fn evaluate() {}"),
    ]);
    let (wrong, _) = layers::check("apocalypse", &upward, LAYERS);
    assert_eq!(wrong, ["rules::board (rules) uses search::eval (search)"]);

    let sideways = layers::fake(&[
        (
            "solver::tree",
            "use crate::apocalypse::{rules::board::Side, tablebase::Tablebases};",
        ),
        ("tablebase", "pub struct Tablebases;"),
        ("rules::board", "pub enum Side {}"),
    ]);
    let (wrong, _) = layers::check("apocalypse", &sideways, LAYERS);
    assert_eq!(wrong, ["solver::tree (solver) uses tablebase (tablebase)"]);

    let circle = layers::fake(&[
        ("cli::serve", "use self::api::Api;"),
        ("cli::serve::api", "use super::replies::TurnReply;"),
        (
            "cli::serve::replies",
            "fn f() { crate::apocalypse::cli::serve::api::g() }",
        ),
    ]);
    let (wrong, graph) = layers::check("apocalypse", &circle, LAYERS);
    assert!(graph["cli::serve"].contains("cli::serve::api"));
    // The cycle, and what cannot be ordered because it uses the cycle.
    assert_eq!(
        wrong,
        ["import cycle among [\"cli::serve\", \"cli::serve::api\", \"cli::serve::replies\"]"]
    );

    let outside = layers::fake(&[("engine", "pub fn f() {}")]);
    let (wrong, _) = layers::check("apocalypse", &outside, LAYERS);
    assert_eq!(wrong, ["engine is in no layer"]);
}
