//! The page the server shows at `/` and the files it loads: `web/index.html`, its style sheet
//! and its script as ES modules, each served from its own route and all compiled into the
//! binary, so the page loads nothing from anywhere else and the Content-Security-Policy can
//! allow scripts and styles from this server only (no inline code).

/// A file the page loads: its route, its `Content-Type` and its text.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type` header.
    pub content_type: &'static str,
    /// Its contents.
    pub text: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SCRIPT: &str = "text/javascript; charset=utf-8";

/// Every file of the page; `/` is also served as `/index.html`.
pub const ASSETS: [Asset; 11] = [
    Asset {
        path: "/",
        content_type: HTML,
        text: include_str!("web/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: CSS,
        text: include_str!("web/style.css"),
    },
    Asset {
        path: "/app.js",
        content_type: SCRIPT,
        text: include_str!("web/app.js"),
    },
    Asset {
        path: "/codec.js",
        content_type: SCRIPT,
        text: include_str!("web/codec.js"),
    },
    Asset {
        path: "/api.js",
        content_type: SCRIPT,
        text: include_str!("web/api.js"),
    },
    Asset {
        path: "/board.js",
        content_type: SCRIPT,
        text: include_str!("web/board.js"),
    },
    Asset {
        path: "/analyse.js",
        content_type: SCRIPT,
        text: include_str!("web/analyse.js"),
    },
    Asset {
        path: "/play.js",
        content_type: SCRIPT,
        text: include_str!("web/play.js"),
    },
    Asset {
        path: "/edit.js",
        content_type: SCRIPT,
        text: include_str!("web/edit.js"),
    },
    Asset {
        path: "/input.js",
        content_type: SCRIPT,
        text: include_str!("web/input.js"),
    },
    Asset {
        path: "/tables.js",
        content_type: SCRIPT,
        text: include_str!("web/tables.js"),
    },
];

/// The file served at `path`, if any.
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_scripts_import_is_served_and_nothing_comes_from_elsewhere() {
        for served in &ASSETS {
            for outside in [
                "https://", "//cdn", "style=\"", "onclick", "onload", "<script>",
            ] {
                assert!(
                    !served.text.contains(outside),
                    "{} refers to {outside}",
                    served.path
                );
            }
            if served.content_type != SCRIPT {
                continue;
            }
            for line in served.text.lines().filter(|l| l.starts_with("import ")) {
                let from = line
                    .rsplit_once("from \"./")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map(|(name, _)| format!("/{name}"))
                    .unwrap_or_else(|| panic!("{}: import not relative: {line}", served.path));
                assert!(
                    asset(&from).is_some(),
                    "{} imports {from}, which is not served",
                    served.path
                );
            }
        }
        let page = asset("/").unwrap().text;
        assert!(page.contains("<script type=\"module\" src=\"/app.js\"></script>"));
        assert!(page.contains("<link rel=\"stylesheet\" href=\"/style.css\">"));
    }
}
