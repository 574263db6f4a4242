//! Regex weights: the Thompson NFA of every `pattern` and `patternProperties` regex, built once
//! per distinct pattern under one byte budget for the whole schema.

use std::collections::HashMap;

use regex_automata::nfa::thompson;

use super::schema::PolicyError;

/// Distinct patterns seen so far, their weights, and what is left of the byte budget.
pub(crate) struct Regexes {
    weights: HashMap<String, u64>,
    left: usize,
    limit: usize,
}

impl Regexes {
    /// A budget of `limit` bytes of NFA for all patterns together.
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            weights: HashMap::new(),
            left: limit,
            limit,
        }
    }

    /// The weight of `pattern`: the number of states of its Thompson NFA (a linear-time match
    /// costs at most this many steps per byte of subject). Built on first sight, as `jsonschema`
    /// builds it: ECMA-262 syntax translated to the `regex` crate's.
    ///
    /// # Errors
    /// [`PolicyError::PatternUnsupported`] when the linear-time engine cannot express the
    /// pattern; [`PolicyError::PatternTooLarge`] when its NFA does not fit what is left of the
    /// budget.
    pub(crate) fn weight(&mut self, pattern: &str, pointer: &str) -> Result<u64, PolicyError> {
        if let Some(&weight) = self.weights.get(pattern) {
            return Ok(weight);
        }
        let unsupported = || PolicyError::PatternUnsupported {
            pattern: pattern.to_owned(),
            pointer: pointer.to_owned(),
        };
        let translated = jsonschema_regex::to_rust_regex(pattern).map_err(|()| unsupported())?;
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().nfa_size_limit(Some(self.left)))
            .build(&translated)
            .map_err(|error| match error.size_limit() {
                Some(_) => PolicyError::PatternTooLarge {
                    pattern: pattern.to_owned(),
                    pointer: pointer.to_owned(),
                    limit: self.limit,
                },
                None => unsupported(),
            })?;
        self.left = self.left.saturating_sub(nfa.memory_usage());
        let weight = nfa.states().len() as u64;
        self.weights.insert(pattern.to_owned(), weight);
        Ok(weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_grow_with_repetition() {
        let mut regexes = Regexes::new(1 << 20);
        let small = regexes.weight("^[a-z]{2}$", "/pattern").unwrap();
        let large = regexes.weight("^[a-z]{200}$", "/pattern").unwrap();
        assert!(small < 20 && large > 200, "{small} {large}");
    }

    #[test]
    fn refusals() {
        let mut regexes = Regexes::new(1 << 20);
        assert_eq!(
            regexes.weight("(?=a)b", "/pattern").unwrap_err().to_string(),
            "pattern `(?=a)b` at `/pattern` is refused by the linear-time regex engine (lookaround, backreference or invalid syntax)"
        );
        let mut tight = Regexes::new(10_000);
        assert_eq!(
            tight.weight("^a{5000}$", "/pattern").unwrap_err().to_string(),
            "pattern `^a{5000}$` at `/pattern` takes the compiled regexes past `max_regex_bytes` of `10000` bytes"
        );
    }
}
