//! Visiting every subschema of a JSON Schema 2020-12 document, with its JSON pointer: only the
//! values of applicator keywords are schemas; `const`, `enum`, `default`, `examples`,
//! `discriminator` and extension keywords hold data, which is never visited.

use super::json::{push_token, Node};

/// Keywords whose value is one schema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value maps names to schemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];

/// Keywords whose value is an array of schemas.
const ARRAY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Calls `visit` on `node` and on every subschema under it, parents first, in member order.
pub(crate) fn each<E>(
    node: &Node,
    pointer: &str,
    visit: &mut dyn FnMut(&str, &Node) -> Result<(), E>,
) -> Result<(), E> {
    visit(pointer, node)?;
    let Node::Object(members) = node else {
        return Ok(());
    };
    for (keyword, value) in members {
        let here = push_token(pointer, keyword);
        match (keyword.as_str(), value) {
            (k, _) if SINGLE.contains(&k) => each(value, &here, visit)?,
            (k, Node::Object(entries)) if MAP.contains(&k) => {
                for (name, schema) in entries {
                    each(schema, &push_token(&here, name), visit)?;
                }
            }
            (k, Node::Array(items)) if ARRAY.contains(&k) => {
                for (index, schema) in items.iter().enumerate() {
                    each(schema, &push_token(&here, &index.to_string()), visit)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// [`each`] with mutable access: `visit` may change the node before its subschemas are visited.
pub(crate) fn each_mut<E>(
    node: &mut Node,
    pointer: &str,
    visit: &mut dyn FnMut(&str, &mut Node) -> Result<(), E>,
) -> Result<(), E> {
    visit(pointer, node)?;
    let Node::Object(members) = node else {
        return Ok(());
    };
    for (keyword, value) in members {
        let here = push_token(pointer, keyword);
        match keyword.as_str() {
            k if SINGLE.contains(&k) => each_mut(value, &here, visit)?,
            k if MAP.contains(&k) => {
                if let Node::Object(entries) = value {
                    for (name, schema) in entries {
                        each_mut(schema, &push_token(&here, name), visit)?;
                    }
                }
            }
            k if ARRAY.contains(&k) => {
                if let Node::Array(items) = value {
                    for (index, schema) in items.iter_mut().enumerate() {
                        each_mut(schema, &push_token(&here, &index.to_string()), visit)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_schemas_and_skips_data() {
        let node = Node::parse(
            r#"{"properties": {"a/b": {"const": {"type": "x"}}}, "anyOf": [true, {"not": {}}],
                "default": {"properties": {}}, "$defs": {"D": {"items": {}}}}"#,
        )
        .unwrap();
        let mut seen = Vec::new();
        each::<()>(&node, "", &mut |pointer, _| {
            seen.push(pointer.to_owned());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                "",
                "/properties/a~1b",
                "/anyOf/0",
                "/anyOf/1",
                "/anyOf/1/not",
                "/$defs/D",
                "/$defs/D/items"
            ]
        );
    }
}
