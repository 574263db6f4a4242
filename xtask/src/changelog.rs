//! `CHANGELOG.md` entries for ACP schema imports.
//!
//! Each `acp import` adds one entry under [`UNRELEASED`], in its [`ACP_SCHEMA`] subsection
//! (created when missing), newest first: where the schema came from and went to, the date, the
//! [`schema_diff`] counts with every breaking change, and the change of the generated Rust API
//! ([`RustApi`], read from `generated/acp.rs` with `syn`: types, struct fields and enum variants
//! added or removed). The rest of the changelog (Keep a Changelog: `## <version> - <date>`
//! sections with `### Added`, `### Changed`, `### Fixed`) is written by hand and left as it is.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use toolcall_schema::diff as schema_diff;
use toolcall_schema::diff::{Change, Class, Summary};

/// The changelog, relative to the workspace root.
pub const CHANGELOG_FILE: &str = "CHANGELOG.md";

/// The header of `CHANGELOG.md` (what a new one starts with).
pub const HEADER: &str = "# Changelog

Notable changes to `toolcall-contracts`, `toolcall-codegen`, `toolcall-schema` and the `toolcall`
command-line tool, newest version first. The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and the crates follow
[semantic versioning](https://semver.org/spec/v2.0.0.html).

Each ACP schema import (`cargo xtask acp import`) adds an entry under `## Unreleased`, in its
`### ACP schema` subsection, newest first: the schema diff of `schema/acp/acp.schema.json`
(counts, then every breaking change with the direction that breaks) and the change of the
generated Rust API in `generated/acp.rs` (types, struct fields and enum variants added or
removed).
";

/// The heading of the changes not yet in a release, where imports add their entries.
pub const UNRELEASED: &str = "## Unreleased";

/// The subsection of a version's changes that holds the schema-import entries.
pub const ACP_SCHEMA: &str = "### ACP schema";

/// What a public item of a generated file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum TypeKind {
    /// A `struct`; its members are its public fields (`0` for a tuple field).
    Struct,
    /// An `enum`; its members are its variants.
    Enum,
    /// A `type` alias; no members.
    Alias,
}

impl TypeKind {
    /// The members' name: `field`, `variant`.
    fn member(self) -> &'static str {
        match self {
            Self::Struct => "field",
            Self::Enum => "variant",
            Self::Alias => "member",
        }
    }
}

impl fmt::Display for TypeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Struct => "struct",
            Self::Enum => "enum",
            Self::Alias => "type alias",
        })
    }
}

/// One public type of a generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeShape {
    /// Struct, enum or alias.
    pub kind: TypeKind,
    /// Public field names of a struct, variant names of an enum.
    pub members: BTreeSet<String>,
}

/// The public types of a generated file by path (`Name`, or `module::Name` in an inline
/// module).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RustApi {
    /// Every public struct, enum and type alias.
    pub types: BTreeMap<String, TypeShape>,
}

impl RustApi {
    /// Reads the public types of Rust source text.
    ///
    /// # Errors
    /// The `syn` parse error when `text` is not a Rust file.
    pub fn parse(text: &str) -> Result<Self, syn::Error> {
        Ok(Self::of(&syn::parse_file(text)?))
    }

    /// The public types of a syntax tree (such as [`toolcall_codegen::Builder::generate`]'s result).
    #[must_use]
    pub fn of(file: &syn::File) -> Self {
        let mut api = Self::default();
        api.collect(&file.items, "");
        api
    }

    fn collect(&mut self, items: &[syn::Item], prefix: &str) {
        for item in items {
            let (name, kind, members) = match item {
                syn::Item::Struct(item) if is_public(&item.vis) => {
                    let members = item
                        .fields
                        .iter()
                        .enumerate()
                        .filter(|(_, field)| is_public(&field.vis))
                        .map(|(index, field)| {
                            field
                                .ident
                                .as_ref()
                                .map_or_else(|| index.to_string(), ToString::to_string)
                        })
                        .collect();
                    (&item.ident, TypeKind::Struct, members)
                }
                syn::Item::Enum(item) if is_public(&item.vis) => {
                    let members = item.variants.iter().map(|v| v.ident.to_string()).collect();
                    (&item.ident, TypeKind::Enum, members)
                }
                syn::Item::Type(item) if is_public(&item.vis) => {
                    (&item.ident, TypeKind::Alias, BTreeSet::new())
                }
                syn::Item::Mod(item) if is_public(&item.vis) => {
                    if let Some((_, items)) = &item.content {
                        self.collect(items, &format!("{prefix}{}::", item.ident));
                    }
                    continue;
                }
                _ => continue,
            };
            self.types
                .insert(format!("{prefix}{name}"), TypeShape { kind, members });
        }
    }

