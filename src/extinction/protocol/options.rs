//! The one table of options both protocols offer. UCI lists it after `uci` as `option` lines,
//! XBoard announces its share as `feature option=` lines, and both set an option through
//! [`set_option`], which checks the value against the table before the engine sees it.

use super::detect::Protocol;
use crate::extinction::engine::{
    Engine, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV, MAX_THREADS,
};

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number within `min..=max`.
    Spin {
        /// Value before any change.
        default: u64,
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
    },
    /// On or off.
    Check {
        /// Value before any change.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// One of a fixed list of words.
    Combo {
        /// Value before any change.
        default: &'static str,
        /// Accepted values.
        values: &'static [&'static str],
    },
}

/// How an XBoard session reaches an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XboardAccess {
    /// Announced with `feature option=...` and set with `option NAME=VALUE`.
    Feature,
    /// Set by a command of its own (`memory`, `cores`, `hard`/`easy`), so not announced;
    /// `option NAME=VALUE` still works.
    Command,
    /// Not offered over XBoard.
    None,
}

/// What setting an option changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    Hash,
    Threads,
    MultiPv,
    Ponder,
    MoveOverhead,
    ClearHash,
    Variant,
}

/// One option as both protocols show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Name as shown to the GUI (matched without regard to case).
    pub name: &'static str,
    /// Values it takes.
    pub kind: OptionKind,
    /// How XBoard reaches it.
    pub xboard: XboardAccess,
    setting: Setting,
}

/// Every option, in the order UCI lists them.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB as u64,
            min: 1,
            max: MAX_HASH_MB as u64,
        },
        xboard: XboardAccess::Command,
        setting: Setting::Hash,
    },
    EngineOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as u64,
        },
        xboard: XboardAccess::Command,
        setting: Setting::Threads,
    },
    EngineOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as u64,
        },
        xboard: XboardAccess::Feature,
        setting: Setting::MultiPv,
    },
    EngineOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        xboard: XboardAccess::Command,
        setting: Setting::Ponder,
    },
    EngineOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        xboard: XboardAccess::Feature,
        setting: Setting::MoveOverhead,
    },
    EngineOption {
        name: "Clear Hash",
        kind: OptionKind::Button,
        xboard: XboardAccess::Feature,
        setting: Setting::ClearHash,
    },
    EngineOption {
        name: "UCI_Variant",
        kind: OptionKind::Combo {
            default: "extinction",
            values: &["extinction"],
        },
        xboard: XboardAccess::None,
        setting: Setting::Variant,
    },
];

impl EngineOption {
    /// Whether a session speaking `protocol` offers this option.
    pub fn offered_in(&self, protocol: Protocol) -> bool {
        protocol == Protocol::Uci || self.xboard != XboardAccess::None
    }

    /// The UCI `option name ...` line.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::Combo { default, values } => {
                let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {name} type combo default {default} {}",
                    vars.join(" ")
                )
            }
        }
    }

    /// The XBoard `feature option="..."` line, for options XBoard learns about that way.
    pub fn xboard_feature(&self) -> Option<String> {
        if self.xboard != XboardAccess::Feature {
            return None;
        }
        let name = self.name;
        let control = match self.kind {
            OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            OptionKind::Check { default } => format!("-check {}", u8::from(default)),
            OptionKind::Button => "-button".to_string(),
            OptionKind::Combo { default, values } => {
                let others: Vec<&str> = values.iter().copied().filter(|&v| v != default).collect();
                format!(
                    "-combo *{default}{}",
                    others
                        .iter()
                        .map(|v| format!(" /// {v}"))
                        .collect::<String>()
                )
            }
        };
        Some(format!("feature option=\"{name} {control}\""))
    }
}

/// Why an option was not set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name in this protocol.
    Unknown(String),
    /// The value does not fit the option; the text explains why.
    BadValue(String),
}

/// A checked option value.
enum Value {
    Number(u64),
    Flag(bool),
    None,
}

/// Check `value` against `option`'s kind.
fn parse_value(option: &EngineOption, value: Option<&str>) -> Result<Value, String> {
    let name = option.name;
    let missing = || format!("option {name}: missing value");
    match option.kind {
        OptionKind::Spin { min, max, .. } => {
            let text = value.ok_or_else(missing)?;
            let v: u64 = text
                .trim()
                .parse()
                .map_err(|_| format!("option {name}: bad number '{text}'"))?;
            if v < min || v > max {
                return Err(format!("option {name}: {v} is outside {min}..{max}"));
            }
            Ok(Value::Number(v))
        }
        OptionKind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()) {
            Some(v) if v == "true" || v == "1" => Ok(Value::Flag(true)),
            Some(v) if v == "false" || v == "0" => Ok(Value::Flag(false)),
            Some(v) => Err(format!("option {name}: expected true or false, got '{v}'")),
            None => Err(missing()),
        },
        OptionKind::Button => Ok(Value::None),
        OptionKind::Combo { values, .. } => {
            let text = value.ok_or_else(missing)?;
            if values.iter().any(|v| v.eq_ignore_ascii_case(text.trim())) {
                Ok(Value::None)
            } else {
                Err(format!(
                    "option {name}: unsupported value '{text}' (only {})",
                    values.join(", ")
                ))
            }
        }
    }
}

