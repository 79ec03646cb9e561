//! The Extinction code keeps its layers (`docs/architecture.md`): every `use` of a module in
//! `src/extinction/` points into the file's own folder or into a layer below it, `protocol/`
//! and `tools/` never use each other, and no chain of uses leads back to where it started.
//! Read from the source text (test modules excluded), so a new upward import fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers from the bottom up; `protocol` and `tools` share the top.
const LAYERS: &[(&str, u32)] = &[
    ("rules", 0),
    ("eval", 1),
    ("search", 2),
    ("engine", 3),
    ("protocol", 4),
    ("tools", 4),
];

fn rank(layer: &str) -> Option<u32> {
    LAYERS.iter().find(|(l, _)| *l == layer).map(|&(_, r)| r)
}

/// Every module of `src/extinction/` (`search::alphabeta`, `search` for `search/mod.rs`,
/// `engine`) with its source text up to its test module.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/extinction");
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src/extinction") {
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
            let text = std::fs::read_to_string(&path).expect("read source");
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            out.insert(parts.join("::"), code);
        }
    }
    out
}

/// The first path segments after each occurrence of `prefix` in `code`, including each item of
/// a `prefix{a::.., b}` group.
fn segments_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.push(ident(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|s| !s.is_empty() && s != "self");
    out
}

/// The modules `module` uses, as module names of [`modules`].
fn uses(module: &str, code: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let parts: Vec<&str> = module.split("::").collect();
    // Where `super::` points: the folder of a file in a folder, else the top of the tree.
    let folder_file = parts.len() == 2;
    let resolve = |first: &str, in_folder: Option<&str>| -> Option<String> {
        let candidate = match in_folder {
            Some(folder) => format!("{folder}::{first}"),
            None => first.to_string(),
        };
        all.contains_key(&candidate).then_some(candidate)
    };
    let mut out = BTreeSet::new();
    for first in segments_after(code, "super::") {
        let folder = if folder_file { Some(parts[0]) } else { None };
        out.extend(resolve(&first, folder));
    }
    for first in segments_after(code, "crate::extinction::") {
        let Some(top) = resolve(&first, None) else {
            continue;
        };
        // `crate::extinction::search::tt::..` uses `search::tt`, not the whole folder.
        let after = format!("crate::extinction::{first}::");
        let inner = segments_after(code, &after);
        let inner_modules: Vec<String> = inner
            .iter()
            .filter_map(|i| resolve(i, Some(&first)))
            .collect();
        let uses_folder_items =
            inner.iter().any(|i| resolve(i, Some(&first)).is_none()) || !code.contains(&after);
        out.extend(inner_modules);
        if uses_folder_items {
            out.insert(top);
        }
    }
    out.remove(module);
    out
}

#[test]
fn each_layer_uses_only_itself_and_the_layers_below() {
    let all = modules();
    assert!(
        all.contains_key("search::alphabeta") && all.contains_key("engine"),
        "unexpected tree: {:?}",
        all.keys().collect::<Vec<_>>()
    );
    let mut wrong = Vec::new();
    let mut graph: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &all {
        let layer = module.split("::").next().unwrap();
        let targets = uses(module, code, &all);
        if let Some(own) = rank(layer) {
            for target in &targets {
                let target_layer = target.split("::").next().unwrap();
                let Some(theirs) = rank(target_layer) else {
                    wrong.push(format!("{module} uses {target}, which is in no layer"));
                    continue;
                };
                if target_layer != layer && theirs >= own {
                    wrong.push(format!("{module} ({layer}) uses {target} ({target_layer})"));
                }
            }
        }
        graph.insert(module, targets);
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );

    // No cycles: repeatedly drop modules that use nothing left.
    let mut left: BTreeMap<&str, BTreeSet<String>> = graph.clone();
    loop {
        let leaves: Vec<&str> = left
            .iter()
            .filter(|(_, targets)| targets.iter().all(|t| !left.contains_key(t.as_str())))
            .map(|(&m, _)| m)
            .collect();
        if leaves.is_empty() {
            break;
        }
        for leaf in leaves {
            left.remove(leaf);
        }
    }
    assert!(left.is_empty(), "import cycle among {:?}", left.keys());
    // The scan sees real uses: the search uses the evaluation and the rules.
    assert!(graph["search::alphabeta"]
        .iter()
        .any(|m| m.starts_with("eval")));
    assert!(graph["search::alphabeta"].contains("rules::threats"));
}
