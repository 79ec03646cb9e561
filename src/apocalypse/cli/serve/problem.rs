//! Why a request gets no answer: one typed error per HTTP status the server sends, each with
//! a one-line message for the body.

use std::fmt;

/// A request the server refuses or cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// 400: malformed JSON, a bad position or move, limits out of range.
    BadRequest(String),
    /// 404: no such page or endpoint.
    NotFound(String),
    /// 405: the endpoint exists but not for this method.
    MethodNotAllowed {
        /// The method the endpoint takes.
        allowed: &'static str,
    },
    /// 409: the request conflicts with work under way (a tablebase build already running).
    Conflict(String),
    /// 413: a body over the limit (in bytes).
    TooLarge(usize),
    /// 422: a well-formed request that cannot be answered (the game is over, a position the
    /// tablebases do not cover).
    Unprocessable(String),
    /// 500: the server failed (a bug); the message says where.
    Internal(String),
    /// 503: too many analyses running at once.
    Busy(usize),
}

impl Problem {
    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self {
            Problem::BadRequest(_) => 400,
            Problem::NotFound(_) => 404,
            Problem::MethodNotAllowed { .. } => 405,
            Problem::Conflict(_) => 409,
            Problem::TooLarge(_) => 413,
            Problem::Unprocessable(_) => 422,
            Problem::Internal(_) => 500,
            Problem::Busy(_) => 503,
        }
    }

    /// The message, on one line.
    pub fn message(&self) -> String {
        let text = match self {
            Problem::BadRequest(m)
            | Problem::Conflict(m)
            | Problem::Unprocessable(m)
            | Problem::Internal(m) => m.clone(),
            Problem::NotFound(path) => format!("no such page or endpoint: {path}"),
            Problem::MethodNotAllowed { allowed } => format!("use {allowed} here"),
            Problem::TooLarge(limit) => format!("request body over {limit} bytes"),
            Problem::Busy(running) => {
                format!("busy: {running} analyses are running; try again in a few seconds")
            }
        };
        text.replace(['\r', '\n'], " ")
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status(), self.message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        let p = Problem::BadRequest("a\nb\r\nc".to_string());
        assert_eq!(p.message(), "a b  c");
        assert_eq!(p.to_string(), "400 a b  c");
        assert_eq!(Problem::Busy(8).status(), 503);
        assert_eq!(Problem::Conflict("building".into()).status(), 409);
        assert!(Problem::TooLarge(16384).message().contains("16384"));
    }
}
