import Testing

extension Tag {
    /// End-to-end tests: they run the built `areasd` and `areasctl` as processes (and, some,
    /// systemd, nginx or a browser beside them) and ask over real sockets and HTTP, as an
    /// operator, an app or cron would. The other tests call the service in-process
    /// (`ServiceTransport.inProcess`) or one part directly. `Binaries` records an issue for a
    /// test that runs a binary without this tag, so the name stays true.
    @Tag package static var endToEnd: Self
}

/// Whether the test running now is tagged `.endToEnd`, itself or through its suite: nil when
/// no test is known here (a thread the test started, or no test at all).
package func currentTestIsEndToEnd() -> Bool? {
    Test.current.map { $0.tags.contains(.endToEnd) }
}
