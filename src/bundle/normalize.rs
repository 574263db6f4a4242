//! What the bundle changes in a source file, each change neutral for every consumer that already
//! understood the source: the root's `$schema` and `$id`, integer-width formats spelled as
//! bounds, and `type: "object"` beside a `discriminator`.

use serde_json::Number;

use super::json::{members_mut, set_member, Node};
use super::walk;
use super::BundleError;

/// The dialect of every published file.
pub(crate) const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The integer-width formats schemars writes (`OpenAPI` style), and the range each one names.
/// No JSON Schema consumer we support checks them (`jsonschema` checks formats on strings
/// only; ajv-formats knows `int32` and `int64` but not the unsigned ones; Python `jsonschema`
/// knows none), so the bundle states the range with `minimum` and `maximum`, which all check.
const INTEGER_WIDTHS: &[(&str, i128, i128)] = &[
    ("int8", i8::MIN as i128, i8::MAX as i128),
    ("uint8", 0, u8::MAX as i128),
    ("int16", i16::MIN as i128, i16::MAX as i128),
    ("uint16", 0, u16::MAX as i128),
    ("int32", i32::MIN as i128, i32::MAX as i128),
    ("uint32", 0, u32::MAX as i128),
    ("int64", i64::MIN as i128, i64::MAX as i128),
    ("uint64", 0, u64::MAX as i128),
];

/// Number formats every JSON number satisfies as far as a consumer can tell (each parses JSON
/// numbers as IEEE doubles or wider): the bundle drops them.
const NUMBER_WIDTHS: &[&str] = &["double", "float"];

/// What normalizing one file changed, counted for `index.json`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Changes {
    pub(crate) schema_added: bool,
    pub(crate) id_added: bool,
    pub(crate) integer_formats: usize,
    pub(crate) number_formats: usize,
    pub(crate) discriminator_types: usize,
}

impl Changes {
    /// One sentence per kind of change, for `index.json` (empty when the file is published as
    /// its source).
    pub(crate) fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.schema_added {
            out.push(format!("added `$schema`: `{DIALECT}`"));
        }
        if self.id_added {
            out.push("added `$id`".to_owned());
        }
        if self.integer_formats > 0 {
            out.push(format!(
                "replaced {} integer-width `format`s (int32, uint32, int64, uint64, uint16...) \
                 with the `minimum` and `maximum` of their range",
                self.integer_formats
            ));
        }
        if self.number_formats > 0 {
            out.push(format!(
                "removed {} `format`s `double`/`float` (every JSON number is one)",
                self.number_formats
            ));
        }
        if self.discriminator_types > 0 {
            out.push(format!(
                "added `type: \"object\"` beside {} `discriminator`s whose branches are all \
                 objects (ajv's strict mode asks for it)",
                self.discriminator_types
            ));
        }
        out
    }

    pub(crate) fn any(&self) -> bool {
        *self != Self::default()
    }
}

/// Sets the root's `$schema` and `$id` (`id`), refusing a different dialect or `$id`.
pub(crate) fn root(file: &str, root: &mut Node, id: &str) -> Result<Changes, BundleError> {
    let mut changes = Changes::default();
    let found_dialect = root.get("$schema").cloned();
    let found_id = root.get("$id").cloned();
    let Some(members) = members_mut(root) else {
        return Err(BundleError::NotAnObject {
            file: file.to_owned(),
        });
    };
    match found_dialect {
        None => {
            members.insert(0, ("$schema".to_owned(), Node::String(DIALECT.to_owned())));
            changes.schema_added = true;
        }
        Some(Node::String(dialect)) if dialect == DIALECT => {}
        Some(other) => {
            return Err(BundleError::Dialect {
                file: file.to_owned(),
                found: serde_json::to_string(&other).unwrap_or_default(),
            })
        }
    }
    match found_id {
        None => {
            set_member(members, "$id", Node::String(id.to_owned()), "$schema");
            changes.id_added = true;
        }
        Some(Node::String(found)) if found == id => {}
        Some(other) => {
            return Err(BundleError::Id {
                file: file.to_owned(),
                found: serde_json::to_string(&other).unwrap_or_default(),
                expected: id.to_owned(),
            })
        }
    }
    Ok(changes)
}

