//! Generates the types of `orders.schema.json` into `OUT_DIR` on every build that changes it.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolcall_codegen::Builder::new("../orders.schema.json").write_to_out_dir("orders.rs")?;
    Ok(())
}
