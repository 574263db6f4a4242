//! The official published ACP `schema.json` files, `../shared/acp-schemas/` beside the checkout
//! (shared by the tests that read them).

use std::path::PathBuf;

/// `../shared/acp-schemas/`, or `None` (with a notice) when it is absent.
pub fn dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/acp-schemas");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "notice: `{}` is absent; skipped (the published ACP schemas live beside the checkout)",
            dir.display()
        );
        None
    }
}