    /// How many types are of `kind`.
    #[must_use]
    pub fn count(&self, kind: TypeKind) -> usize {
        self.types.values().filter(|t| t.kind == kind).count()
    }

    /// `N types (S structs, E enums[, A type aliases])`.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut text = format!(
            "{} types ({} structs, {} enums",
            self.types.len(),
            self.count(TypeKind::Struct),
            self.count(TypeKind::Enum)
        );
        let aliases = self.count(TypeKind::Alias);
        if aliases > 0 {
            text.push_str(&format!(", {aliases} type aliases"));
        }
        text.push(')');
        text
    }
}

fn is_public(visibility: &syn::Visibility) -> bool {
    matches!(visibility, syn::Visibility::Public(_))
}

/// One change of the generated Rust API.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ApiChange {
    /// A type only in the new API.
    TypeAdded {
        /// Its path.
        name: String,
        /// What it is.
        kind: TypeKind,
    },
    /// A type only in the old API.
    TypeRemoved {
        /// Its path.
        name: String,
        /// What it was.
        kind: TypeKind,
    },
    /// A type that changed from struct to enum or back.
    KindChanged {
        /// Its path.
        name: String,
        /// What it was.
        old: TypeKind,
        /// What it is.
        new: TypeKind,
    },
    /// A field or variant only in the new API.
    MemberAdded {
        /// The type's path.
        name: String,
        /// The type's kind (says field or variant).
        kind: TypeKind,
        /// The field or variant.
        member: String,
    },
    /// A field or variant only in the old API.
    MemberRemoved {
        /// The type's path.
        name: String,
        /// The type's kind.
        kind: TypeKind,
        /// The field or variant.
        member: String,
    },
}

impl ApiChange {
    /// Whether the change removes something (a type, field or variant) or changes a kind.
    #[must_use]
    pub fn is_removal(&self) -> bool {
        !matches!(self, Self::TypeAdded { .. } | Self::MemberAdded { .. })
    }
}

impl fmt::Display for ApiChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TypeAdded { name, kind } => write!(f, "added {kind} `{name}`"),
            Self::TypeRemoved { name, kind } => write!(f, "removed {kind} `{name}`"),
            Self::KindChanged { name, old, new } => {
                write!(f, "`{name}` changed from {old} to {new}")
            }
            Self::MemberAdded { name, kind, member } => {
                write!(f, "added {} `{name}::{member}`", kind.member())
            }
            Self::MemberRemoved { name, kind, member } => {
                write!(f, "removed {} `{name}::{member}`", kind.member())
            }
        }
    }
}

/// The changes from `old` to `new`: types by path, then fields and variants of the types in
/// both.
#[must_use]
pub fn api_diff(old: &RustApi, new: &RustApi) -> Vec<ApiChange> {
    let names: BTreeSet<&String> = old.types.keys().chain(new.types.keys()).collect();
    let mut changes = Vec::new();
    for name in names {
        let name = name.clone();
        match (old.types.get(&name), new.types.get(&name)) {
            (None, Some(t)) => changes.push(ApiChange::TypeAdded { name, kind: t.kind }),
            (Some(t), None) => changes.push(ApiChange::TypeRemoved { name, kind: t.kind }),
            (Some(o), Some(n)) if o.kind != n.kind => changes.push(ApiChange::KindChanged {
                name,
                old: o.kind,
                new: n.kind,
            }),
            (Some(o), Some(n)) => {
                for member in n.members.difference(&o.members) {
                    changes.push(ApiChange::MemberAdded {
                        name: name.clone(),
                        kind: n.kind,
                        member: member.clone(),
                    });
                }
                for member in o.members.difference(&n.members) {
                    changes.push(ApiChange::MemberRemoved {
                        name: name.clone(),
                        kind: n.kind,
                        member: member.clone(),
                    });
                }
            }
            (None, None) => {}
        }
    }
    changes
}

