//! Doc comments: the schema's description, then one short line on presence and leniency.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Field, Leniency, Presence, Ty};

/// A bare `http(s)://` URL becomes an autolink (`<https://...>`), as rustdoc wants it; URLs
/// already in a Markdown link or autolink, or in code, are left alone.
fn autolink(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut rest = line;
    while let Some(start) = rest.find(['`', 'h']) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        if let Some(after) = from.strip_prefix('`') {
            in_code = !in_code;
            out.push('`');
            rest = after;
            continue;
        }
        let is_url = from.starts_with("https://") || from.starts_with("http://");
        let previous = out.chars().last();
        if is_url && !in_code && !matches!(previous, Some('(' | '<' | '[')) {
            let end = from
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .unwrap_or(from.len());
            let url = from[..end].trim_end_matches(['.', ',', ';', ':']);
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &from[url.len()..];
        } else {
            out.push_str(&from[..1]);
            rest = &from[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `line` with its control characters (a carriage return, a tab...) written as escapes: a doc
/// comment cannot hold a bare carriage return.
fn visible(line: &str) -> std::borrow::Cow<'_, str> {
    if line.chars().any(char::is_control) {
        std::borrow::Cow::Owned(
            line.chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        )
    } else {
        std::borrow::Cow::Borrowed(line)
    }
}

/// `line` with a code fence that opens a block rustdoc would compile as a doctest (no language,
/// or `rust`) marked `text`: a schema's example is not Rust, and must not fail the user's
/// `cargo test`. `open` tracks whether a fence is open.
fn fence(line: &str, open: &mut bool) -> String {
    let trimmed = line.trim_start();
    let Some(info) = trimmed.strip_prefix("```") else {
        return line.to_owned();
    };
    let was_open = std::mem::replace(open, !*open);
    let indent = &line[..line.len() - trimmed.len()];
    match info.trim() {
        "" | "rust" if !was_open => format!("{indent}```text"),
        _ => line.to_owned(),
    }
}

/// Whether `line` is indented as a Markdown indented code block's line (four spaces or a tab).
fn indented(line: &str) -> bool {
    line.starts_with("    ") || line.starts_with('\t')
}

/// The lines of `text` with every code block rustdoc would compile as a doctest made a `text`
/// block: fences without a language or with `rust` ([`fence`]), and indented code blocks (a
/// run of lines indented four spaces after a blank line, outside a list), which get fences of
/// their own.
fn code_blocks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let (mut open, mut in_block, mut in_list) = (false, false, false);
    let mut previous_blank = true;
    for line in text.lines() {
        let blank = line.trim().is_empty();
        if in_block && !blank && !indented(line) {
            // The block ends before its trailing blank lines.
            let trailing = out.iter().rev().take_while(|l| l.trim().is_empty()).count();
            out.insert(out.len() - trailing, "```".to_owned());
            in_block = false;
        }
        if !open && !in_block && !blank && !indented(line) {
            let item = line.trim_start();
            in_list = item.starts_with("- ")
                || item.starts_with("* ")
                || item.starts_with("+ ")
                || item
                    .split_once(". ")
                    .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        }
        if !open && !in_block && !in_list && previous_blank && indented(line) && !blank {
            out.push("```text".to_owned());
            in_block = true;
        }
        if in_block {
            out.push(line.to_owned());
        } else {
            out.push(fence(line, &mut open));
        }
        previous_blank = blank;
    }
    if in_block {
        let trailing = out.iter().rev().take_while(|l| l.trim().is_empty()).count();
        out.insert(out.len() - trailing, "```".to_owned());
    }
    out
}

/// The attributes rustdoc reads in a code block's info string (`rust`, `no_run`,
/// `edition2021`...): a block whose info holds only these, or `rust`, is compiled as a doctest.
const RUSTDOC_ATTRIBUTES: &[&str] = &[
    "rust",
    "no_run",
    "should_panic",
    "compile_fail",
    "test_harness",
    "standalone_crate",
    "allow_fail",
];

/// Whether rustdoc would compile a code block with this info string as a doctest (`ignore`
/// blocks are compiled by none).
fn rustdoc_runs(info: &str) -> bool {
    let tokens: Vec<&str> = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .collect();
    let known = |token: &&str| {
        RUSTDOC_ATTRIBUTES.contains(token)
            || token.starts_with("edition")
            || token.starts_with("ignore-")
            || token.starts_with("only-")
    };
    !tokens.contains(&"ignore") && (tokens.contains(&"rust") || tokens.iter().all(known))
}

/// Whether Markdown `text` holds a code block rustdoc would compile as a doctest, as
/// `pulldown-cmark` (rustdoc's own parser) reads it: indented blocks anywhere (in a list, a
/// block quote...) and fences of any kind (`~~~`, four backticks) with a Rust info string.
fn has_doctest(text: &str) -> bool {
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
    Parser::new(text).any(|event| match event {
        Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => true,
        Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => rustdoc_runs(&info),
        _ => false,
    })
}

/// The lines of a description for its doc comment: its code blocks made `text` ([`code_blocks`]);
/// when some shape of Markdown still gives rustdoc a doctest, the whole text in one `text`
/// fence, longer than any run of backticks in it (a schema's prose is never the user's test).
fn doc_lines(text: &str) -> Vec<String> {
    let lines = code_blocks(text);
    if !has_doctest(&lines.join("\n")) {
        return lines;
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    std::iter::once(format!("{fence}text"))
        .chain(text.lines().map(str::to_owned))
        .chain(std::iter::once(fence))
        .collect()
}

/// `#[doc = ...]` attributes for `text`, one per line (an empty text gives none).
pub fn doc(text: &str) -> TokenStream {
    let lines = doc_lines(text).into_iter().map(|line| {
        let line = autolink(&visible(&line));
        let line = if line.is_empty() {
            line
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// The schema's description (when it has one), a blank line, then `note`.
pub fn with_note(description: Option<&str>, note: &str) -> TokenStream {
    let text = match description.map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) if note.is_empty() => d.to_owned(),
        Some(d) => format!("{d}\n\n{note}"),
        None => note.to_owned(),
    };
    doc(&text)
}

/// The line on a member: its wire name, whether it may be absent or `null`, its leniency.
pub fn member_note(wire: &str, field: &Field) -> String {
    let any = matches!(field.ty.unbounded(), Ty::Value);
    let presence = match field.presence {
        Presence::Required if any => "required, any JSON value (`null` included)".to_owned(),
        Presence::Required => "required".to_owned(),
        Presence::RequiredNullable => "required, `null` is `None`".to_owned(),
        Presence::Optional if any => "optional: absent is `None` (a `null` is a value)".to_owned(),
        Presence::Optional => "optional: absent is `None`".to_owned(),
        Presence::OptionalNullable => "optional, may be `null` (`MaybeUndefined`)".to_owned(),
    };
    let mut note = format!("`{wire}`: {presence}");
    let Leniency {
        default_on_error,
        default_on_null,
        skip_invalid_items,
        null_as_absent,
    } = field.leniency;
    let mut lenient = Vec::new();
    if default_on_error {
        lenient.push("a malformed value decodes as absent");
    }
    if default_on_null || (null_as_absent && !any) {
        lenient.push("a `null` decodes as absent");
    }
    if skip_invalid_items {
        lenient.push("an invalid item is skipped");
    }
    if !lenient.is_empty() {
        note.push_str("; ");
        note.push_str(&lenient.join(", "));
        note.push_str(" (reported)");
    }
    note.push('.');
    note
}

#[cfg(test)]
mod tests {
    use super::{autolink, code_blocks, doc_lines, fence, has_doctest};

    #[test]
    fn no_shape_of_markdown_gives_rustdoc_a_doctest() {
        for text in [
            "Example:\n\n~~~\nassert!(false);\n~~~\n",
            "````\nassert!(false);\n````",
            "```no_run\nassert!(false);\n```",
            "```rust,no_run\nassert!(false);\n```",
            "Quote:\n\n>     assert!(false);\n",
            "- item\n\n      assert!(false);\n",
            "# Heading\n    assert!(false);",
            "Example:\n\n    assert!(false);\n\nthen ```` and ``` in prose",
        ] {
            assert!(has_doctest(text), "the case must be one: {text:?}");
            let lines = doc_lines(text);
            assert!(!has_doctest(&lines.join("\n")), "{text:?} gives {lines:?}");
            // Nothing of the text is lost.
            for line in text.lines() {
                assert!(
                    lines.iter().any(|l| l == line || l.ends_with(line.trim())),
                    "{line:?}"
                );
            }
        }
        // What is not Rust stays as written.
        for text in ["```json\n{}\n```", "```ignore\nx\n```", "plain prose"] {
            assert_eq!(
                doc_lines(text),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn indented_code_blocks_are_text_and_list_items_stay() {
        let text = "Example:\n\n    {\"a\": 1}\n\n    x\n\nAfter.\n\n- item\n\n    more of the item\n\nEnd:\n\n\tlast";
        assert_eq!(
            code_blocks(text),
            [
                "Example:",
                "",
                "```text",
                "    {\"a\": 1}",
                "",
                "    x",
                "```",
                "",
                "After.",
                "",
                "- item",
                "",
                "    more of the item",
                "",
                "End:",
                "",
                "```text",
                "\tlast",
                "```",
            ]
        );
        // Inside a fence, indentation is the fence's content.
        assert_eq!(
            code_blocks("```json\n\n    {}\n```"),
            ["```json", "", "    {}", "```"]
        );
        // A paragraph's continuation line, however indented, is not a block.
        assert_eq!(code_blocks("one\n    two"), ["one", "    two"]);
    }

    #[test]
    fn code_fences_rustdoc_would_run_are_text() {
        let mut open = false;
        let lines: Vec<String> = [
            "Example:",
            "```",
            "{\"a\": 1}",
            "```",
            "  ```rust",
            "x",
            "```",
            "```json",
            "{}",
            "```",
        ]
        .iter()
        .map(|line| fence(line, &mut open))
        .collect();
        assert_eq!(
            lines,
            [
                "Example:",
                "```text",
                "{\"a\": 1}",
                "```",
                "  ```text",
                "x",
                "```",
                "```json",
                "{}",
                "```"
            ]
        );
        assert!(!open);
    }

    #[test]
    fn bare_urls_become_autolinks_and_others_stay() {
        assert_eq!(
            autolink("as in https://www.jsonrpc.org/specification#batch."),
            "as in <https://www.jsonrpc.org/specification#batch>."
        );
        assert_eq!(
            autolink("[Docs](https://x.dev/a)"),
            "[Docs](https://x.dev/a)"
        );
        assert_eq!(autolink("see <https://x.dev>"), "see <https://x.dev>");
        assert_eq!(autolink("`curl https://x.dev`"), "`curl https://x.dev`");
        assert_eq!(autolink("hello there"), "hello there");
    }
}
