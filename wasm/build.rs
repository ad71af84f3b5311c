//! Exports exactly the engine's four functions and its memory (see
//! src/main.rs); everything else the program holds is internal.
fn main() {
    for name in [
        "fairdice_alloc",
        "fairdice_call",
        "fairdice_output",
        "fairdice_output_len",
    ] {
        println!("cargo:rustc-link-arg-bins=--export={name}");
    }
}
