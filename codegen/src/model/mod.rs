//! The model of what is generated: one [`Item`] per Rust type, with everything the emitter needs
//! to write it and its impls (wire names, presence, declared leniency, bounds, how a union is told
//! apart): what [`Builder::model`](crate::Builder::model) returns. Built from the normalized
//! schema, then written as Rust by the emitter.
//!
//! Nothing here is Rust syntax: types are [`Ty`] values, names are strings the emitter turns
//! into identifiers.

mod assertions;
pub(crate) mod build;
pub(crate) mod checks;
pub(crate) mod names;
mod objects;
pub(crate) mod pairing;
mod recursion;
mod scalars;
mod unions;

pub use assertions::is_assertion as is_assertion_keyword;
use serde_json::Value;

/// Whether `keyword` asserts something about a value in some draft (else it is an annotation),
/// `format` included.
#[must_use]
pub fn is_assertion(keyword: &str) -> bool {
    assertions::is_assertion(keyword, true)
}

/// Everything one generated module holds, in emission order.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The types, in schema order (types hoisted out of a definition follow it).
    pub items: Vec<Item>,
    /// The schema document the run-time checks validate against, when a type needs one.
    pub document: Option<checks::Document>,
    /// What the module accepts or refuses unlike the schema, by an option's choice: one line
    /// each, naming the definition (printed by `generate`, written in the module's docs).
    pub warnings: Vec<String>,
    /// A value of any kind is a `toolcall_contracts::JsonValue`, every number kept as written
    /// (a faithful family's); else a `serde_json::Value`.
    pub json_values: bool,
    /// Result unions decoded by the tag of the request they answer
    /// ([`Builder::paired_results`](crate::Builder::paired_results)), in the order set.
    pub pairings: Vec<Pairing>,
}

/// A result union paired with the tagged union of the requests it answers: which branch answers
/// each tag value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The Rust name of the request union (tagged).
    pub requests: String,
    /// The Rust name of the result union.
    pub results: String,
    /// The request union's tag member (`method`).
    pub tag: String,
    /// One per tag value of the request union, in its order.
    pub pairs: Vec<Pair>,
}

/// The branch of a result union that answers one tag value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The tag value (`tools/list`).
    pub value: String,
    /// The request's type (`ListToolsRequest`).
    pub request: String,
    /// The variant of the result union that answers it (`ListToolsResult`), `None` when the
    /// union has none (the whole union decodes the result).
    pub result: Option<String>,
    /// The request has no result type of its own: `result` is the branch of `EmptyResult`'s
    /// type.
    pub empty: bool,
}

impl Model {
    /// The item named `name`.
    #[must_use]
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|item| item.name == name)
    }
}

/// One generated type.
#[derive(Debug, Clone)]
pub struct Item {
    /// The Rust type name.
    pub name: String,
    /// RFC 6901 pointer of the schema it comes from (`/$defs/ToolCall`).
    pub pointer: String,
    /// The schema's `description`.
    pub docs: Option<String>,
    /// What kind of type.
    pub kind: Kind,
    /// Assertions of its schema the type does not carry, checked when decoding: the check
    /// (pointer into the schema document, keywords), if any.
    pub check: Option<CheckAt>,
}

/// A part of the schema document checked when decoding, because its type does not carry some
/// of its assertions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckAt {
    /// RFC 6901 pointer of the part in the schema document as written.
    pub pointer: String,
    /// The keywords the type does not carry (for docs), in schema order.
    pub keywords: Vec<String>,
}

/// The kinds of generated types.
#[derive(Debug, Clone)]
pub enum Kind {
    /// An object with declared members.
    Struct(Struct),
    /// A `oneOf`/`anyOf` (or a `type` array): an enum with data.
    Union(Union),
    /// A string or integer enumeration.
    Enum(Enum),
    /// A definition that is a scalar (`ToolCallId(String)`).
    Newtype(Ty),
    /// A definition that is another type (a `$ref`, an array, a map): `type X = ...;`.
    Alias(Ty),
    /// A `prefixItems` array.
    Tuple(Tuple),
}

