//! Where the tablebases live and how they come to be there: a per-user directory
//! (`default_dir`: `$APOCALYPSE_TB_DIR`, else the platform's data directory), filled with the
//! tables of up to four pieces the first time a command needs them (`build_on_first_use`, a
//! couple of seconds), unless `APOCALYPSE_NO_TB_BUILD=1`. The searching subcommands open their
//! tables here (`open_for_search`); the web server also asks `complete_pieces` and
//! `FIRST_USE_PIECES`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::tablebase::build::{self, BuildOptions};
use crate::apocalypse::tablebase::format;
use crate::apocalypse::tablebase::index::classes_in_build_order;
use crate::apocalypse::tablebase::Tablebases;

/// Environment variable naming the tablebase directory (overrides the per-user default).
pub const TB_DIR_ENV: &str = "APOCALYPSE_TB_DIR";

/// Environment variable that, set to `1`, stops every automatic build.
pub const NO_BUILD_ENV: &str = "APOCALYPSE_NO_TB_BUILD";

/// The tables built on first use: every class with at most this many pieces.
pub const FIRST_USE_PIECES: u32 = 4;

/// Wall time of the first-use build in seconds, shown before it starts: 1.6 s on the idle
/// 2-core machine, 4.0-4.5 s on the same machine busy compiling (measured).
const FIRST_USE_SECONDS: f64 = 5.0;

/// Disk space of the first-use build in MB (the classic rules' 33 files: 3 448 284 bytes).
const FIRST_USE_MB: f64 = 3.4;

/// Last resort when no per-user directory can be found: `./tablebases`.
const FALLBACK_DIR: &str = "tablebases";

/// The tablebase directory: `$APOCALYPSE_TB_DIR`, else the per-user data directory of this
/// platform with `apocalypse/tablebases` under it, else `./tablebases`.
pub fn default_dir() -> PathBuf {
    dir_from(|name| std::env::var_os(name), std::env::consts::OS)
}

/// `default_dir` given how to read an environment variable (`var`) and the operating system
/// (`std::env::consts::OS`), so that it can be tested without touching the environment.
/// Empty variables count as unset. Linux and others: `$XDG_DATA_HOME/apocalypse/tablebases`,
/// else `$HOME/.local/share/apocalypse/tablebases`; Windows:
/// `%LOCALAPPDATA%\apocalypse\tablebases`; macOS:
/// `$HOME/Library/Application Support/apocalypse/tablebases`.
pub fn dir_from(var: impl Fn(&str) -> Option<OsString>, os: &str) -> PathBuf {
    let var = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var(TB_DIR_ENV) {
        return dir;
    }
    let data = match os {
        "windows" => var("LOCALAPPDATA"),
        "macos" => var("HOME").map(|h| h.join("Library").join("Application Support")),
        _ => var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local").join("share"))),
    };
    data.map_or_else(
        || PathBuf::from(FALLBACK_DIR),
        |d| d.join("apocalypse").join("tablebases"),
    )
}

/// Whether `APOCALYPSE_NO_TB_BUILD` forbids automatic builds.
pub fn builds_disabled() -> bool {
    std::env::var_os(NO_BUILD_ENV).is_some_and(|v| v == "1")
}

/// The largest K such that every class with at most K pieces of `rules` has its file in the
/// tablebase directory `dir` (0 when not even the smallest set is complete). Only the
/// presence of the files is checked; opening them checks their contents.
pub fn complete_pieces(dir: &Path, rules: RuleSet) -> u32 {
    let rules_dir = format::rules_dir(dir, rules);
    let mut complete = 0;
    for k in 2..=7 {
        let all = classes_in_build_order(k)
            .iter()
            .all(|key| format::path_of(&rules_dir, key).is_file());
        if !all {
            break;
        }
        complete = k;
    }
    complete
}

/// The command that builds `max_pieces` under `rules` into `dir`.
pub fn build_command(max_pieces: u32, dir: &Path, rules: RuleSet) -> String {
    let rules = if rules == RuleSet::Classic {
        String::new()
    } else {
        format!(" --rules {}", rules.name())
    };
    format!(
        "apocalypse tb build{rules} --max-pieces {max_pieces} --dir {}",
        dir.display()
    )
}

/// Build the tables of up to `FIRST_USE_PIECES` pieces of `rules` into `dir` when one of
/// their classes is missing there (files present are reused), saying so on stderr with a
/// progress bar; nothing when they are all there or `APOCALYPSE_NO_TB_BUILD=1`. A failed
/// build is reported in one line and the caller carries on with what there is.
pub fn build_on_first_use(dir: &Path, rules: RuleSet) {
    if complete_pieces(dir, rules) >= FIRST_USE_PIECES || builds_disabled() {
        return;
    }
    eprintln!(
        "apocalypse: building the {FIRST_USE_PIECES}-piece tablebases in {} (about {FIRST_USE_SECONDS:.0} s, {FIRST_USE_MB} MB); for 5 pieces run `{}` (minutes)",
        dir.display(),
        build_command(5, dir, rules)
    );
    let started = Instant::now();
    match build_quietly(FIRST_USE_PIECES, dir, rules, None) {
        Ok(()) => eprintln!(
            "apocalypse: {FIRST_USE_PIECES}-piece tablebases built in {:.1} s",
            started.elapsed().as_secs_f64()
        ),
        Err(e) => eprintln!("apocalypse: tablebase build failed: {e}; carrying on without"),
    }
}

