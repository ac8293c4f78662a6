// Generates the InventoryService server from the shared contract; clients live in other services.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    tonic_build::configure()
        .build_client(false)
        .compile_protos(&["../../proto/inventory.proto"], &["../../proto"])?;
    println!("cargo:rerun-if-changed=../../proto/inventory.proto");
    Ok(())
}
