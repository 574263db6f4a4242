//! Tool-name projection: from a (namespace, tool name) to a name a model provider or client
//! accepts, deterministic, never two tools to one name, reversible through the [`NameMap`].
//!
//! What MCP says of tool names: the 2025-11-25 specification (Server Features → Tools → "Tool
//! Names", <https://modelcontextprotocol.io/specification/2025-11-25/server/tools>) says they
//! SHOULD be 1 to 128 characters, case-sensitive, of `A-Z a-z 0-9 _ - .` only, and unique
//! within a server. SEP-986 as proposed
//! (<https://modelcontextprotocol.io/community/seps/986-specify-format-for-tool-names>, which
//! issue 14 quoted) had 1 to 64 characters and `/` as well; the specification it led to has
//! 128 and no `/`. Servers send longer and odder names than either, gateways prefix a server
//! namespace, and model providers and several MCP clients accept only `^[a-zA-Z0-9_-]{1,64}$`
//! (some `{1,128}`). [`NameProjection`] maps every name, in this order:
//!
//! 1. **prefix**: `namespace` + `separator` (default `__`) + name, when the tool has a
//!    namespace ([`NameChange::Prefixed`]);
//! 2. **replace**: every character outside the alphabet becomes `replacement` (default `_`)
//!    ([`NameChange::Replaced`]);
//! 3. **truncate**: a name longer than `max_len` characters keeps its first `max_len - 9` and
//!    gets the hash suffix ([`NameChange::Truncated`], [`NameChange::HashSuffix`]);
//! 4. **collide**: when several tools give one name, each of them gets the hash suffix, except
//!    the one tool among them whose name was intact (prefixed at most, nothing replaced or
//!    truncated), which keeps it (a name the suffix would make longer than `max_len` is cut
//!    first, [`NameChange::Truncated`]; [`NameChange::HashSuffix`] names the tool it collided
//!    with: the one that kept the name, else the least other, whatever the list's order);
//!    this repeats while a suffixed name meets another changed name
//!    (`q.q`, `q_q` and `q.q.5eb5a66d`: `q.q` gets `q_q_5eb5a66d`, then `q.q.5eb5a66d` its own
//!    suffix). If names still coincide, where no name is left to change (a suffixed name equal
//!    to another tool's intact name), the projection fails naming both tools
//!    ([`NameError::Collision`]).
//!
//! The hash suffix is `replacement` and the first 8 lowercase hex digits of the SHA-256 of the
//! tool's namespace, a NUL byte and its name (of the name alone without a namespace): the same
//! tool always gets the same suffix, whatever the other tools and their order.
//!
//! ```
//! use toolcall_hops::names::{NameProjection, ToolRef};
//!
//! let tools = [ToolRef::new("github", "search.issues"), ToolRef::new("github", "search_issues")];
//! let map = NameProjection::openai().project(&tools)?;
//! assert_eq!(map.exposed(Some("github"), "search_issues"), Some("github__search_issues"));
//! let dotted = map.exposed(Some("github"), "search.issues").unwrap();
//! assert_eq!(dotted, "github__search_issues_3c9423c9");
//! assert_eq!(map.resolve(dotted), Some(&tools[0]));
//! # Ok::<(), toolcall_hops::names::NameError>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use sha2::{Digest, Sha256};

/// Length of the hash suffix: the joining `replacement` character and 8 hex digits.
pub const HASH_SUFFIX_CHARS: usize = 9;

/// The characters a projected name may hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Alphabet {
    /// `a-z A-Z 0-9 _ -`: OpenAI's and Anthropic's tool-name rule, and several MCP clients'.
    OpenAi,
    /// `a-z A-Z 0-9 _ - .`: the canonical [`toolcall_contracts::canonical::ToolName`] rule, and the
    /// characters the MCP 2025-11-25 specification allows in a tool name.
    Canonical,
    /// `a-z A-Z 0-9 _ - . /`: SEP-986 as proposed (`/` for namespaces), which servers send.
    Mcp,
    /// Exactly these characters.
    Custom(BTreeSet<char>),
}

impl Alphabet {
    /// Whether `c` is in the alphabet.
    #[must_use]
    pub fn allows(&self, c: char) -> bool {
        let base = c.is_ascii_alphanumeric() || c == '_' || c == '-';
        match self {
            Self::OpenAi => base,
            Self::Canonical => base || c == '.',
            Self::Mcp => base || c == '.' || c == '/',
            Self::Custom(set) => set.contains(&c),
        }
    }
}