/// Build every class with at most `max_pieces` pieces of `rules` into `dir`, writing nothing
/// on stdout: progress on `bar` when given, else a progress bar on stderr.
pub fn build_quietly(
    max_pieces: u32,
    dir: &Path,
    rules: RuleSet,
    bar: Option<indicatif::ProgressBar>,
) -> Result<(), String> {
    let mut opts = BuildOptions::new(max_pieces, rules, dir.to_path_buf());
    opts.bar = bar;
    build::build(&opts, |_| {}).map(|_| ())
}

/// The tablebases a search uses: those in `dir` when the command line names one, else those
/// in `default_dir()`, built there first when the smallest set is missing
/// (`build_on_first_use`). A named directory that holds no tablebase file is reported in one
/// line on stderr (the search carries on without); a missing default directory is not.
pub fn open_for_search(dir: Option<&Path>, rules: RuleSet) -> Tablebases {
    let Some(dir) = dir else {
        let dir = default_dir();
        build_on_first_use(&dir, rules);
        return Tablebases::open(&dir, rules);
    };
    build_on_first_use(dir, rules);
    let tables = Tablebases::open(dir, rules);
    if tables.max_pieces() == 0 {
        let why = if dir.is_dir() {
            format!("holds no tablebase files for the {} rules", rules.name())
        } else {
            "does not exist".to_string()
        };
        eprintln!(
            "apocalypse: tablebase directory {} {why}; searching without tablebases",
            dir.display()
        );
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn dir(vars: &[(&str, &str)], os: &str) -> PathBuf {
        let vars: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        dir_from(|name| vars.get(name).cloned(), os)
    }

    #[test]
    fn the_override_comes_first_then_the_platform_directory_then_the_working_directory() {
        let all = [
            (TB_DIR_ENV, "/tb"),
            ("XDG_DATA_HOME", "/xdg"),
            ("HOME", "/home/u"),
            ("LOCALAPPDATA", "C:/Users/u/AppData/Local"),
        ];
        for os in ["linux", "windows", "macos", "freebsd"] {
            assert_eq!(dir(&all, os), PathBuf::from("/tb"), "{os}");
        }
        let no_override = &all[1..];
        assert_eq!(
            dir(no_override, "linux"),
            Path::new("/xdg/apocalypse/tablebases")
        );
        assert_eq!(
            dir(&all[2..], "linux"),
            Path::new("/home/u/.local/share/apocalypse/tablebases")
        );
        assert_eq!(
            dir(no_override, "windows"),
            Path::new("C:/Users/u/AppData/Local")
                .join("apocalypse")
                .join("tablebases")
        );
        assert_eq!(
            dir(no_override, "macos"),
            Path::new("/home/u/Library/Application Support/apocalypse/tablebases")
        );
        // Empty variables count as unset; with nothing at all, the working directory.
        let empty = [(TB_DIR_ENV, ""), ("XDG_DATA_HOME", ""), ("HOME", "/h")];
        assert_eq!(
            dir(&empty, "linux"),
            Path::new("/h/.local/share/apocalypse/tablebases")
        );
        assert_eq!(dir(&[], "linux"), Path::new(FALLBACK_DIR));
        assert_eq!(dir(&[("HOME", "/h")], "windows"), Path::new(FALLBACK_DIR));
    }

    #[test]
    fn a_set_is_complete_only_with_every_class_file() {
        let top = std::env::temp_dir().join(format!("tables-complete-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        assert_eq!(complete_pieces(&top, RuleSet::Classic), 0);
        let rules_dir = format::rules_dir(&top, RuleSet::Classic);
        std::fs::create_dir_all(&rules_dir).unwrap();
        let three = classes_in_build_order(3);
        for key in &three {
            std::fs::write(format::path_of(&rules_dir, key), b"").unwrap();
        }
        assert_eq!(complete_pieces(&top, RuleSet::Classic), 3);
        assert_eq!(complete_pieces(&top, RuleSet::Vchess), 0);
        std::fs::remove_file(format::path_of(&rules_dir, three.last().unwrap())).unwrap();
        assert!(complete_pieces(&top, RuleSet::Classic) < 3);
        let _ = std::fs::remove_dir_all(&top);
    }

    #[test]
    fn the_build_command_names_the_rules_only_when_they_are_not_classic() {
        let d = Path::new("/d");
        assert_eq!(
            build_command(5, d, RuleSet::Classic),
            "apocalypse tb build --max-pieces 5 --dir /d"
        );
        assert!(
            build_command(5, d, RuleSet::Vchess).contains("build --rules vchess --max-pieces 5")
        );
    }
}