impl Kind {
    /// Calls `f` on every type the item holds directly (members, additional members, payloads,
    /// tuple items), not on the types inside them.
    pub fn each_ty(&self, f: &mut dyn FnMut(&Ty)) {
        match self {
            Self::Struct(s) => {
                for member in &s.members {
                    if let MemberValue::Field(field) = &member.value {
                        f(&field.ty);
                    }
                }
                if let Rest::Additional(ty) = &s.rest {
                    f(ty);
                }
            }
            Self::Union(u) => {
                for variant in &u.variants {
                    if let Payload::Ty(ty) = &variant.payload {
                        f(ty);
                    }
                }
            }
            Self::Newtype(ty) | Self::Alias(ty) => f(ty),
            Self::Tuple(t) => {
                t.items.iter().for_each(&mut *f);
                if let Some(rest) = &t.rest {
                    f(rest);
                }
            }
            Self::Enum(_) => {}
        }
    }
}

/// A struct.
#[derive(Debug, Clone)]
pub struct Struct {
    /// Declared members, in schema order.
    pub members: Vec<Member>,
    /// A union whose members sit beside the declared ones (`properties` next to `oneOf`).
    pub flatten: Option<Flatten>,
    /// What happens to members the schema does not declare.
    pub rest: Rest,
    /// `anyOf`/`oneOf` branches that only add `required` members: which members must be present.
    pub presence_rule: Option<PresenceRule>,
}

/// A union flattened into a struct.
#[derive(Debug, Clone)]
pub struct Flatten {
    /// The Rust field name.
    pub field: String,
    /// The union type.
    pub ty: String,
}

/// `anyOf` (at least one) or `oneOf` (exactly one) of sets of members that must be present.
#[derive(Debug, Clone)]
pub struct PresenceRule {
    /// `oneOf` when true, `anyOf` when false.
    pub exactly_one: bool,
    /// The member sets (wire names), one per branch.
    pub sets: Vec<Vec<String>>,
}

/// One declared member of a struct.
#[derive(Debug, Clone)]
pub struct Member {
    /// The wire name (`toolCallId`).
    pub wire: String,
    /// The Rust field name (`tool_call_id`), without `r#`.
    pub field: String,
    /// The property's `description`.
    pub docs: Option<String>,
    /// What the member holds.
    pub value: MemberValue,
}

/// What a member holds.
#[derive(Debug, Clone)]
pub enum MemberValue {
    /// A value of a type.
    Field(Field),
    /// A member the schema fixes to one value (`const`, a string, an integer or a boolean):
    /// written always when required (no field); a `bool` field says whether it is written when
    /// optional.
    Const {
        /// The value.
        value: Value,
        /// Listed in `required`.
        required: bool,
    },
}

/// A member holding a value.
#[derive(Debug, Clone)]
pub struct Field {
    /// The value's type.
    pub ty: Ty,
    /// Required or optional, `null` admitted or not.
    pub presence: Presence,
    /// Declared leniency.
    pub leniency: Leniency,
    /// The type is a string enumeration (an unknown value is reported as `unknown_value`).
    pub string_enum: bool,
}

/// Whether a member must be present and whether `null` is one of its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Required, never `null`: `T`.
    Required,
    /// Required, `null` admitted: `Option<T>`, `None` written as `null`.
    RequiredNullable,
    /// Optional, never `null`: `Option<T>`, `None` not written.
    Optional,
    /// Optional, `null` admitted: `MaybeUndefined<T>`, three states.
    OptionalNullable,
}

/// Declared leniency of a member (ACP's `x-deserialize-*` keywords), and `null` taken as absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Leniency {
    /// `x-deserialize-default-on-error`.
    pub default_on_error: bool,
    /// `x-deserialize-default-on-null`.
    pub default_on_null: bool,
    /// `x-deserialize-skip-invalid-items`.
    pub skip_invalid_items: bool,
    /// The family takes `null` for an optional member that does not admit it as absent
    /// (reported).
    pub null_as_absent: bool,
}

impl Leniency {
    /// Whether any leniency applies.
    #[must_use]
    pub const fn any(self) -> bool {
        self.default_on_error
            || self.default_on_null
            || self.skip_invalid_items
            || self.null_as_absent
    }
}

