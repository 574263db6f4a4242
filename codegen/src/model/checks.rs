//! The run-time checks of a model: the schema document they validate against, as its author
//! wrote it, each check proven to compile with the `jsonschema` crate when generating, with
//! every remote document its `$ref`s reach (served from the folders the user names, never
//! fetched) embedded beside it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::pointer;

/// The JSON Schema dialect of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    /// Draft-04 (`id`, boolean `exclusiveMinimum`).
    Draft4,
    /// Draft-06.
    Draft6,
    /// Draft-07.
    Draft7,
    /// Draft 2019-09.
    Draft201909,
    /// Draft 2020-12 (also a document without `$schema`).
    Draft202012,
}

impl Draft {
    /// The dialect `document` declares with `$schema` (2020-12 when it declares none, or one
    /// this pipeline does not know).
    #[must_use]
    pub fn of(document: &Value) -> Self {
        let declared = document
            .get("$schema")
            .and_then(Value::as_str)
            .unwrap_or("");
        if declared.contains("draft-04") {
            Self::Draft4
        } else if declared.contains("draft-06") {
            Self::Draft6
        } else if declared.contains("draft-07") {
            Self::Draft7
        } else if declared.contains("2019-09") {
            Self::Draft201909
        } else {
            Self::Draft202012
        }
    }

    fn referencing(self) -> jsonschema::Draft {
        match self {
            Self::Draft4 => jsonschema::Draft::Draft4,
            Self::Draft6 => jsonschema::Draft::Draft6,
            Self::Draft7 => jsonschema::Draft::Draft7,
            Self::Draft201909 => jsonschema::Draft::Draft201909,
            Self::Draft202012 => jsonschema::Draft::Draft202012,
        }
    }

    fn options(self) -> jsonschema::ValidationOptions<'static> {
        match self {
            Self::Draft4 => jsonschema::draft4::options(),
            Self::Draft6 => jsonschema::draft6::options(),
            Self::Draft7 => jsonschema::draft7::options(),
            Self::Draft201909 => jsonschema::draft201909::options(),
            Self::Draft202012 => jsonschema::draft202012::options(),
        }
    }
}

/// What the checks of one schema file need.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file's document, parsed.
    pub document: Value,
    /// The file's text.
    pub text: String,
    /// The file's name (the base URI of a document without `$id`).
    pub file_name: String,
    /// Remote `$ref`s served from local folders: `(URI prefix, folder)`.
    pub ref_dirs: Vec<(String, PathBuf)>,
    /// `format` asserted rather than an annotation.
    pub assert_formats: bool,
}

/// The schema document of a generated module's checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The document's base URI: its `$id`, else `json-schema:///<file name>`.
    pub base: String,
    /// Its dialect.
    pub draft: Draft,
    /// Its text, without whitespace between tokens.
    pub text: String,
    /// `(URI, text)` of every remote document its checks reach, in the order first reached.
    pub remotes: Vec<(String, String)>,
    /// The reference each check validates against, by its pointer: the schema resource the
    /// part is in (the innermost `$id` around it) and the pointer from there.
    pub targets: std::collections::BTreeMap<String, String>,
    /// `format` asserted.
    pub assert_formats: bool,
}

/// The JSON text `text` without whitespace between tokens (strings and numbers as written).
#[must_use]
pub fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The base URI of `source`'s document.
fn base(source: &Source, draft: Draft) -> String {
    let key = if draft == Draft::Draft4 { "id" } else { "$id" };
    match source.document.get(key).and_then(Value::as_str) {
        Some(id) if id.contains(':') => id.trim_end_matches('#').to_owned(),
        Some(id) if !id.starts_with('#') => format!("json-schema:///{id}"),
        _ => format!("json-schema:///{}", source.file_name),
    }
}

/// The reference to the part of `document` at `at`: the schema resource it is in (the
/// innermost `$id` on the way, resolved against the ones around it) and the pointer from
/// there, as a URI fragment.
fn target(document: &Value, base: &str, at: &str, draft: Draft) -> String {
    let id_key = if draft == Draft::Draft4 { "id" } else { "$id" };
    let mut node = document;
    let mut resource = base.to_owned();
    let mut relative = String::new();
    for token in pointer::tokens(at) {
        let next = match node {
            Value::Object(map) => map.get(token.as_ref()),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        let Some(next) = next else { break };
        node = next;
        pointer::push(&mut relative, &token);
        let id = node
            .get(id_key)
            .and_then(Value::as_str)
            .filter(|id| !id.starts_with('#'));
        if let Some(id) = id {
            let resolved = jsonschema::uri::from_str(&resource)
                .ok()
                .and_then(|base| jsonschema::uri::resolve_against(&base.borrow(), id).ok());
            if let Some(resolved) = resolved {
                let text = resolved.as_str();
                resource = text.split('#').next().unwrap_or(text).to_owned();
                relative.clear();
            }
        }
    }
    format!("{resource}#{}", fragment(&relative))
}

/// A pointer as a URI fragment.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Serves the document and the files under the folders the user named; records what it
/// served.
struct Local {
    base: String,
    text: String,
    ref_dirs: Vec<(String, PathBuf)>,
    served: Arc<Mutex<Vec<(String, String)>>>,
}

impl Local {
    fn file(&self, uri: &str) -> Result<(PathBuf, String), String> {
        for (prefix, dir) in &self.ref_dirs {
            let Some(rest) = uri.strip_prefix(prefix.as_str()) else {
                continue;
            };
            if rest.split('/').any(|segment| segment == "..") {
                return Err(format!("`{uri}` leaves the folder `{}`", dir.display()));
            }
            let path = dir.join(rest);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("`{uri}` is served from `{}`: {e}", path.display()))?;
            return Ok((path, text));
        }
        Err(format!(
            "remote `$ref` to `{uri}`, which no `--ref-dir` serves (nothing is fetched from the network)"
        ))
    }
}