/// Rewrites width formats and completes discriminated unions, everywhere in `root`.
pub(crate) fn subschemas(
    file: &str,
    root: &mut Node,
    changes: &mut Changes,
) -> Result<(), BundleError> {
    walk::each_mut(root, "", &mut |pointer, node| {
        width_format(file, pointer, node, changes)?;
        discriminator_type(file, pointer, node, changes)
    })
}

fn width_format(
    file: &str,
    pointer: &str,
    node: &mut Node,
    changes: &mut Changes,
) -> Result<(), BundleError> {
    let Some(format) = node.get_str("format").map(str::to_owned) else {
        return Ok(());
    };
    if NUMBER_WIDTHS.contains(&format.as_str()) {
        let members = members_mut(node).expect("a node with a member is an object");
        members.retain(|(k, _)| k != "format");
        changes.number_formats += 1;
        return Ok(());
    }
    let Some(&(_, low, high)) = INTEGER_WIDTHS.iter().find(|(name, _, _)| *name == format) else {
        return Ok(());
    };
    let bound = |keyword: &str| -> Result<Option<i128>, BundleError> {
        match node.get(keyword) {
            None => Ok(None),
            Some(Node::Number(n)) => integer(n).map(Some).ok_or(BundleError::IntegerBound {
                file: file.to_owned(),
                pointer: pointer.to_owned(),
                keyword: keyword_name(keyword),
            }),
            Some(_) => Err(BundleError::IntegerBound {
                file: file.to_owned(),
                pointer: pointer.to_owned(),
                keyword: keyword_name(keyword),
            }),
        }
    };
    let minimum = bound("minimum")?.map_or(low, |m| m.max(low));
    let maximum = bound("maximum")?.map_or(high, |m| m.min(high));
    let members = members_mut(node).expect("a node with a member is an object");
    // `minimum` and `maximum` take the place of `format` when they are new.
    let at = members
        .iter()
        .position(|(k, _)| k == "format")
        .expect("checked above");
    members.remove(at);
    let before = if at == 0 {
        String::new()
    } else {
        members[at - 1].0.clone()
    };
    set_member(members, "minimum", Node::Number(number(minimum)), &before);
    set_member(members, "maximum", Node::Number(number(maximum)), "minimum");
    changes.integer_formats += 1;
    Ok(())
}

/// The name of a bound keyword as a `&'static str`, for the error.
fn keyword_name(keyword: &str) -> &'static str {
    if keyword == "minimum" {
        "minimum"
    } else {
        "maximum"
    }
}

fn integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

fn number(value: i128) -> Number {
    if let Ok(unsigned) = u64::try_from(value) {
        Number::from(unsigned)
    } else {
        Number::from(i64::try_from(value).expect("every width fits i64 or u64"))
    }
}

