import AreasSystem

/// Serves a source's one local file as its only page.
public struct FileTransport: PageTransport {
    public let path: String
    public let maxBytes: Int

    public init(path: String, maxBytes: Int) {
        self.path = path
        self.maxBytes = maxBytes
    }

    public func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        guard number == 1 else { return nil }
        return PageResponse(status: 200, body: try Self.read(path, maxBytes: maxBytes))
    }

    /// The file's bytes, or why they cannot be had: missing, not a regular file, too large.
    public static func read(_ path: String, maxBytes: Int) throws(UpstreamError) -> [UInt8] {
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
