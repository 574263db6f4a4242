//! What the workspace's test binaries share: where the repository's fixtures are, and the
//! corpora of `../shared/` beside the checkout.
//!
//! A test that needs `../shared` gets it from [`shared`]: when it is absent the test prints a
//! notice and checks nothing, except under CI (the `CI` environment variable set), where its
//! absence fails the test: CI runs with `../shared` beside the checkout, so a test must never
//! pass there without checking.

use std::path::{Path, PathBuf};

/// The workspace root: `examples/`, `tests/fixtures/`, `schema/`, `peers/` are under it.
#[must_use]
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support is a folder of the workspace")
}

/// `root()/relative`.
#[must_use]
pub fn fixture(relative: &str) -> PathBuf {
    root().join(relative)
}

/// `../shared/RELATIVE` beside the checkout, or `None` after a notice naming it when it is
/// absent.
///
/// # Panics
/// When it is absent and `CI` is set.
#[must_use]
pub fn shared(relative: &str) -> Option<PathBuf> {
    let path = root().join("../shared").join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "`{}` is absent: CI runs with `../shared` beside the checkout, and this test needs it",
        path.display()
    );
    println!("notice: `{}` is absent; skipped", path.display());
    None
}

/// A scratch crate of generated modules, for the harnesses that compile many of them at once (the
/// JSON Schema Test Suite, `cargo xtask schemas-eval`): its `Cargo.toml`, depending on the
/// contracts crate at `contracts` with the feature `checks`.
#[must_use]
pub fn decode_crate_manifest(name: &str, contracts: &Path) -> String {
    format!(
        "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[workspace]\n\n[dependencies]\n\
         toolcall-contracts = {{ path = {:?}, features = [\"checks\"] }}\n\
         serde = \"1\"\nserde_json = \"1\"\n",
        contracts.display().to_string()
    )
}

/// The `src/main.rs` of such a crate: each `(index, module, root type)` is the file
/// `<module>.rs`; the program reads lines `index\tjson` and prints, per line, `ok\t<encoded>`,
/// `lenient\t<report>`, `err\t<error>`, `unencodable\t<error>`, `check\t<result>` (the decoded
/// value, given to `toolcall_contracts::check` as a value built in code, is not found exactly
/// valid), `missing\t` or `panic\t`.
/// `what` says in its doc comment what the modules are.
#[must_use]
pub fn decode_crate_main(what: &str, modules: &[(usize, String, String)]) -> String {
    use std::fmt::Write as _;
    let mut main = format!(
        "//! Every generated module of {what}, and a program that decodes `index\\tjson` lines\n\
         //! as that module's root type.\n#![allow(warnings)]\n\nuse std::io::BufRead as _;\n\n"
    );
    let mut arms = String::new();
    for (index, module, root) in modules {
        let _ = writeln!(main, "#[path = \"{module}.rs\"]\nmod {module};");
        let _ = writeln!(arms, "        {index} => go::<{module}::{root}>(text),");
    }
    let _ = write!(
        main,
        r#"
fn go<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) -> String {{
    match toolcall_contracts::decode::<T>(text.as_bytes()) {{
        Ok(decoded) if decoded.report.is_empty() => match (
            serde_json::to_string(&decoded.value),
            toolcall_contracts::check(&decoded.value),
        ) {{
            (Ok(encoded), Ok(report)) if report.is_empty() => format!("ok\t{{encoded}}"),
            (Ok(_), checked) => format!("check\t{{checked:?}}"),
            (Err(error), _) => format!("unencodable\t{{error}}"),
        }},
        Ok(decoded) => format!("lenient\t{{:?}}", decoded.report),
        Err(error) => format!("err\t{{error}}"),
    }}
}}

fn run(index: usize, text: &str) -> String {{
    match index {{
{arms}        _ => "missing\t".to_owned(),
    }}
}}

fn main() {{
    std::panic::set_hook(Box::new(|_| {{}}));
    for line in std::io::stdin().lock().lines() {{
        let line = line.unwrap();
        let (index, text) = line.split_once('\t').unwrap();
        let index: usize = index.parse().unwrap();
        let out = std::panic::catch_unwind(|| run(index, text))
            .unwrap_or_else(|_| "panic\t".to_owned());
        println!("{{}}", out.replace('\n', " "));
    }}
}}
"#
    );
    main
}

/// The JSON text without its layout, as the harnesses compare instances.
pub use toolcall_schema::text::minify;

/// The benchmarks' interleaved measurement: each of `rounds` rounds runs every variant for
/// about `slice` (the starting variant rotating from round to round), and a variant's figure is
/// its best round, in ns per pass. On a shared, loaded machine this keeps a burst of load from
/// landing on one variant only, so the ratios between variants hold. A variant's passes per
/// slice come from a batch timed until it takes at least a millisecond.
#[must_use]
pub fn interleaved_best(
    variants: &[&dyn Fn()],
    rounds: usize,
    slice: std::time::Duration,
) -> Vec<f64> {
    use std::time::{Duration, Instant};
    let passes: Vec<u64> = variants
        .iter()
        .map(|pass| {
            let mut batch = 1u64;
            loop {
                let start = Instant::now();
                for _ in 0..batch {
                    pass();
                }
                let elapsed = start.elapsed();
                if elapsed >= Duration::from_millis(1) || batch >= 1 << 30 {
                    let per_pass = elapsed.as_nanos() as f64 / batch as f64;
                    break ((slice.as_nanos() as f64 / per_pass) as u64).max(1);
                }
                batch *= 4;
            }
        })
        .collect();
    let mut best = vec![f64::INFINITY; variants.len()];
    for round in 0..rounds {
        for k in 0..variants.len() {
            let i = (round + k) % variants.len();
            let start = Instant::now();
            for _ in 0..passes[i] {
                (variants[i])();
            }
            let ns = start.elapsed().as_nanos() as f64 / passes[i] as f64;
            best[i] = best[i].min(ns);
        }
    }
    best
}

/// A writer whose bytes a test reads afterwards (clones share the bytes): a transcript or report
/// given as `Box<dyn Write + Send>`.
#[derive(Clone, Default)]
pub struct SharedBuffer(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// The bytes written so far, as text.
    ///
    /// # Panics
    /// When they are not UTF-8, or a writer panicked while holding them.
    #[must_use]
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("not poisoned").clone()).expect("UTF-8")
    }
}

impl std::io::Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