/// Set the option called `name` (any case) to `value` for a session speaking `protocol`.
pub fn set_option(
    engine: &mut Engine,
    protocol: Protocol,
    name: &str,
    value: Option<&str>,
) -> Result<(), OptionError> {
    let option = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name) && o.offered_in(protocol))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let value = parse_value(option, value).map_err(OptionError::BadValue)?;
    match (option.setting, value) {
        (Setting::Hash, Value::Number(mb)) => engine.set_hash(mb as usize),
        (Setting::Threads, Value::Number(n)) => engine.options.threads = n as usize,
        (Setting::MultiPv, Value::Number(n)) => engine.options.multipv = n as usize,
        (Setting::Ponder, Value::Flag(on)) => engine.options.ponder = on,
        (Setting::MoveOverhead, Value::Number(ms)) => engine.options.move_overhead_ms = ms,
        (Setting::ClearHash, _) => engine.clear_hash(),
        // The only variant there is: nothing changes.
        (Setting::Variant, _) => {}
        (setting, _) => {
            return Err(OptionError::BadValue(format!(
                "option {}: value of the wrong kind for {setting:?}",
                option.name
            )))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::engine::EngineOptions;

    #[test]
    fn defaults_match_the_engine() {
        let defaults = EngineOptions::default();
        let spin_default = |name: &str| match OPTIONS.iter().find(|o| o.name == name).unwrap().kind
        {
            OptionKind::Spin { default, .. } => default,
            other => panic!("{other:?}"),
        };
        assert_eq!(spin_default("Hash"), defaults.hash_mb as u64);
        assert_eq!(spin_default("Threads"), defaults.threads as u64);
        assert_eq!(spin_default("MultiPV"), defaults.multipv as u64);
        assert_eq!(spin_default("Move Overhead"), defaults.move_overhead_ms);
    }

    #[test]
    fn both_protocols_render_the_table() {
        let uci: Vec<String> = OPTIONS.iter().map(EngineOption::uci_line).collect();
        assert_eq!(
            uci[0],
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        );
        assert!(uci.contains(&"option name Ponder type check default false".to_string()));
        assert!(uci.contains(&"option name Clear Hash type button".to_string()));
        assert!(uci.contains(
            &"option name UCI_Variant type combo default extinction var extinction".to_string()
        ));
        let xboard: Vec<String> = OPTIONS
            .iter()
            .filter_map(EngineOption::xboard_feature)
            .collect();
        assert_eq!(
            xboard,
            vec![
                format!("feature option=\"MultiPV -spin 1 1 {MAX_MULTIPV}\""),
                format!("feature option=\"Move Overhead -spin {DEFAULT_MOVE_OVERHEAD_MS} 0 {MAX_MOVE_OVERHEAD_MS}\""),
                "feature option=\"Clear Hash -button\"".to_string(),
            ]
        );
    }

    #[test]
    fn values_are_checked_and_applied() {
        let mut engine = Engine::new(EngineOptions::default());
        assert_eq!(
            set_option(&mut engine, Protocol::Uci, "Hash", Some("2")),
            Ok(())
        );
        assert_eq!(engine.tt().size_mb(), 2);
        assert!(matches!(
            set_option(&mut engine, Protocol::Uci, "Hash", Some("0")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            set_option(&mut engine, Protocol::Uci, "MultiPV", Some("x")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(
            set_option(&mut engine, Protocol::Xboard, "move overhead", Some("100")),
            Ok(())
        );
        assert_eq!(engine.options.move_overhead_ms, 100);
        assert_eq!(
            set_option(&mut engine, Protocol::Uci, "Ponder", Some("true")),
            Ok(())
        );
        assert!(engine.options.ponder);
        assert_eq!(
            set_option(&mut engine, Protocol::Uci, "Nonsense", Some("1")),
            Err(OptionError::Unknown("Nonsense".into()))
        );
        assert_eq!(
            set_option(
                &mut engine,
                Protocol::Uci,
                "UCI_Variant",
                Some("Extinction")
            ),
            Ok(())
        );
        assert!(matches!(
            set_option(&mut engine, Protocol::Uci, "UCI_Variant", Some("chess")),
            Err(OptionError::BadValue(_))
        ));
        // XBoard names variants with its own command, not with this option.
        assert_eq!(
            set_option(
                &mut engine,
                Protocol::Xboard,
                "UCI_Variant",
                Some("extinction")
            ),
            Err(OptionError::Unknown("UCI_Variant".into()))
        );
    }
}