/// Counts of [`ApiChange`]s: `types +A −R, fields +A −R, variants +A −R`.
fn api_counts(changes: &[ApiChange]) -> String {
    let mut counts = [[0usize; 2]; 3];
    for change in changes {
        let (row, column) = match change {
            ApiChange::TypeAdded { .. } => (0, 0),
            ApiChange::TypeRemoved { .. } | ApiChange::KindChanged { .. } => (0, 1),
            ApiChange::MemberAdded { kind, .. } => (member_row(*kind), 0),
            ApiChange::MemberRemoved { kind, .. } => (member_row(*kind), 1),
        };
        counts[row][column] += 1;
    }
    format!(
        "types +{} −{}, fields +{} −{}, variants +{} −{}",
        counts[0][0], counts[0][1], counts[1][0], counts[1][1], counts[2][0], counts[2][1]
    )
}

fn member_row(kind: TypeKind) -> usize {
    if kind == TypeKind::Enum {
        2
    } else {
        1
    }
}

/// Everything one changelog entry says.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Entry {
    /// Where the previous schema came from (`crate 1.20.0`, `file \`...\``); `None` for the
    /// first import.
    pub from: Option<String>,
    /// Where the imported schema came from.
    pub to: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The imported schema file's sha256.
    pub sha256: String,
    /// Definitions before (0 for the first import) and after.
    pub definitions: (usize, usize),
    /// The schema diff, old to new.
    pub schema_changes: Vec<Change>,
    /// The generated API before and after.
    pub api: (RustApi, RustApi),
}

impl Entry {
    /// The API changes, old to new.
    #[must_use]
    pub fn api_changes(&self) -> Vec<ApiChange> {
        api_diff(&self.api.0, &self.api.1)
    }

    /// Whether neither the schema nor the generated API changed (a re-import).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.schema_changes.is_empty() && self.api.0 == self.api.1
    }

    /// The entry as Markdown: a `#### ` heading (the entry sits under [`ACP_SCHEMA`]), then
    /// paragraphs and lists, ending with a newline.
    #[must_use]
    pub fn render(&self) -> String {
        let mut text = String::new();
        match &self.from {
            None => text.push_str(&format!(
                "#### Initial import of {} ({})\n\n",
                self.to, self.date
            )),
            Some(from) => text.push_str(&format!("#### {from} → {} ({})\n\n", self.to, self.date)),
        }
        text.push_str(&format!(
            "`schema/acp/acp.schema.json` sha256 `{}`.\n\n",
            self.sha256
        ));
        let (old_api, new_api) = &self.api;
        if self.from.is_none() {
            text.push_str(&format!(
                "Schema: {} definitions. Rust API (`generated/acp.rs`): {}.\n",
                self.definitions.1,
                new_api.describe()
            ));
            return text;
        }
        let summary = Summary::of(&self.schema_changes);
        let (old_defs, new_defs) = self.definitions;
        let added = count_kind(
            &self.schema_changes,
            schema_diff::ChangeKind::DefinitionAdded,
        );
        let removed = count_kind(
            &self.schema_changes,
            schema_diff::ChangeKind::DefinitionRemoved,
        );
        text.push_str(&format!(
            "Schema diff: {summary}; definitions {old_defs} → {new_defs} (+{added} −{removed}).\n\n"
        ));
        let breaking: Vec<&Change> = self
            .schema_changes
            .iter()
            .filter(|change| change.classification == Class::Breaking)
            .collect();
        if breaking.is_empty() {
            text.push_str("No breaking change.\n\n");
        } else {
            text.push_str("Breaking changes:\n\n");
            for change in breaking {
                text.push_str(&format!("- {change}\n"));
            }
            text.push('\n');
        }
        let api_changes = self.api_changes();
        text.push_str(&format!(
            "Rust API (`generated/acp.rs`): {} → {}; {}.\n",
            old_api.describe(),
            new_api.describe(),
            api_counts(&api_changes)
        ));
        if !api_changes.is_empty() {
            text.push('\n');
            for change in &api_changes {
                text.push_str(&format!("- {change}\n"));
            }
        }
        text
    }
}

fn count_kind(changes: &[Change], kind: schema_diff::ChangeKind) -> usize {
    changes.iter().filter(|change| change.kind == kind).count()
}

