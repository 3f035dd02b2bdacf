import Foundation

/// A file of /proc, read whole. Its size is 0 until read, and Foundation's one-shot readers
/// take only what the first read gives (a page of `/proc/self/smaps`, which runs to tens of
/// kilobytes): this reads to the end.
package enum ProcFile {
    package static func read(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The file's bytes, for a reader that scans them without making strings.
    package static func bytes(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return [UInt8](handle.readDataToEndOfFile())
    }
}
