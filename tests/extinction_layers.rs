//! The Extinction code keeps its layers (`docs/architecture.md`): every `use` of a module in
//! `src/extinction/` points into the file's own folder or into a layer below it, `protocol/`
//! and `tools/` never use each other, and no chain of uses leads back to where it started.
//! Read from the source text (test modules excluded), so a new upward import fails here.

mod layers;

/// The layers from the bottom up; `protocol` and `tools` share the top.
const LAYERS: &[(&str, u32)] = &[
    ("rules", 0),
    ("eval", 1),
    ("search", 2),
    ("engine", 3),
    ("protocol", 4),
    ("tools", 4),
];

#[test]
fn each_layer_uses_only_itself_and_the_layers_below() {
    let graph = layers::assert_layered("extinction", LAYERS, &["search::alphabeta", "engine"]);
    // The scan sees real uses: the search uses the evaluation and the rules.
    assert!(graph["search::alphabeta"]
        .iter()
        .any(|m| m.starts_with("eval")));
    assert!(graph["search::alphabeta"].contains("rules::threats"));
}
