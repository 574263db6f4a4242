//! The run-time checks of a model: the schema document they validate against, as its author
//! wrote it, each check proven to compile with the `jsonschema` crate when generating, with
//! every remote document its `$ref`s reach (served from the folders the user names, never
//! fetched) embedded beside it.

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use toolcall_schema::refs::{decode_path, path_segment};
use toolcall_schema::text::minify;

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
    /// The folder the file is in (`None` for a schema given as text): a document without `$id`
    /// finds the files its relative `$ref`s name (`other.json`, `../common/x.json`) there.
    pub folder: Option<PathBuf>,
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
    /// `(URI, text)` of every remote document its checks reach, by URI.
    pub remotes: Vec<(String, String)>,
    /// The reference each check validates against, by its pointer: the schema resource the
    /// part is in (the innermost `$id` around it) and the pointer from there.
    pub targets: std::collections::BTreeMap<String, String>,
    /// `format` asserted.
    pub assert_formats: bool,
}

/// The folder that serves the files the relative `$ref`s of a document without `$id` name.
struct OwnFolder {
    /// The common ancestor of the document's folder and every file reached.
    dir: PathBuf,
    /// The URI of each file reached, and the pointer of the document's `$ref` it was first
    /// reached through (directly, or through the files between).
    origins: std::collections::BTreeMap<String, String>,
}

/// The base URI of `source`'s document, and the folder that serves the files its relative
/// `$ref`s name when it has no `$id` of its own.
///
/// Such a document is `json-schema:///<file name>`, or `json-schema:///<folders>/<file name>`
/// when the files its relative `$ref`s reach (followed from file to file) lie in folders above
/// its own: the URI keeps the folders between their common ancestor and the file, so that
/// `../common/x.json` resolves to the right file without an absolute path in the module.
fn base(source: &Source, draft: Draft) -> (String, Option<OwnFolder>) {
    let key = if draft == Draft::Draft4 { "id" } else { "$id" };
    let id = source.document.get(key).and_then(Value::as_str);
    // A relative `$id` that is a bare file name (`har.json#`) names the file in its folder.
    let file_name = match id.map(|id| id.trim_end_matches('#')) {
        Some(id) if !id.is_empty() && !id.contains([':', '/', '#']) => id,
        _ => source.file_name.as_str(),
    };
    match id {
        Some(id) if id.contains(':') => (id.trim_end_matches('#').to_owned(), None),
        Some(id) if !id.starts_with('#') && file_name != id.trim_end_matches('#') => {
            (format!("json-schema:///{id}"), None)
        }
        _ => match &source.folder {
            None => (format!("json-schema:///{}", path_segment(file_name)), None),
            Some(folder) => {
                let folder = lexical(folder);
                let (dir, reached) = reached_files(&folder, &source.document, key);
                let uri = |file: &Path| {
                    let parts: Vec<_> = file
                        .strip_prefix(&dir)
                        .unwrap_or(file)
                        .iter()
                        .map(|part| path_segment(&part.to_string_lossy()))
                        .collect();
                    format!("{LOCAL}{}", parts.join("/"))
                };
                let origins = reached
                    .into_iter()
                    .map(|(file, at)| (uri(&file), at))
                    .collect();
                let base = uri(&folder.join(file_name));
                (base, Some(OwnFolder { dir, origins }))
            }
        },
    }
}

/// The files the relative `$ref`s of `source`'s document reach when it has no `$id` (followed
/// from file to file), for a build script to watch.
#[must_use]
pub fn local_files(source: &Source) -> Vec<PathBuf> {
    let draft = Draft::of(&source.document);
    let key = if draft == Draft::Draft4 { "id" } else { "$id" };
    let own = source
        .document
        .get(key)
        .and_then(Value::as_str)
        .is_none_or(|id| !id.contains([':', '/']));
    match &source.folder {
        Some(folder) if own => reached_files(&lexical(folder), &source.document, key)
            .1
            .into_iter()
            .map(|(file, _)| file)
            .collect(),
        _ => Vec::new(),
    }
}

/// The URI root of a document without `$id`, and of the files its relative `$ref`s name.
const LOCAL: &str = "json-schema:///";

