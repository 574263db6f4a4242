//! Regexes: lookaround and backreferences (which need a backtracking engine) are refused at
//! compile time; huge repetition counts are refused by the compiled-size budget or matched by
//! the linear-time engine; classic catastrophic-backtracking patterns run in linear time. The
//! same in each dialect (draft-07's `pattern` is ECMA-262 too, and goes through the same
//! engine).

use serde_json::{json, Map, Value};
use toolcall_contracts::policy::{CompiledSchema, Dialect, PolicyError, SchemaPolicy};

use crate::{assert_fast, in_dialect};

/// Compiles `schema` in each dialect, asserting that the refusal (or acceptance) is the same in
/// all, and returns the compiled schemas (oldest dialect first) or the refusal.
fn compile(schema: &Value) -> Result<Vec<CompiledSchema>, PolicyError> {
    let results: Vec<_> = Dialect::ALL
        .into_iter()
        .map(|dialect| {
            let schema = in_dialect(dialect, schema.clone());
            assert_fast("compile", || SchemaPolicy::default().compile(&schema))
        })
        .collect();
    let refusals: Vec<_> = results.iter().map(|result| result.as_ref().err()).collect();
    assert!(
        refusals.iter().all(|refusal| *refusal == refusals[0]),
        "{refusals:?}"
    );
    results.into_iter().collect()
}

#[test]
fn lookaround_and_backreferences() {
    for pattern in [
        "^(?=.*[0-9])[a-z0-9]+$",
        "(?!eo:)",
        "(?<=a)b",
        "(?<!a)b",
        r"(a)\1",
        r"(?<x>a)\k<x>",
    ] {
        let schema = json!({"properties": {"name": {"type": "string", "pattern": pattern}}});
        assert_eq!(
            compile(&schema).unwrap_err(),
            PolicyError::PatternUnsupported {
                pattern: pattern.into(),
                pointer: "/properties/name/pattern".into(),
            }
        );
        let schema = json!({"patternProperties": {pattern: {}}});
        let refused = compile(&schema).unwrap_err();
        assert!(
            matches!(&refused, PolicyError::PatternUnsupported { pointer, .. } if pointer.starts_with("/patternProperties/")),
            "{refused:?}"
        );
    }
    assert_eq!(
        compile(&json!({"pattern": "(?=a)"})).unwrap_err().to_string(),
        "pattern `(?=a)` at `/pattern` is refused by the linear-time regex engine (lookaround, backreference or invalid syntax)"
    );
}

#[test]
fn huge_repetition_counts() {
    for pattern in [
        "a{1000}{1000}",
        "^(?:a|b){100000}$",
        "^.{65535}$",
        r"^(\w{1000}){1000}$",
    ] {
        let schema = json!({"pattern": pattern});
        assert_eq!(
            compile(&schema).unwrap_err(),
            PolicyError::PatternTooLarge {
                pattern: pattern.into(),
                pointer: "/pattern".into(),
                limit: SchemaPolicy::DEFAULT_MAX_REGEX_BYTES,
            }
        );
    }
    // Counts too large for the regex parser itself.
    let refused = compile(&json!({"pattern": "a{4294967296}"})).unwrap_err();
    assert!(
        matches!(refused, PolicyError::PatternUnsupported { .. }),
        "{refused:?}"
    );
}

#[test]
fn many_regexes_share_one_budget() {
    // Each fits alone; together they pass `max_regex_bytes`.
    let properties: Map<String, Value> = (0..200)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"pattern": format!("^[a-z]{{{}}}$", 200 + i)}),
            )
        })
        .collect();
    let refused = compile(&json!({"properties": properties})).unwrap_err();
    assert!(
        matches!(refused, PolicyError::PatternTooLarge { .. }),
        "{refused:?}"
    );
}

#[test]
fn catastrophic_backtracking_runs_in_linear_time() {
    let cases = [
        ("(x+x+)+y", "x".repeat(100_000), false),
        ("^(a|aa)+$", format!("{}b", "a".repeat(100_000)), false),
        ("^(a+)+$", "a".repeat(100_000), true),
        ("^([a-z0-9]+[-.]?)+@", "a-".repeat(50_000), false),
    ];
    for (pattern, subject, matches) in cases {
        for compiled in compile(&json!({"pattern": pattern})).unwrap() {
            let verdict = assert_fast(pattern, || compiled.check(&json!(subject)));
            assert_eq!(verdict.is_ok(), matches, "{pattern}: {verdict:?}");
        }
    }
}

#[test]
fn repeated_classes_with_large_counts() {
    for compiled in compile(&json!({"pattern": "^[a-z]{1,1000}$"})).unwrap() {
        assert_eq!(
            assert_fast("short", || compiled.check(&json!("abc"))),
            Ok(())
        );
        assert!(assert_fast("long", || compiled.check(&json!("a".repeat(1001)))).is_err());
    }
}