/// `changelog` with `entry` (a rendered [`Entry`]) inserted as the newest schema-import entry:
/// first in the [`ACP_SCHEMA`] subsection of [`UNRELEASED`]. The subsection is added at the end
/// of the Unreleased section when missing, and the section before the first `## ` heading (or
/// at the end) when missing; an empty changelog gets [`HEADER`] first. Nothing else moves.
#[must_use]
pub fn insert_entry(changelog: &str, entry: &str) -> String {
    let changelog = if changelog.trim().is_empty() {
        HEADER
    } else {
        changelog
    };
    let lines = lines_at(changelog);
    let is_version = |line: &str| line.starts_with("## ");
    let Some(unreleased) = lines
        .iter()
        .position(|(_, line)| line.trim_end() == UNRELEASED)
    else {
        let section = format!("{UNRELEASED}\n\n{ACP_SCHEMA}\n\n{entry}");
        return match lines.iter().find(|(_, line)| is_version(line)) {
            Some(&(at, _)) => format!("{}{section}\n{}", &changelog[..at], &changelog[at..]),
            None => format!("{}\n\n{section}", changelog.trim_end()),
        };
    };
    let section = &lines[unreleased + 1..];
    let end = section
        .iter()
        .find(|(_, line)| is_version(line))
        .map_or(changelog.len(), |&(at, _)| at);
    let heading = section
        .iter()
        .take_while(|&&(at, _)| at < end)
        .find(|(_, line)| line.trim_end() == ACP_SCHEMA);
    match heading {
        // Right below the heading, before the newest entry so far.
        Some(&(at, line)) => {
            let below = at + line.len();
            let rest = changelog[below..].trim_start_matches(['\n', '\r']);
            let separator = if rest.is_empty() { "" } else { "\n" };
            let above = changelog[..below].trim_end_matches(['\n', '\r']);
            format!("{above}\n\n{entry}{separator}{rest}")
        }
        // A new subsection after the Unreleased section's others.
        None => {
            let before = changelog[..end].trim_end();
            let after = &changelog[end..];
            let separator = if after.is_empty() { "" } else { "\n" };
            format!("{before}\n\n{ACP_SCHEMA}\n\n{entry}{separator}{after}")
        }
    }
}

/// Each line of `text` with its byte offset, line endings included.
fn lines_at(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let start = at;
            at += line.len();
            (start, line)
        })
        .collect()
}

/// Today's date in UTC, `YYYY-MM-DD`.
#[must_use]
pub fn today_utc() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = i64::try_from(days).unwrap_or(i64::MAX / 2) + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const OLD: &str = "
        pub struct A { pub x: u8, pub y: u8, z: u8 }
        pub enum E { One, Two }
        pub struct Gone;
        pub struct Id(pub String);
        struct Private { pub a: u8 }
        pub mod inner { pub enum M { V } }
    ";
    const NEW: &str = "
        pub struct A { pub x: u8, pub w: u8 }
        pub enum E { One, Three }
        pub enum Id { S(String) }
        pub type T = u8;
        pub mod inner { pub enum M { V, W } }
    ";

    #[test]
    fn api_is_read_and_compared() {
        let old = RustApi::parse(OLD).unwrap();
        let new = RustApi::parse(NEW).unwrap();
        assert_eq!(old.describe(), "5 types (3 structs, 2 enums)");
        assert_eq!(
            new.describe(),
            "5 types (1 structs, 3 enums, 1 type aliases)"
        );
        let changes: Vec<String> = api_diff(&old, &new)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            changes,
            [
                "added field `A::w`",
                "removed field `A::y`",
                "added variant `E::Three`",
                "removed variant `E::Two`",
                "removed struct `Gone`",
                "`Id` changed from struct to enum",
                "added type alias `T`",
                "added variant `inner::M::W`",
            ]
        );
        assert_eq!(
            api_counts(&api_diff(&old, &new)),
            "types +1 −2, fields +1 −1, variants +2 −1"
        );
    }

    #[test]
    fn entries_render_and_insert_newest_first() {
        let change = Change::new(
            schema_diff::ChangeKind::BecameRequired,
            "/$defs/A/required",
            "`x` became required",
            Class::Breaking,
            Class::Additive,
        );
        let entry = Entry {
            from: Some("crate 1.0.0".to_owned()),
            to: "crate 1.1.0".to_owned(),
            date: "2026-01-02".to_owned(),
            sha256: "ab".to_owned(),
            definitions: (1, 1),
            schema_changes: vec![change],
            api: (
                RustApi::parse("pub struct A { pub x: Option<u8> }").unwrap(),
                RustApi::parse("pub struct A { pub x: u8 }").unwrap(),
            ),
        };
        let expected = "#### crate 1.0.0 → crate 1.1.0 (2026-01-02)

`schema/acp/acp.schema.json` sha256 `ab`.

Schema diff: 1 change: 1 breaking, 0 additive, 0 cosmetic; definitions 1 → 1 (+0 −0).

Breaking changes:

- breaking /$defs/A/required: `x` became required (old producer → new consumer)

Rust API (`generated/acp.rs`): 1 types (1 structs, 0 enums) → 1 types (1 structs, 0 enums); types +0 −0, fields +0 −0, variants +0 −0.
";
        assert_eq!(entry.render(), expected);
        assert!(!entry.is_empty());

        let first = insert_entry("", "#### one\n");
        assert_eq!(
            first,
            format!("{HEADER}\n## Unreleased\n\n### ACP schema\n\n#### one\n")
        );
        let second = insert_entry(&first, "#### two\n");
        assert_eq!(
            second,
            format!("{HEADER}\n## Unreleased\n\n### ACP schema\n\n#### two\n\n#### one\n")
        );
    }

    #[test]
    fn first_import_renders_its_counts() {
        let entry = Entry {
            from: None,
            to: "crate 1.20.0".to_owned(),
            date: "2026-11-29".to_owned(),
            sha256: "cd".to_owned(),
            definitions: (0, 2),
            schema_changes: Vec::new(),
            api: (
                RustApi::default(),
                RustApi::parse("pub struct A; pub enum B { C }").unwrap(),
            ),
        };
        assert_eq!(
            entry.render(),
            "#### Initial import of crate 1.20.0 (2026-11-29)

`schema/acp/acp.schema.json` sha256 `cd`.

Schema: 2 definitions. Rust API (`generated/acp.rs`): 2 types (1 structs, 1 enums).
"
        );
    }

    /// A changelog by version: Unreleased with hand-written subsections, then a release with
    /// its own `### ACP schema` entry.
    const BY_VERSION: &str = "# Changelog