impl jsonschema::Retrieve for Local {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let wanted = uri.as_str().trim_end_matches('#');
        if wanted == self.base {
            return Ok(serde_json::from_str(&self.text)?);
        }
        let (path, text) = self.file(wanted)?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| format!("`{}` is not JSON: {e}", path.display()))?;
        let mut served = self.served.lock().map_err(|e| e.to_string())?;
        if !served.iter().any(|(u, _)| u == wanted) {
            served.push((wanted.to_owned(), minify(&text)));
        }
        Ok(value)
    }
}

/// The document of checks at `pointers` (RFC 6901, into `source`'s document), each proven to
/// compile.
///
/// # Errors
/// `(pointer, message)` of the first check the `jsonschema` crate cannot compile.
pub fn document(source: &Source, pointers: &[&str]) -> Result<Document, (String, String)> {
    let draft = Draft::of(&source.document);
    let base = base(source, draft);
    let text = minify(&source.text);
    let served = Arc::new(Mutex::new(Vec::new()));
    let local = || Local {
        base: base.clone(),
        text: text.clone(),
        ref_dirs: source.ref_dirs.clone(),
        served: Arc::clone(&served),
    };
    let failed = |at: &str, e: &dyn std::fmt::Display| {
        (
            at.to_owned(),
            format!("the `jsonschema` crate cannot compile it: {e}"),
        )
    };
    // The document's schema resources (it and every `$id` inside it) known by their URIs.
    let registry = jsonschema::Registry::new()
        .retriever(local())
        .draft(draft.referencing())
        .add(&base, &source.document)
        .and_then(jsonschema::RegistryBuilder::prepare)
        .map_err(|e| {
            unserved_ref(&source.document, "", &base, &local()).unwrap_or_else(|| failed("", &e))
        })?;
    let mut targets = std::collections::BTreeMap::new();
    for at in pointers {
        let options = draft
            .options()
            .with_retriever(local())
            .should_validate_formats(source.assert_formats);
        let built = if at.is_empty() {
            options.with_base_uri(base.clone()).build(&source.document)
        } else {
            let reference = target(&source.document, &base, at, draft);
            let wrapper = serde_json::json!({ "$ref": reference });
            targets.insert((*at).to_owned(), reference);
            options.with_registry(&registry).build(&wrapper)
        };
        built.map_err(|e| failed(at, &e))?;
    }
    let remotes = served.lock().map(|s| s.clone()).unwrap_or_default();
    Ok(Document {
        base,
        draft,
        text,
        remotes,
        targets,
        assert_formats: source.assert_formats,
    })
}

/// The first remote `$ref` under `value` (at `at`) that `local` cannot serve: its pointer and
/// why, to name where a document that does not compile refers to what is not there. A `$ref`
/// is resolved against `base` only (this runs once compiling has failed, to name the place).
fn unserved_ref(value: &Value, at: &str, base: &str, local: &Local) -> Option<(String, String)> {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let resolved = jsonschema::uri::from_str(base)
                    .ok()
                    .and_then(|b| jsonschema::uri::resolve_against(&b.borrow(), reference).ok())
                    .map(|uri| uri.as_str().to_owned());
                if let Some(resolved) = resolved {
                    let document = resolved.split('#').next().unwrap_or(&resolved);
                    if document != base {
                        if let Err(why) = local.file(document) {
                            return Some((pointer::join(at, "$ref"), why));
                        }
                    }
                }
            }
            map.iter()
                .filter(|(key, _)| {
                    !matches!(key.as_str(), "enum" | "const" | "default" | "examples")
                })
                .find_map(|(key, sub)| unserved_ref(sub, &pointer::join(at, key), base, local))
        }
        Value::Array(items) => items.iter().enumerate().find_map(|(i, sub)| {
            unserved_ref(sub, &pointer::join(at, &i.to_string()), base, local)
        }),
        _ => None,
    }
}

/// The pointer in the document as written of `at`, a pointer into the normalized document
/// (2020-12 spellings: `$defs`, `prefixItems`, `dependentRequired`...); `None` when it names
/// nothing there.
#[must_use]
pub fn original_pointer(document: &Value, at: &str) -> Option<String> {
    let mut node = document;
    let mut out = String::new();
    for token in pointer::tokens(at) {
        let token = token.as_ref();
        let (step, next) = match node {
            Value::Object(map) => {
                let items_array = map.get("items").is_some_and(Value::is_array);
                let renamed = match token {
                    "items" if items_array => "additionalItems",
                    _ if map.contains_key(token) => token,
                    "$defs" if map.contains_key("definitions") => "definitions",
                    "prefixItems" if items_array => "items",
                    "dependentRequired" | "dependentSchemas"
                        if map.contains_key("dependencies") =>
                    {
                        "dependencies"
                    }
                    _ => return None,
                };
                (renamed.to_owned(), map.get(renamed)?)
            }
            Value::Array(items) => {
                let index: usize = token.parse().ok()?;
                (token.to_owned(), items.get(index)?)
            }
            _ => return None,
        };
        pointer::push(&mut out, &step);
        node = next;
    }
    Some(out)
}