/// A `discriminator` (`OpenAPI`; an annotation to JSON Schema, used by ajv and code generators)
/// must sit beside a `oneOf` whose every branch is an object schema with a string `const` at
/// the tag, which it requires; `type: "object"` is added beside it when missing.
fn discriminator_type(
    file: &str,
    pointer: &str,
    node: &mut Node,
    changes: &mut Changes,
) -> Result<(), BundleError> {
    let Some(discriminator) = node.get("discriminator") else {
        return Ok(());
    };
    let shape = |reason: &'static str| BundleError::Discriminator {
        file: file.to_owned(),
        pointer: pointer.to_owned(),
        reason,
    };
    let tag = discriminator
        .get_str("propertyName")
        .ok_or_else(|| shape("it has no string `propertyName`"))?
        .to_owned();
    let Some(Node::Array(branches)) = node.get("oneOf") else {
        return Err(shape("it has no `oneOf` beside it"));
    };
    for branch in branches {
        if branch.get_str("type") != Some("object") {
            return Err(shape("a branch of its `oneOf` is not `type: \"object\"`"));
        }
        let constant = branch
            .get("properties")
            .and_then(|properties| properties.get(&tag))
            .and_then(|property| property.get("const"));
        if !matches!(constant, Some(Node::String(_))) {
            return Err(shape(
                "a branch of its `oneOf` has no string `const` at the tag",
            ));
        }
        let required = match branch.get("required") {
            Some(Node::Array(names)) => names.contains(&Node::String(tag.clone())),
            _ => false,
        };
        if !required {
            return Err(shape("a branch of its `oneOf` does not require the tag"));
        }
    }
    match node.get("type") {
        Some(Node::String(kind)) if kind == "object" => Ok(()),
        Some(_) => Err(shape("its schema has a `type` other than `\"object\"`")),
        None => {
            let members = members_mut(node).expect("a node with a member is an object");
            let at = members
                .iter()
                .position(|(k, _)| k == "oneOf")
                .expect("checked above");
            members.insert(at, ("type".to_owned(), Node::String("object".to_owned())));
            changes.discriminator_types += 1;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalized(text: &str) -> Result<(String, Changes), BundleError> {
        let mut node = Node::parse(text).unwrap();
        let mut changes = root("t.json", &mut node, "https://example.test/t.json")?;
        subschemas("t.json", &mut node, &mut changes)?;
        Ok((node.to_pretty(), changes))
    }

    #[test]
    fn root_gets_dialect_and_id() {
        let (text, changes) = normalized(r#"{"title": "T"}"#).unwrap();
        assert_eq!(
            text,
            "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \"https://example.test/t.json\",\n  \"title\": \"T\"\n}\n"
        );
        assert!(changes.schema_added && changes.id_added);
    }

    #[test]
    fn root_refuses_another_dialect_or_id() {
        let error =
            normalized(r#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`t.json` declares `$schema` `\"http://json-schema.org/draft-07/schema#\"`, expected `https://json-schema.org/draft/2020-12/schema`"
        );
        let error = normalized(r#"{"$id": "https://elsewhere.test/t.json"}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`t.json` has `$id` `\"https://elsewhere.test/t.json\"`, expected `https://example.test/t.json`"
        );
    }

    #[test]
    fn integer_widths_become_bounds() {
        let (text, changes) = normalized(
            r#"{"$defs": {
                "A": {"type": "integer", "format": "uint32", "minimum": 0, "description": "d"},
                "B": {"type": ["integer", "null"], "format": "int64"},
                "C": {"type": "integer", "format": "uint16", "minimum": 0, "maximum": 65535},
                "D": {"type": "number", "format": "double"},
                "E": {"type": "string", "format": "uri"},
                "F": {"const": {"format": "int32"}}
            }}"#,
        )
        .unwrap();
        let node = Node::parse(&text).unwrap();
        let defs = node.get("$defs").unwrap();
        let a = defs.get("A").unwrap();
        assert_eq!(a.get("format"), None);
        assert_eq!(a.get("minimum"), Some(&Node::Number(0.into())));
        assert_eq!(
            a.get("maximum"),
            Some(&Node::Number(4_294_967_295_u64.into()))
        );
        let b = defs.get("B").unwrap();
        assert_eq!(b.get("minimum"), Some(&Node::Number(i64::MIN.into())));
        assert_eq!(b.get("maximum"), Some(&Node::Number(i64::MAX.into())));
        let names: Vec<&str> = match b {
            Node::Object(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
            _ => unreachable!(),
        };
        assert_eq!(names, ["type", "minimum", "maximum"]);
        assert_eq!(defs.get("D").unwrap().get("format"), None);
        assert_eq!(defs.get("E").unwrap().get_str("format"), Some("uri"));
        assert_eq!(
            defs.pointer("/F/const/format"),
            Some(&Node::String("int32".to_owned()))
        );
        assert_eq!(changes.integer_formats, 3);
        assert_eq!(changes.number_formats, 1);
    }

    #[test]
    fn integer_width_with_a_fractional_bound_is_refused() {
        let error =
            normalized(r#"{"type": "integer", "format": "uint32", "minimum": 0.5}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`t.json` has a `minimum` that is not an integer beside an integer-width `format` at ``"
        );
    }

    #[test]
    fn discriminator_gets_object_type() {
        let branch = |tag: &str| {
            format!(
                r#"{{"type": "object", "properties": {{"kind": {{"const": "{tag}"}}}}, "required": ["kind"]}}"#
            )
        };
        let text = format!(
            r#"{{"oneOf": [{}, {}], "discriminator": {{"propertyName": "kind"}}}}"#,
            branch("a"),
            branch("b")
        );
        let (out, changes) = normalized(&text).unwrap();
        let node = Node::parse(&out).unwrap();
        assert_eq!(node.get_str("type"), Some("object"));
        assert_eq!(changes.discriminator_types, 1);

        let untagged =
            r#"{"oneOf": [{"type": "object"}], "discriminator": {"propertyName": "kind"}}"#;
        assert_eq!(
            normalized(untagged).unwrap_err().to_string(),
            "`t.json` has a `discriminator` at `` that consumers cannot use: a branch of its `oneOf` has no string `const` at the tag"
        );
    }
}
