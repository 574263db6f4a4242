//! An order-keeping JSON tree, so that a published file keeps its source's member order whatever
//! features `serde_json` is built with (`preserve_order` is on in some builds of this workspace
//! and off in others, and the bundle must be byte-identical in all of them).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;

/// A JSON value whose objects keep their members in source order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Node>),
    /// Members in source order; names are unique (parsing refuses a repeated name).
    Object(Vec<(String, Node)>),
}

impl Node {
    /// Parses `text`, refusing an object with a repeated member name.
    pub(crate) fn parse(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Pretty-printed with two-space indentation, members in order, ending with a newline.
    pub(crate) fn to_pretty(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a `Node` always serializes");
        text.push('\n');
        text
    }

    /// The value of member `name`, when `self` is an object that has it.
    pub(crate) fn get(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string value of member `name`.
    pub(crate) fn get_str(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Node::String(text)) => Some(text),
            _ => None,
        }
    }

    /// The node at RFC 6901 `pointer` (`""` is `self`).
    pub(crate) fn pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut node = self;
        for raw in rest.split('/') {
            let token = crate::pointer::unescape(raw);
            node = match node {
                Node::Object(members) => &members.iter().find(|(k, _)| *k == token)?.1,
                Node::Array(items) => {
                    let canonical = token == "0" || !token.starts_with('0');
                    if !canonical || !token.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                    items.get(token.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
        }
        Some(node)
    }
}

/// Builds an object member list operation by operation.
pub(crate) fn members_mut(node: &mut Node) -> Option<&mut Vec<(String, Node)>> {
    match node {
        Node::Object(members) => Some(members),
        _ => None,
    }
}

/// Sets member `name` of `members` to `value`: replaced in place when present, otherwise
/// inserted right after member `after` (or first when `after` is absent).
pub(crate) fn set_member(members: &mut Vec<(String, Node)>, name: &str, value: Node, after: &str) {
    if let Some(slot) = members.iter_mut().find(|(k, _)| k == name) {
        slot.1 = value;
        return;
    }
    let at = members
        .iter()
        .position(|(k, _)| k == after)
        .map_or(0, |index| index + 1);
    members.insert(at, (name.to_owned(), value));
}

/// Appends `token` to `pointer`, escaped per RFC 6901.
pub(crate) fn push_token(pointer: &str, token: &str) -> String {
    crate::pointer::join(pointer, token)
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => serializer.serialize_unit(),
            Node::Bool(value) => serializer.serialize_bool(*value),
            Node::Number(number) => number.serialize(serializer),
            Node::String(text) => serializer.serialize_str(text),
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, value: bool) -> Result<Node, E> {
        Ok(Node::Bool(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Node, E> {
        Number::from_f64(value)
            .map(Node::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Node, E> {
        Ok(Node::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Node, E> {
        Ok(Node::String(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members: Vec<(String, Node)> = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            if members.iter().any(|(k, _)| *k == name) {
                return Err(de::Error::custom(format!("member `{name}` appears twice")));
            }
            let value = map.next_value()?;
            members.push((name, value));
        }
        Ok(Node::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_member_order_and_numbers() {
        let node =
            Node::parse(r#"{"b": 1, "a": [true, null, -3, 18446744073709551615, 0.5]}"#).unwrap();
        assert_eq!(
            node.to_pretty(),
            "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    -3,\n    18446744073709551615,\n    0.5\n  ]\n}\n"
        );
    }

    /// The ACP source was written by `serde_json`'s pretty printer in member order: parsing and
    /// printing it again gives the same bytes, whatever `serde_json`'s `preserve_order` is.
    #[test]
    fn the_acp_source_round_trips_byte_for_byte() {
        let source = crate::acp::SCHEMA_JSON;
        assert_eq!(Node::parse(source).unwrap().to_pretty(), source);
    }

    #[test]
    fn refuses_a_repeated_member() {
        let error = Node::parse(r#"{"a": 1, "a": 2}"#).unwrap_err();
        assert!(error.to_string().starts_with("member `a` appears twice"));
    }

    #[test]
    fn pointer_unescapes_tokens() {
        let node = Node::parse(r#"{"a/b": {"c~d": [1, 2]}}"#).unwrap();
        assert_eq!(node.pointer("/a~1b/c~0d/1"), Some(&Node::Number(2.into())));
        assert_eq!(node.pointer("/a~1b/c~0d/01"), None);
        assert_eq!(push_token("", "a/b~"), "/a~1b~0");
    }

    #[test]
    fn set_member_inserts_after_or_replaces() {
        let mut members = vec![("a".to_owned(), Node::Null), ("c".to_owned(), Node::Null)];
        set_member(&mut members, "b", Node::Bool(true), "a");
        set_member(&mut members, "c", Node::Bool(false), "a");
        let names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(members[2].1, Node::Bool(false));
    }
}
