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