/// How names are projected: the target alphabet and length, the namespace separator and the
/// replacement character. Presets: [`NameProjection::openai`] (`^[a-zA-Z0-9_-]{1,64}$`),
/// [`NameProjection::openai_128`] (`{1,128}`), [`NameProjection::canonical`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameProjection {
    /// The characters a projected name may hold.
    pub alphabet: Alphabet,
    /// Most characters of a projected name (at least 1; at least 10 when a name must be
    /// truncated or hashed).
    pub max_len: usize,
    /// Put between a namespace and the name (default `__`, as in `mcp__server__tool`).
    pub separator: String,
    /// Replaces each character outside the alphabet, and joins the hash suffix (default `_`).
    pub replacement: char,
}

impl NameProjection {
    /// `^[a-zA-Z0-9_-]{1,64}$`, separator `__`, replacement `_`.
    #[must_use]
    pub fn openai() -> Self {
        Self {
            alphabet: Alphabet::OpenAi,
            max_len: 64,
            separator: "__".to_owned(),
            replacement: '_',
        }
    }

    /// `^[a-zA-Z0-9_-]{1,128}$`, separator `__`, replacement `_`.
    #[must_use]
    pub fn openai_128() -> Self {
        Self {
            max_len: 128,
            ..Self::openai()
        }
    }

    /// The canonical [`toolcall_contracts::canonical::ToolName`] rule, `^[a-zA-Z0-9_.-]{1,128}$`.
    #[must_use]
    pub fn canonical() -> Self {
        Self {
            alphabet: Alphabet::Canonical,
            max_len: toolcall_contracts::canonical::MAX_TOOL_NAME_CHARS,
            ..Self::openai()
        }
    }