/// `path` with `.` and `..` taken away where they can be (`a/./b/../c` is `a/c`; a leading
/// `..` stays).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The deepest folder holding `folder` and every file reached from `document` (a schema in
/// `folder`) by relative `$ref`s, followed into each file that exists and has no `$id` of its
/// own (a file that is missing is named later, when it is served); and each file reached, with
/// the pointer of the `$ref` of `document` it was first reached through.
fn reached_files(
    folder: &Path,
    document: &Value,
    id_key: &str,
) -> (PathBuf, Vec<(PathBuf, String)>) {
    let mut ancestor = folder.to_owned();
    let mut reached: Vec<(PathBuf, String)> = Vec::new();
    let mut pending = vec![(folder.to_owned(), document.clone(), None::<String>)];
    while let Some((dir, doc, origin)) = pending.pop() {
        let mut refs = Vec::new();
        relative_refs(&doc, "", &mut refs);
        for (at, reference) in refs {
            // Every folder the path passes through counts: the URI of a `$ref` that climbs
            // above its base's root would lose its `..`s.
            let mut file = dir.clone();
            let reference = decode_path(&reference).unwrap_or(reference);
            for part in Path::new(&reference).components() {
                match part {
                    Component::ParentDir => {
                        file.pop();
                        while !file.starts_with(&ancestor) && ancestor.pop() {}
                    }
                    Component::Normal(name) => file.push(name),
                    _ => {}
                }
            }
            if reached.iter().any(|(seen, _)| *seen == file) {
                continue;
            }
            let origin = origin.clone().unwrap_or(at);
            reached.push((file.clone(), origin.clone()));
            let Some(next) = std::fs::read_to_string(&file)
                .ok()
                .and_then(|text| serde_json::from_str::<Value>(&text).ok())
                .filter(|next| {
                    next.get(id_key)
                        .and_then(Value::as_str)
                        .is_none_or(|id| !id.contains([':', '/']))
                })
            else {
                continue;
            };
            let next_dir = file.parent().map_or_else(PathBuf::new, Path::to_owned);
            pending.push((next_dir, next, Some(origin)));
        }
    }
    (ancestor, reached)
}

/// The file a schema document stands for when it is nothing but a `$ref` to another file (its
/// other members annotations): the file part of that `$ref`.
fn only_a_file_ref(document: &Value) -> Option<String> {
    const ANNOTATIONS: &[&str] = &[
        "$ref",
        "$schema",
        "$id",
        "id",
        "$comment",
        "$defs",
        "definitions",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    ];
    let map = document.as_object()?;
    if !map.keys().all(|key| ANNOTATIONS.contains(&key.as_str())) {
        return None;
    }
    let reference = map.get("$ref")?.as_str()?;
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    (!file.is_empty() && fragment.is_empty() && !file.contains(':') && !file.starts_with('/'))
        .then(|| decode_path(file).unwrap_or_else(|| file.to_owned()))
}

/// A cycle of files, from the schema at `file` (its `document`) or a file its relative `$ref`s
/// reach, each nothing but a `$ref` to the next: a schema that never reaches a value (the
/// `jsonschema` crate would accept every instance). The files in order, the first again last.
fn file_ref_cycle(file: &Path, document: &Value) -> Option<Vec<PathBuf>> {
    let folder = file.parent().map_or_else(PathBuf::new, Path::to_owned);
    let id_key = if Draft::of(document) == Draft::Draft4 {
        "id"
    } else {
        "$id"
    };
    let read = |path: &Path| -> Option<Value> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    };
    let mut starts = vec![file.to_owned()];
    starts.extend(
        reached_files(&folder, document, id_key)
            .1
            .into_iter()
            .map(|(f, _)| f),
    );
    for start in starts {
        let mut chain = vec![start.clone()];
        let mut at = start;
        loop {
            let value = if at == file {
                Some(document.clone())
            } else {
                read(&at)
            };
            let Some(next) = value.as_ref().and_then(only_a_file_ref) else {
                break;
            };
            let next = lexical(
                &at.parent()
                    .map_or_else(PathBuf::new, Path::to_owned)
                    .join(next),
            );
            if let Some(first) = chain.iter().position(|seen| *seen == next) {
                let mut cycle = chain.split_off(first);
                cycle.push(next);
                return Some(cycle);
            }
            chain.push(next.clone());
            at = next;
        }
    }
    None
}

