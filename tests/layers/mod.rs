//! The layering check both games' code is held to (`docs/architecture.md`): each folder under
//! `src/<game>/` (or a lone file such as `engine.rs`) is one layer, a module uses only its own
//! layer and the layers below it, layers of equal rank never use each other, and no chain of
//! uses leads back to where it started. Uses are read from the source text (test modules
//! excluded): every `super::`, `self::` and `crate::<game>::` path, `use` groups included.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Source text of every module of a game, keyed by module path (`search::alphabeta`,
/// `search` for `search/mod.rs`, `cli::serve::api`); the game's own `mod.rs` is left out.
pub type Modules = BTreeMap<String, String>;

/// Every module of `src/<game>/` with its source text up to its test module.
pub fn modules(game: &str) -> Modules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(game);
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the game's source folder") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap().with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts.is_empty() {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            out.insert(parts.join("::"), code);
        }
    }
    out
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The paths a use-tree starting at `s` names, each as its segments: `a::b::{c, d::e}` gives
/// `a::b::c` and `a::b::d::e`; a plain path in code (`a::b::f(x)`) gives `a::b::f`.
fn paths_of(s: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = s;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut out = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.extend(paths_of(group[start..i].trim_start()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(paths_of(group[start..i].trim_start()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return out
                .into_iter()
                .map(|tail| prefix.iter().cloned().chain(tail).collect())
                .collect();
        }
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        if name == "self" {
            // `a::{self, b}`: the `self` item names `a` itself.
            return vec![prefix];
        }
        prefix.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    if prefix.is_empty() {
        Vec::new()
    } else {
        vec![prefix]
    }
}

/// The longest leading part of `path` (below the folder `base`) that is a module.
fn module_of(base: &[String], path: &[String], all: &Modules) -> Option<String> {
    (1..=path.len()).rev().find_map(|n| {
        let candidate: Vec<&str> = base.iter().chain(&path[..n]).map(String::as_str).collect();
        let candidate = candidate.join("::");
        all.contains_key(&candidate).then_some(candidate)
    })
}

/// The modules `module` (source `code`) uses, as keys of `all`.
pub fn uses(game: &str, module: &str, code: &str, all: &Modules) -> BTreeSet<String> {
    let own: Vec<String> = module.split("::").map(str::to_string).collect();
    // `super::` is the parent of the module path (a file's folder, or the folder above a
    // `mod.rs`); `self::` is the module itself (its children, for a `mod.rs`).
    let parent = &own[..own.len() - 1];
    let mut out = BTreeSet::new();
    let crate_prefix = format!("crate::{game}::");
    for (prefix, base) in [
        (crate_prefix.as_str(), &[][..]),
        ("super::", parent),
        ("self::", &own[..]),
    ] {
        for (at, _) in code.match_indices(prefix) {
            // `crate::x::super::` is not a thing; skip `super::` inside a longer path.
            let before = code[..at].chars().next_back();
            if prefix != crate_prefix && before.is_some_and(|c| c == ':' || c.is_alphanumeric()) {
                continue;
            }
            for path in paths_of(&code[at + prefix.len()..]) {
                out.extend(module_of(base, &path, all));
            }
        }
    }
    out.remove(module);
    out
}

/// The layer of a module: its first path segment.
fn layer_of(module: &str) -> &str {
    module.split("::").next().unwrap()
}

/// Every use against `layers` (each layer with its rank, the bottom 0), as one line each;
/// then, if there are none, every import cycle. Returns the use graph too.
pub fn check(
    game: &str,
    all: &Modules,
    layers: &[(&str, u32)],
) -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    let rank = |layer: &str| layers.iter().find(|(l, _)| *l == layer).map(|&(_, r)| r);
    let mut wrong = Vec::new();
    let mut graph = BTreeMap::new();
    for (module, code) in all {
        let layer = layer_of(module);
        let targets = uses(game, module, code, all);
        match rank(layer) {
            None => wrong.push(format!("{module} is in no layer")),
            Some(own) => {
                for target in &targets {
                    let target_layer = layer_of(target);
                    match rank(target_layer) {
                        None => wrong.push(format!("{module} uses {target}, which is in no layer")),
                        Some(theirs) if target_layer != layer && theirs >= own => {
                            wrong.push(format!("{module} ({layer}) uses {target} ({target_layer})"))
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        graph.insert(module.clone(), targets);
    }
    // No cycles: repeatedly drop modules that use nothing left.
    let mut left = graph.clone();
    loop {
        let leaves: Vec<String> = left
            .iter()
            .filter(|(_, targets)| targets.iter().all(|t| !left.contains_key(t)))
            .map(|(m, _)| m.clone())
            .collect();
        if leaves.is_empty() {
            break;
        }
        for leaf in leaves {
            left.remove(&leaf);
        }
    }
    if !left.is_empty() {
        wrong.push(format!(
            "import cycle among {:?}",
            left.keys().collect::<Vec<_>>()
        ));
    }
    (wrong, graph)
}

/// Module sources for the check's own tests: `(module, code)` pairs.
pub fn fake(modules: &[(&str, &str)]) -> Modules {
    modules
        .iter()
        .map(|(m, c)| (m.to_string(), c.to_string()))
        .collect()
}

/// Check `src/<game>/` against `layers` (failing with every wrong use) and return its use
/// graph; `expected` modules must be in the tree, so a moved folder cannot empty the check.
pub fn assert_layered(
    game: &str,
    layers: &[(&str, u32)],
    expected: &[&str],
) -> BTreeMap<String, BTreeSet<String>> {
    let all = modules(game);
    assert!(
        expected.iter().all(|m| all.contains_key(*m)),
        "unexpected tree: {:?}",
        all.keys().collect::<Vec<_>>()
    );
    let (wrong, graph) = check(game, &all, layers);
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    graph
}