Intro.

## Unreleased

### Added
- A thing.

### Fixed
- A bug.

## 0.1.0 - 2026-12-02

### Changed
- Something.

### ACP schema

#### Initial import of crate 1.20.0 (2026-11-29)

Schema: 203 definitions.
";

    #[test]
    fn entries_land_under_unreleased_acp_schema_and_nothing_else_moves() {
        let first = insert_entry(
            BY_VERSION,
            "#### crate 1.20.0 → crate 1.21.0 (2027-01-05)\n\nA.\n",
        );
        let subsection =
            "\n### ACP schema\n\n#### crate 1.20.0 → crate 1.21.0 (2027-01-05)\n\nA.\n";
        let (unreleased, released) = BY_VERSION.split_once("\n## 0.1.0").unwrap();
        assert_eq!(
            first,
            format!("{unreleased}{subsection}\n## 0.1.0{released}")
        );
        // Removing the entry gives the changelog back, byte for byte.
        assert_eq!(first.replacen(subsection, "", 1), BY_VERSION);

        // The next import goes first in the same subsection; the release keeps its own.
        let second = insert_entry(
            &first,
            "#### crate 1.21.0 → crate 1.22.0 (2027-02-01)\n\nB.\n",
        );
        assert_eq!(
            second,
            first.replacen(
                "### ACP schema\n\n#### crate 1.20.0 → crate 1.21.0",
                "### ACP schema\n\n#### crate 1.21.0 → crate 1.22.0 (2027-02-01)\n\nB.\n\n\
                 #### crate 1.20.0 → crate 1.21.0",
                1
            )
        );
        assert_eq!(second.matches("\n### ACP schema\n").count(), 2);
        assert!(second.ends_with(released));
    }

    #[test]
    fn a_missing_unreleased_section_is_added_before_the_first_version() {
        let old = "# Changelog\n\n## 0.1.0 - 2026-12-02\n\n### Added\n- A thing.\n";
        assert_eq!(
            insert_entry(old, "#### e\n"),
            "# Changelog\n\n## Unreleased\n\n### ACP schema\n\n#### e\n\n\
             ## 0.1.0 - 2026-12-02\n\n### Added\n- A thing.\n"
        );
        // An empty Unreleased section at the end of the file gets the subsection.
        assert_eq!(
            insert_entry("# Changelog\n\n## Unreleased\n", "#### e\n"),
            "# Changelog\n\n## Unreleased\n\n### ACP schema\n\n#### e\n"
        );
    }

    #[test]
    fn the_repository_changelog_has_this_header_and_an_unreleased_section() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(CHANGELOG_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with(HEADER),
            "`{}` does not start with `changelog::HEADER`",
            path.display()
        );
        assert!(text.lines().any(|line| line == UNRELEASED));
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_819), "2027-01-01");
        assert_eq!(today_utc().len(), 10);
    }
}