/// The pointer (`at` and below) and file part of every `$ref` under `value` that names another
/// file by a relative path (`other.json#/x`, `../a/b.json`: no scheme, not a fragment, not an
/// absolute path).
fn relative_refs(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let file = reference.split(['#', '?']).next().unwrap_or("");
                let scheme = file
                    .split_once(':')
                    .is_some_and(|(scheme, _)| !scheme.contains('/'));
                if !file.is_empty() && !scheme && !file.starts_with('/') {
                    out.push((pointer::join(at, "$ref"), file.to_owned()));
                }
            }
            for (key, sub) in map {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    relative_refs(sub, &pointer::join(at, key), out);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, sub)| relative_refs(sub, &pointer::join(at, &i.to_string()), out)),
        _ => {}
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

/// `path` relative to the current folder when it is under it (errors name the files as the
/// user wrote them, and read the same on every machine).
fn shown(path: &Path) -> &Path {
    std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok())
        .unwrap_or(path)
}

/// Serves the document and the files under the folders the user named; records what it
/// served, and why it could not serve a file (the `jsonschema` crate's error for a
/// `json-schema:///` URI says only "No base URI is available").
struct Local {
    base: String,
    text: String,
    ref_dirs: Vec<(String, PathBuf)>,
    served: Arc<Mutex<Vec<(String, String)>>>,
    unserved: Arc<Mutex<Option<(String, String)>>>,
}

impl Local {
    fn file(&self, uri: &str) -> Result<(PathBuf, String), String> {
        for (prefix, dir) in &self.ref_dirs {
            let Some(rest) = uri.strip_prefix(prefix.as_str()) else {
                continue;
            };
            // A URI's path names a file percent-decoded (`my%20schema.json`).
            let rest = decode_path(rest).unwrap_or_else(|| rest.to_owned());
            if rest.split('/').any(|segment| segment == "..") {
                return Err(format!("`{uri}` leaves the folder `{}`", dir.display()));
            }
            let path = dir.join(&rest);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("`{uri}` is served from `{}`: {e}", shown(&path).display()))?;
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
        let read = self.file(wanted).and_then(|(path, text)| {
            serde_json::from_str::<Value>(&text)
                .map(|value| (value, text))
                .map_err(|e| crate::load::not_json(shown(&path), e).to_string())
        });
        let (value, text) = match read {
            Ok(read) => read,
            Err(why) => {
                if let Ok(mut unserved) = self.unserved.lock() {
                    unserved.get_or_insert_with(|| (wanted.to_owned(), why.clone()));
                }
                return Err(why.into());
            }
        };
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
    let (base, own_folder) = base(source, draft);
    let origins = own_folder
        .as_ref()
        .map(|own| own.origins.clone())
        .unwrap_or_default();
    if let (Some(folder), Some(_)) = (&source.folder, &own_folder) {
        if let Some(cycle) =
            file_ref_cycle(&lexical(folder).join(&source.file_name), &source.document)
        {
            let shown: Vec<String> = cycle
                .iter()
                .map(|file| format!("`{}`", shown(file).display()))
                .collect();
            return Err((
                String::new(),
                format!(
                    "a cycle of `$ref`s across files that never reaches a value: {}",
                    shown.join(" → ")
                ),
            ));
        }
    }
    let text = minify(&source.text);
    let served = Arc::new(Mutex::new(Vec::new()));
    let unserved = Arc::new(Mutex::new(None));
    // The folders the user named first, then the schema's own.
    let ref_dirs: Vec<(String, PathBuf)> = source
        .ref_dirs
        .iter()
        .cloned()
        .chain(own_folder.map(|own| (LOCAL.to_owned(), own.dir)))
        .collect();
    let local = || Local {
        base: base.clone(),
        text: text.clone(),
        ref_dirs: ref_dirs.clone(),
        served: Arc::clone(&served),
        unserved: Arc::clone(&unserved),
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
            unserved_ref(&source.document, "", &base, &local()).unwrap_or_else(|| {
                match unserved.lock().ok().and_then(|mut why| why.take()) {
                    // Named at the `$ref` of the document the file was reached through.
                    Some((uri, why)) => (
                        origins.get(&uri).cloned().unwrap_or_default(),
                        format!("a file its `$ref`s reach: {why}"),
                    ),
                    None => failed("", &e),
                }
            })
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
    // By URI: the `jsonschema` crate reaches them in no fixed order.
    let mut remotes = served.lock().map(|s| s.clone()).unwrap_or_default();
    remotes.sort();
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
