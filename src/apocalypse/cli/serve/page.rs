//! The one page the server shows at `/`: `web/index.html` with its style sheet and script
//! put inline, all compiled into the binary, so the page loads nothing from anywhere else.

use std::sync::LazyLock;

const HTML: &str = include_str!("web/index.html");
const STYLE: &str = include_str!("web/style.css");
const SCRIPT: &str = include_str!("web/app.js");

static PAGE: LazyLock<String> = LazyLock::new(|| {
    HTML.replacen("/*STYLE*/", STYLE, 1)
        .replacen("/*SCRIPT*/", SCRIPT, 1)
});

/// The page, with style and script inline.
pub fn page() -> &'static str {
    &PAGE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_and_script_are_inline_and_nothing_is_fetched_from_elsewhere() {
        let page = page();
        assert!(!page.contains("/*STYLE*/") && !page.contains("/*SCRIPT*/"));
        assert!(page.contains(STYLE) && page.contains(SCRIPT));
        for outside in [
            "http://",
            "https://",
            "//cdn",
            "<link rel=\"stylesheet\"",
            "src=\"",
        ] {
            assert!(
                !page
                    .replace("http://www.w3.org/2000/svg", "")
                    .contains(outside),
                "the page refers to {outside}"
            );
        }
    }
}
