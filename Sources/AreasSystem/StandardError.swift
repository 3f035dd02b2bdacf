/// Unbuffered writes to standard error, safe from any thread.
package enum StandardError {
    package static func write(_ text: String) {
        // Nothing is left to tell when standard error itself fails.
        try? FileDescriptor(rawValue: 2).writeAll(Array(text.utf8))
    }
}
