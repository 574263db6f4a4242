//! Asserts that `validate_call_key` and `validate_schema_pin` allocate nothing, on valid and
//! on invalid values, across 1000 calls each; prints what a route body decode allocates, for
//! reference. Exits non-zero (a failed assertion) when a validator allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use toolcall_contracts::route::{validate_call_key, validate_schema_pin, ToolCallRequest};

/// The system allocator, counting allocations (`alloc`, `alloc_zeroed` and `realloc`).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const CALLS: usize = 1000;

/// Allocations made by `f`.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

fn main() {
    let long = "k".repeat(300);
    // Valid values, then one of each error: empty, too long, a byte outside 0x21..=0x7E.
    let keys = [
        ("valid", "order-42/retry:1"),
        ("empty", ""),
        ("300 bytes", long.as_str()),
        ("space", "order 42"),
        ("non-ASCII", "clé"),
    ];
    let pins = [
        (
            "valid",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ),
        ("empty", ""),
        ("300 bytes", long.as_str()),
        ("tab", "sha256:\t"),
    ];
    // Warm up anything lazily initialised, outside the counted region.
    for (_, key) in keys {
        let _ = black_box(validate_call_key(black_box(key)));
    }

    for (label, key) in keys {
        let n = allocations(|| {
            for _ in 0..CALLS {
                let _ = black_box(validate_call_key(black_box(key)));
            }
        });
        println!("validate_call_key, {label}: {n} allocations in {CALLS} calls");
        assert_eq!(n, 0, "validate_call_key allocates");
    }
    for (label, pin) in pins {
        let n = allocations(|| {
            for _ in 0..CALLS {
                let _ = black_box(validate_schema_pin(black_box(pin)));
            }
        });
        println!("validate_schema_pin, {label}: {n} allocations in {CALLS} calls");
        assert_eq!(n, 0, "validate_schema_pin allocates");
    }

    // `TYPICAL_ROUTE_BODY` of benches/wire/corpus.rs.
    let body = br#"{"name":"search","arguments":{"query":"rust json schema codegen","limit":20,"filters":{"language":"en","since":"2025-01-01"}},"tool_call_id":"call_01J9Z3K7","progress_token":7,"call_key":"order-42/retry:1","schema_pin":"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}"#;
    let n = allocations(|| {
        let request: ToolCallRequest = serde_json::from_slice(black_box(body)).expect("decodes");
        black_box(request);
    });
    println!("route body decode (for reference): {n} allocations per body");
    println!("ok: the validators allocate nothing");
}
