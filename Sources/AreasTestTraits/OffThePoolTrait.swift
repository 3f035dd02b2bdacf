import Testing

/// Runs every test of a suite on `TestBodyExecutor`, off the cooperative pool.
///
/// Swift Testing runs test bodies on the cooperative pool, which has one thread per core (two
/// on CI's machine). A synchronous test that waits for a daemon, a child process or a
/// deadline holds one of them for as long as it waits, so on two cores two such tests leave
/// every other test, and every refresh those tests started in-process, waiting: tests that
/// take seconds alone ran past their five-minute limits together. Here a waiting body holds a
/// thread of its own instead; how many tests run at once is `Tests/run.sh`'s choice
/// (`SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`), and a test's time limit counts from
/// when it starts, not from when it was queued.
package struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Each test case's body, not the suite's scope around them.
        testCase == nil ? nil : self
    }

    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestBodyExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// The suite's tests run off the cooperative pool (`OffThePoolTrait`).
    package static var offThePool: Self { OffThePoolTrait() }
}