/// What a struct does with members the schema does not declare.
#[derive(Debug, Clone, PartialEq)]
pub enum Rest {
    /// Accepted and dropped (the family does not carry them).
    Ignore,
    /// Refused (`additionalProperties: false`).
    Deny,
    /// Kept in `unknown_members` and written back (the family carries them).
    Keep,
    /// Declared by `additionalProperties` (any value, or values of a type): kept in
    /// `additional_properties`.
    Additional(Ty),
}

/// A Rust type in a field, a variant or an alias.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// A generated type, by Rust name.
    Named(String),
    /// A type the family substitutes for a definition (a Rust path such as `String`).
    Path(String),
    /// `Box<T>`, breaking a recursive type.
    Boxed(Box<Ty>),
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// An integer type (`i64`, `u32`...), as typify maps it.
    Int(String),
    /// `serde_json::Number`: a `number` keeps its form (`2` stays `2`, `2.0` stays `2.0`).
    Number,
    /// `toolcall_contracts::JsonNumber`: a `number` with every digit and its form, at any size
    /// (a faithful family's).
    JsonNumber,
    /// Any JSON value: `serde_json::Value`, or `toolcall_contracts::JsonValue` in a module whose
    /// [`Model::json_values`] is set.
    Value,
    /// Any object: `serde_json::Map<String, Value>`, or `BTreeMap<String, JsonValue>` in a
    /// module whose [`Model::json_values`] is set.
    Object,
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `Option<T>`: `null` or a `T`, where no presence says it (array items, map values, tuple
    /// items that admit `null`); `None` is written as `null`.
    Nullable(Box<Ty>),
    /// `BTreeMap<String, T>`: an object whose every member is a `T`.
    Map(Box<Ty>),
    /// A value checked against bounds when decoding (the Rust type is the inner one).
    Bounded(Box<Ty>, Box<Bounds>),
    /// A value checked against the part of the schema document at a pointer when decoding
    /// (the Rust type is the inner one).
    Checked(Box<Ty>, CheckAt),
}

impl Ty {
    /// `ty`, or `Option<ty>` when `null` is one of its values (a `Value` holds `null` itself).
    #[must_use]
    pub fn nullable_if(ty: Ty, nullable: bool) -> Ty {
        if nullable && !ty.holds_null() {
            Ty::Nullable(Box::new(ty))
        } else {
            ty
        }
    }

    /// Whether decoding checks something beyond the Rust type (bounds or a check, at any depth
    /// outside generated types): such a type needs a `Deserialize` of its own, not an alias.
    #[must_use]
    pub fn checks_beyond_type(&self) -> bool {
        match self {
            Self::Bounded(..) | Self::Checked(..) => true,
            Self::Boxed(inner) | Self::Vec(inner) | Self::Nullable(inner) | Self::Map(inner) => {
                inner.checks_beyond_type()
            }
            _ => false,
        }
    }

    /// Whether the Rust type holds `null` itself (a `Value`).
    #[must_use]
    pub fn holds_null(&self) -> bool {
        matches!(self.unbounded(), Self::Value)
    }

    /// The type without its bounds and checks.
    #[must_use]
    pub fn unbounded(&self) -> &Ty {
        match self {
            Self::Bounded(inner, _) | Self::Checked(inner, _) => inner.unbounded(),
            other => other,
        }
    }

    /// Whether the Rust type has an empty value (`Default` that means "nothing": an empty
    /// array, map or object).
    #[must_use]
    pub fn has_empty_value(&self) -> bool {
        matches!(self.unbounded(), Self::Vec(_) | Self::Map(_) | Self::Object)
    }
}

/// The bounds a schema declares on one value, as JSON numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bounds {
    /// `minimum`.
    pub minimum: Option<serde_json::Number>,
    /// `maximum`.
    pub maximum: Option<serde_json::Number>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<serde_json::Number>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<serde_json::Number>,
    /// `multipleOf`.
    pub multiple_of: Option<serde_json::Number>,
    /// `minLength` (code points).
    pub min_length: Option<u64>,
    /// `maxLength` (code points).
    pub max_length: Option<u64>,
    /// `pattern` (ECMA-262).
    pub pattern: Option<String>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
}