    /// The same projection with at most `max_len` characters.
    #[must_use]
    pub fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// Projects the names of `tools`, in order.
    ///
    /// # Errors
    /// - [`NameError::MaxLenZero`] when `max_len` is 0;
    /// - [`NameError::NotInAlphabet`] when a character the projection writes is not in the
    ///   alphabet (`what` says which): `replacement` when a character is replaced or a suffix
    ///   is needed, a character of `separator` when a tool has a namespace, a hex digit when a
    ///   suffix is needed (an alphabet without them is fine for names that need none of these);
    /// - [`NameError::EmptyName`] for a tool with an empty name;
    /// - [`NameError::EmptyNamespace`] for a tool with an empty namespace (`Some("")`; give
    ///   `None` for a tool without one);
    /// - [`NameError::DuplicateTool`] when a tool is listed twice;
    /// - [`NameError::MaxLenTooShort`] when a name must be truncated or hashed and `max_len`
    ///   leaves no character before the suffix;
    /// - [`NameError::Collision`] when two tools still get the same name.
    pub fn project(&self, tools: &[ToolRef]) -> Result<NameMap, NameError> {
        if self.max_len == 0 {
            return Err(NameError::MaxLenZero);
        }
        let mut seen = BTreeSet::new();
        let mut entries = Vec::with_capacity(tools.len());
        for (index, tool) in tools.iter().enumerate() {
            if tool.name.is_empty() {
                return Err(NameError::EmptyName { tool: tool.clone() });
            }
            if tool.namespace.as_deref() == Some("") {
                return Err(NameError::EmptyNamespace { tool: tool.clone() });
            }
            if !seen.insert(tool) {
                let first = tools
                    .iter()
                    .position(|other| other == tool)
                    .unwrap_or(index);
                return Err(NameError::DuplicateTool {
                    tool: tool.clone(),
                    first,
                    second: index,
                });
            }
            entries.push(self.first_pass(tool)?);
        }
        // Collisions: every changed name among those that coincide gets its hash suffix, round
        // after round (a suffixed name may meet another changed name), until no group has a
        // name left to change.
        loop {
            let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for (index, entry) in entries.iter().enumerate() {
                groups
                    .entry(entry.exposed.as_str())
                    .or_default()
                    .push(index);
            }
            let mut rehash = Vec::new();
            for indices in groups.values().filter(|indices| indices.len() > 1) {
                let intact = indices.iter().filter(|&&i| entries[i].is_intact()).count();
                // What keeps the name: the one intact name of the group, and a name suffixed
                // already (it has nothing left to change).
                let keeps =
                    |i: usize| entries[i].is_hashed() || (entries[i].is_intact() && intact == 1);
                let keepers: Vec<usize> = indices.iter().copied().filter(|&i| keeps(i)).collect();
                for &index in indices {
                    if keeps(index) {
                        continue;
                    }
                    // The tool that keeps the name, else the least other tool: the same whatever
                    // the order of the list.
                    let other = match keepers.as_slice() {
                        [keeper] => Some(*keeper),
                        _ => indices
                            .iter()
                            .copied()
                            .filter(|&other| other != index)
                            .min_by(|&a, &b| entries[a].tool.cmp(&entries[b].tool)),
                    };
                    rehash.extend(other.map(|other| (index, entries[other].tool.clone())));
                }
            }
            if rehash.is_empty() {
                break;
            }
            for (index, other) in rehash {
                let entry = &mut entries[index];
                let length = entry.exposed.chars().count();
                let exposed = self.hashed(&entry.tool, &entry.exposed)?;
                entry.exposed = exposed;
                if length + HASH_SUFFIX_CHARS > self.max_len {
                    entry.changes.push(NameChange::Truncated {
                        length,
                        max_len: self.max_len,
                    });
                }
                entry.changes.push(NameChange::HashSuffix {
                    suffix: self.suffix(&entry.tool),
                    collided_with: Some(other),
                });
            }
        }
        let mut by_exposed = BTreeMap::new();
        for (index, entry) in entries.iter().enumerate() {
            if let Some(&first) = by_exposed.get(entry.exposed.as_str()) {
                let first: &ProjectedName = &entries[first];
                return Err(NameError::Collision {
                    first: first.tool.clone(),
                    second: entry.tool.clone(),
                    exposed: entry.exposed.clone(),
                });
            }
            by_exposed.insert(entry.exposed.as_str(), index);
        }
        let by_exposed = by_exposed
            .into_iter()
            .map(|(name, index)| (name.to_owned(), index))
            .collect();
        let by_tool = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| (entry.tool.clone(), index))
            .collect();
        Ok(NameMap {
            entries,
            by_exposed,
            by_tool,
        })
    }

    /// Prefix, replace, truncate.
    fn first_pass(&self, tool: &ToolRef) -> Result<ProjectedName, NameError> {
        let mut changes = Vec::new();
        let full = tool.full_name(&self.separator);
        if let Some(namespace) = &tool.namespace {
            if let Some(character) = self.separator.chars().find(|&c| !self.alphabet.allows(c)) {
                return Err(NameError::NotInAlphabet {
                    what: "separator",
                    character,
                });
            }
            changes.push(NameChange::Prefixed {
                namespace: namespace.clone(),
            });
        }
        let mut replaced = BTreeSet::new();
        let projected: String = full
            .chars()
            .map(|c| {
                if self.alphabet.allows(c) {
                    c
                } else {
                    replaced.insert(c);
                    self.replacement
                }
            })
            .collect();
        if !replaced.is_empty() {
            self.check_replacement()?;
            changes.push(NameChange::Replaced {
                characters: replaced.into_iter().collect(),
                replacement: self.replacement,
            });
        }
        let length = projected.chars().count();
        let exposed = if length > self.max_len {
            changes.push(NameChange::Truncated {
                length,
                max_len: self.max_len,
            });
            changes.push(NameChange::HashSuffix {
                suffix: self.suffix(tool),
                collided_with: None,
            });
            self.hashed(tool, &projected)?
        } else {
            projected
        };
        Ok(ProjectedName {
            tool: tool.clone(),
            exposed,
            changes,
        })
    }

    /// [`NameError::NotInAlphabet`] unless the alphabet has `replacement`.
    fn check_replacement(&self) -> Result<(), NameError> {
        if self.alphabet.allows(self.replacement) {
            Ok(())
        } else {
            Err(NameError::NotInAlphabet {
                what: "replacement",
                character: self.replacement,
            })
        }
    }

    /// `base` cut to leave room for the suffix, then the suffix.
    fn hashed(&self, tool: &ToolRef, base: &str) -> Result<String, NameError> {
        self.check_replacement()?;
        let keep = self
            .max_len
            .checked_sub(HASH_SUFFIX_CHARS)
            .filter(|&keep| keep > 0)
            .ok_or(NameError::MaxLenTooShort {
                tool: tool.clone(),
                max_len: self.max_len,
                needed: HASH_SUFFIX_CHARS + 1,
            })?;
        if let Some(character) = "0123456789abcdef"
            .chars()
            .find(|&c| !self.alphabet.allows(c))
        {
            return Err(NameError::NotInAlphabet {
                what: "hash suffix",
                character,
            });
        }
        let mut out: String = base.chars().take(keep).collect();
        out.push_str(&self.suffix(tool));
        Ok(out)
    }

    /// `replacement` and the first 8 hex digits of the tool's SHA-256.
    fn suffix(&self, tool: &ToolRef) -> String {
        let mut hasher = Sha256::new();
        if let Some(namespace) = &tool.namespace {
            hasher.update(namespace.as_bytes());
            hasher.update([0]);
        }
        hasher.update(tool.name.as_bytes());
        let digest = hasher.finalize();
        let mut out = String::with_capacity(HASH_SUFFIX_CHARS);
        out.push(self.replacement);
        for byte in &digest[..4] {
            out.push_str(&format!("{byte:02x}"));
        }
        out
    }
}

