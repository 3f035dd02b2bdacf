import AreasSystem

/// Serves a source's one local file as its only page.
package struct FileTransport: PageTransport {
    package let path: String
    package let maxBytes: Int

    package init(path: String, maxBytes: Int) {
        self.path = path
        self.maxBytes = maxBytes
    }

    package func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        guard number == 1 else { return nil }
        return PageResponse(status: 200, body: try Self.read(path, maxBytes: maxBytes))
    }

    /// The file's bytes, or why they cannot be had: missing, not a regular file, too large.
    package static func read(_ path: String, maxBytes: Int) throws(UpstreamError) -> [UInt8] {
        let bytes: [UInt8]?
        do throws(WholeFile.ReadFailure) {
            bytes = try WholeFile.read(path, limit: maxBytes)
        } catch {
            if case .tooLarge(let size, let limit) = error { throw .tooLarge(bytes: size, limit: limit) }
            throw .unreadableFile(path: path, reason: error.description)
        }
        guard let bytes else { throw .unreadableFile(path: path, reason: "no such file") }
        return bytes
    }
}
