import Testing

extension Tag {
    /// Tests whose threads share state (clients during refresh swaps, shutdown under load, the
    /// fetcher's task group): `Tests/run.sh` runs them a second time under ThreadSanitizer,
    /// chosen by this tag.
    @Tag static var concurrent: Self
}