/// A tool as its server names it: an optional namespace (the gateway's name for the server)
/// and the tool's own name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ToolRef {
    /// The namespace, such as a server name; `None`: the tool has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The tool's name as its server lists it.
    pub name: String,
}

impl ToolRef {
    /// The tool `name` in `namespace`.
    #[must_use]
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            namespace: Some(namespace.into()),
            name: name.into(),
        }
    }

    /// The tool `name`, without a namespace.
    #[must_use]
    pub fn bare(name: impl Into<String>) -> Self {
        Self {
            namespace: None,
            name: name.into(),
        }
    }

    /// `namespace` + `separator` + `name`, or `name`.
    #[must_use]
    pub fn full_name(&self, separator: &str) -> String {
        match &self.namespace {
            Some(namespace) => format!("{namespace}{separator}{}", self.name),
            None => self.name.clone(),
        }
    }
}

impl fmt::Display for ToolRef {
    /// `` `name` `` or `` `name` in namespace `ns` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(namespace) => write!(f, "`{}` in namespace `{namespace}`", self.name),
            None => write!(f, "`{}`", self.name),
        }
    }
}

/// Why a projected name differs from the tool's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NameChange {
    /// The namespace and the separator were put before the name.
    Prefixed {
        /// The namespace.
        namespace: String,
    },
    /// Characters outside the alphabet were replaced.
    Replaced {
        /// Each character replaced, once, in code-point order.
        characters: Vec<char>,
        /// What replaced them.
        replacement: char,
    },
    /// The name was cut before its hash suffix: it was longer than `max_len`, or a collision
    /// gave it the suffix and the name and the suffix are longer than `max_len` together.
    Truncated {
        /// Its length before the cut (after prefixing and replacing), in characters: more than
        /// `max_len`, or at most `max_len` when a collision's suffix made the cut.
        length: usize,
        /// The projection's `max_len`.
        max_len: usize,
    },
    /// The hash suffix was appended: after truncation, or because the name collided.
    HashSuffix {
        /// The suffix.
        suffix: String,
        /// The tool the name collided with: the one that kept the name (the one intact name, or
        /// a name suffixed in an earlier round), else the least of the others in [`ToolRef`]'s
        /// order (namespace, then name); the same whatever the order of the tool list. `None`
        /// after truncation.
        collided_with: Option<ToolRef>,
    },
}