impl Bounds {
    /// Whether no bound is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A union.
#[derive(Debug, Clone)]
pub struct Union {
    /// The tag member, when the branches are told apart by one.
    pub tag: Option<String>,
    /// The variants, in schema order.
    pub variants: Vec<Variant>,
    /// An untagged `oneOf`: a value that more than one variant accepts is refused (an `anyOf`
    /// takes the first that fits best).
    pub exactly_one: bool,
}

impl Union {
    /// The tag values the union knows.
    #[must_use]
    pub fn tag_values(&self) -> Vec<&str> {
        self.variants
            .iter()
            .filter_map(|v| match &v.select {
                Select::Tag { value, .. } => Some(value.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The variant taken when the tag is absent.
    #[must_use]
    pub fn fallback(&self) -> Option<&Variant> {
        self.variants.iter().find(|v| {
            matches!(
                v.select,
                Select::Fallback
                    | Select::Tag {
                        when_absent: true,
                        ..
                    }
            )
        })
    }

    /// The variant that keeps unknown tags.
    #[must_use]
    pub fn catch_all(&self) -> Option<&Variant> {
        self.variants
            .iter()
            .find(|v| matches!(v.select, Select::CatchAll { .. }))
    }
}

/// One variant of a union.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The Rust variant name.
    pub name: String,
    /// The branch's `description`.
    pub docs: Option<String>,
    /// How the variant is selected when decoding.
    pub select: Select,
    /// What it carries.
    pub payload: Payload,
}

/// How a variant is selected.
#[derive(Debug, Clone, PartialEq)]
pub enum Select {
    /// The tag member has this value (and, with `when_absent`, also when the tag is absent:
    /// the branch's tag member is optional).
    Tag {
        /// The tag value.
        value: String,
        /// Also taken when the tag is absent.
        when_absent: bool,
    },
    /// Any tag no other variant has; the raw object is kept. `reported` when the family, not the
    /// schema, keeps the union open (the value is then accepted by leniency).
    CatchAll {
        /// Reported as `unknown_variant`.
        reported: bool,
    },
    /// The branch without a tag: taken when the tag is absent.
    Fallback,
    /// No tag: the branch whose shape matches (see the runtime's `untagged`).
    Shape,
}

/// What a variant carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// Nothing (`null` for an untagged union, the tag alone for a tagged one).
    Unit,
    /// A value of a type. For a tagged variant, a struct without the tag member.
    Ty(Ty),
    /// A generated struct that declares the tag member itself (a `const` in the referenced
    /// definition).
    WithTag(String),
    /// The raw JSON object (a catch-all variant).
    Raw,
}

/// A string or integer enumeration.
#[derive(Debug, Clone)]
pub struct Enum {
    /// The known values, in schema order.
    pub values: Vec<EnumValue>,
    /// Integer values (`true`) or strings.
    pub integer: bool,
    /// The variant that keeps any other value, when the schema accepts others.
    pub other: Option<Other>,
    /// The variant an unknown value decodes to (reported as `unknown_value`) when the schema
    /// does not accept other values but the family takes them as its `other` value.
    pub unknown_as: Option<String>,
}

/// One known value of an [`Enum`].
#[derive(Debug, Clone)]
pub struct EnumValue {
    /// The Rust variant name.
    pub name: String,
    /// The wire value (a string or an integer).
    pub wire: Value,
    /// The branch's `description` (or `title`).
    pub docs: Option<String>,
}

/// The catch-all variant of an open [`Enum`].
#[derive(Debug, Clone)]
pub struct Other {
    /// Its Rust name (`Other`).
    pub name: String,
    /// Its `description`.
    pub docs: Option<String>,
}

/// A `prefixItems` array: a tuple struct.
#[derive(Debug, Clone)]
pub struct Tuple {
    /// The positional items.
    pub items: Vec<Ty>,
    /// How many leading items must be present (`minItems`); the others are `Option`s.
    pub required: usize,
    /// Items after the positional ones (`items` beside `prefixItems`), if allowed.
    pub rest: Option<Ty>,
}
