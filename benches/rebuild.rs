//! A rebuild of the default site when nothing changed: every scenario comes
//! from the cache and the site on disk is already current. The target is
//! under 0.2 s in a release build (`cargo bench --bench rebuild`).

use criterion::{criterion_group, criterion_main, Criterion};
use fairdice::build::{self, Project};
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("readable");
        let target = to.join(entry.path().strip_prefix(from).expect("under from"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn no_change_rebuild(c: &mut Criterion) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    for folder in ["content", "templates"] {
        copy_dir(&repo.join(folder), &dir.path().join(folder));
    }
    let mut project = Project::at(dir.path());
    project.progress = fairdice::progress::Progress::hidden();
    let first = build::build(&project).expect("the default site builds");
    assert_eq!(first.cached, 0);

    let mut group = c.benchmark_group("rebuild");
    group.sample_size(20);
    group.bench_function("default site, no change", |b| {
        b.iter(|| {
            let summary = build::build(&project).expect("builds");
            assert_eq!(summary.computed, 0, "every result is cached");
            assert!(!summary.written, "the site is already current");
            summary
        })
    });
    group.finish();
}

criterion_group!(benches, no_change_rebuild);
criterion_main!(benches);
