//! The end-to-end suite: every integration test in one crate, one module
//! per feature, so the test binary is linked once instead of fourteen times.
//! Each module builds small fixture sites in temporary folders
//! ([`common`]).

mod all_errors;
mod anydice;
mod authoring;
mod bad_inputs;
mod basics;
mod browser;
mod build;
mod cache;
mod cards;
mod cli;
mod cli_exit;
mod common;
mod compare_with;
mod contract;
mod csv_files;
mod dice;
mod docs;
mod escaping;
mod faults;
mod figures;
mod gates;
mod hostile_bounds;
mod hostile_files;
mod hostile_limits;
mod hostile_markup;
mod hostile_serve;
mod hostile_site;
mod init;
mod interface_words;
mod layers;
mod match_observed;
mod notation_page;
mod numbers;
mod observed;
mod reading;
mod rules;
mod rules_pages;
mod serve;
mod shard;
mod site_features;
mod translations;
mod verify;
mod wasm;