impl fmt::Display for NameChange {
    /// One of:
    /// - ``prefixed with namespace `github` ``
    /// - ``replaced `.`, `/` with `_` ``
    /// - `truncated from 70 to 64 characters` (a name longer than `max_len`)
    /// - `truncated from 61 characters to fit the hash suffix within 64` (a name a
    ///   collision's suffix makes too long)
    /// - ``hash suffix `_3c9423c9`: collides with `search_issues` in namespace `github` ``
    /// - ``hash suffix `_3c9423c9`: truncated``
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Prefixed { namespace } => write!(f, "prefixed with namespace `{namespace}`"),
            Self::Replaced {
                characters,
                replacement,
            } => {
                f.write_str("replaced ")?;
                for (index, c) in characters.iter().enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{}`", c.escape_debug())?;
                }
                write!(f, " with `{replacement}`")
            }
            Self::Truncated { length, max_len } if length > max_len => {
                write!(f, "truncated from {length} to {max_len} characters")
            }
            Self::Truncated { length, max_len } => write!(
                f,
                "truncated from {length} characters to fit the hash suffix within {max_len}"
            ),
            Self::HashSuffix {
                suffix,
                collided_with: Some(other),
            } => write!(f, "hash suffix `{suffix}`: collides with {other}"),
            Self::HashSuffix {
                suffix,
                collided_with: None,
            } => write!(f, "hash suffix `{suffix}`: truncated"),
        }
    }
}

/// One tool's projected name and why it differs from the tool's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedName {
    /// The tool.
    pub tool: ToolRef,
    /// Its projected name.
    pub exposed: String,
    /// Every change, in the order applied; empty when `exposed` is the tool's name.
    pub changes: Vec<NameChange>,
}

impl ProjectedName {
    fn is_changed(&self) -> bool {
        !self.changes.is_empty()
    }

    /// Whether the name is the tool's (prefixed at most): nothing replaced or truncated.
    fn is_intact(&self) -> bool {
        self.changes
            .iter()
            .all(|change| matches!(change, NameChange::Prefixed { .. }))
    }

    fn is_hashed(&self) -> bool {
        self.changes
            .iter()
            .any(|change| matches!(change, NameChange::HashSuffix { .. }))
    }
}

/// The projected names of a tool list, both ways: built by [`NameProjection::project`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameMap {
    entries: Vec<ProjectedName>,
    by_exposed: BTreeMap<String, usize>,
    by_tool: BTreeMap<ToolRef, usize>,
}

impl NameMap {
    /// Every tool's projection, in the order of the tool list.
    #[must_use]
    pub fn entries(&self) -> &[ProjectedName] {
        &self.entries
    }

    /// The projected name of the tool `name` in `namespace`.
    #[must_use]
    pub fn exposed(&self, namespace: Option<&str>, name: &str) -> Option<&str> {
        let tool = ToolRef {
            namespace: namespace.map(str::to_owned),
            name: name.to_owned(),
        };
        self.by_tool
            .get(&tool)
            .map(|&index| self.entries[index].exposed.as_str())
    }

    /// The tool whose projected name is `exposed` (the reverse of [`NameMap::exposed`]).
    #[must_use]
    pub fn resolve(&self, exposed: &str) -> Option<&ToolRef> {
        self.by_exposed
            .get(exposed)
            .map(|&index| &self.entries[index].tool)
    }

    /// The projections that changed a name.
    pub fn changed(&self) -> impl Iterator<Item = &ProjectedName> {
        self.entries.iter().filter(|entry| entry.is_changed())
    }
}

/// Why a tool list could not be projected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// `max_len` is 0.
    #[error("`max_len` must be at least 1")]
    MaxLenZero,
    /// A character the projection writes is not in its alphabet.
    #[error("the {what} `{character}` is not in the target alphabet")]
    NotInAlphabet {
        /// `replacement`, `separator` or `hash suffix`.
        what: &'static str,
        /// The character.
        character: char,
    },
    /// A tool has an empty name.
    #[error("tool {tool} has an empty name")]
    EmptyName {
        /// The tool.
        tool: ToolRef,
    },
    /// A tool has an empty namespace (`None` is a tool without one).
    #[error("tool {tool} has an empty namespace")]
    EmptyNamespace {
        /// The tool.
        tool: ToolRef,
    },
    /// A tool is listed twice.
    #[error("tool {tool} is listed twice, at `{first}` and `{second}`")]
    DuplicateTool {
        /// The tool.
        tool: ToolRef,
        /// Its first index in the list.
        first: usize,
        /// Its second index.
        second: usize,
    },
    /// A name needs the hash suffix and `max_len` leaves no room before it.
    #[error("tool {tool} needs a hash suffix, which takes `max_len` of at least `{needed}`, not `{max_len}`")]
    MaxLenTooShort {
        /// The tool.
        tool: ToolRef,
        /// The projection's `max_len`.
        max_len: usize,
        /// The least `max_len` that leaves room.
        needed: usize,
    },
    /// Two tools get the same projected name, hash suffixes included.
    #[error("tools {first} and {second} both project to `{exposed}`")]
    Collision {
        /// The first tool, in list order.
        first: ToolRef,
        /// The second.
        second: ToolRef,
        /// The name both get.
        exposed: String,
    },
}
