import AreasCore
import AreasProtocol
import AreasSystem
import Foundation
import Glibc

/// The last good data set on disk, laid out to be served where it lies, so a restart serves at once.
///
/// Format (little-endian): the magic `AREASNAP`, a format version (UInt32), the payload length
/// (UInt64) and its XXH64 checksum (UInt64), then the payload. Versions 5 to 12 (12 is written;
/// from 11 areas' fields are values and key lists, before it pairs; from 12 what every answer
/// reads lies together, the records before the text and the footprints beside the tree) hold the whole
/// index as it lies in memory (see `encode(_:index:createdAt:)`): a load maps the file
/// read-only, checks the checksum and every number once, and serves from the mapping, with no
/// area decoded and no tree built; processes mapping the same file share its pages. Versions
/// 2 to 4 (areas one by one, the index built on loading) are still read. Written to a temporary
/// file in the same folder, fsync'ed, renamed over the old file, and the folder fsync'ed: a
/// crash leaves either the old snapshot or the new one, never a mix, and a mapped file is
/// never changed in place.
package enum SnapshotFile {
    static let magic = Array("AREASNAP".utf8)
    /// The format version this build writes.
    package static let version: UInt32 = 12
    /// The versions this build reads.
    static let readableVersions: Set<UInt32> = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    package static let headerSize = 8 + 4 + 8 + 8
    /// Set in an area's kind byte (version 4) when its position came from a geocoder.
    static let geocodedBit: UInt8 = 0x80

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case corrupt(path: String, reason: String)
        case unwritable(path: String, reason: String)
        /// Whole and sound, but not taken: a leader's snapshot that would shrink the data too far.
        case refused(path: String, reason: String)

        package var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read snapshot \(path): \(reason)"
            case .corrupt(let path, let reason): return "snapshot \(path) is corrupt: \(reason)"
            case .unwritable(let path, let reason): return "cannot write snapshot \(path): \(reason)"
            case .refused(let path, let reason): return "snapshot \(path) is not taken: \(reason)"
            }
        }
    }

    // MARK: Encoding

    /// The file for `catalog`, with `index` (built over the catalog's table) laid out in it;
    /// without one, the index is built here with the default node size and footprints.
    package static func encode(_ catalog: Catalog, index: AreaIndex? = nil, createdAt: Double = Date().timeIntervalSince1970) -> [UInt8] {
        encode(catalog, index: index ?? catalog.index(), createdAt: createdAt)
    }

    /// What a snapshot holds: every area in one table, when each source was fetched, and
    /// (from version 5) the index, ready to serve (from version 6, with the merged areas; from
    /// version 7, with the zones' footprints as drawn from their words; from version 8, with the search index).
    package struct Contents: Sendable {
        /// The areas, each source its run of the table.
        package var catalog: Catalog
        /// The index laid out in the file (versions 5 to 8), over `catalog`'s table, served in place.
        package var index: AreaIndex?
        package var createdAt: Double
        /// The format version the file was written in.
        package var version: UInt32 = SnapshotFile.version
        /// What changed between the versions of its data (version 9; before it, its data is a
        /// first version, every record first seen when the file was written).
        package var changes = ChangeLog()
        /// The served areas' counts (version 10; counted when an older file is read, nil for
        /// versions 2 to 4, whose index is built after).
        package var counts: ServedCounts?

        /// Every area, source by source in name order, each source's in id order.
        package var areas: AreaTable { catalog.table }
        /// Every source the snapshot names (including any with no areas) and its fetch time.
        package var fetchedAt: [String: Double] { catalog.sources.mapValues(\.fetchedAt) }
    }

    /// A time a snapshot can hold: from 2000 to a day past now (a clock a little ahead). Anything
    /// else would make the data look fresh forever (a time far ahead) or its age meaningless.
    static func plausibleTime(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= 946_684_800 && seconds <= Date().timeIntervalSince1970 + 86_400
    }

    /// Reads a snapshot held in memory (one fetched over HTTP); a version 5 file is copied once
    /// onto an aligned block and served from there.
    package static func decode(_ bytes: [UInt8], path: String = "snapshot") throws(Failure) -> Contents {
        let result: Result<Contents, Failure> = bytes.withUnsafeBytes { raw in
            do throws(Failure) {
                return .success(try decode(raw, path: path))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes straight into an `AreaTable`, so loading makes no `String` per area: versions 3 and 4's
    /// arena is taken as it is; version 2's string table becomes the arena, and an area's string
    /// indexes become references.
    private static func decode(_ raw: UnsafeRawBufferPointer, path: String) throws(Failure) -> Contents {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        let (fileVersion, _) = try checkHeader(Array(raw.prefix(headerSize)), fileSize: raw.count, path: path)
        try checkChecksum(raw, path: path)
        if fileVersion >= 5 {
            let image = SnapshotImage(copying: raw)
            return try decodeLayout(image.bytes, owner: image, path: path, version: fileVersion)
        }
        return try decodeAreas(raw, version: fileVersion, path: path)
    }

    /// Compares the payload's XXH64 with the header's, `partBytes` at a time, calling
    /// `checked` with each part once it is read: a mapped file lets each part's pages go
    /// there, so checking a file holds one part resident, not the whole file.
    static func checkChecksum(_ file: UnsafeRawBufferPointer, path: String, partBytes: Int = MappedFile.partBytes,
                              checked: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(Failure) {
        let expected = UInt64(littleEndian: file.loadUnaligned(fromByteOffset: 20, as: UInt64.self))
        var sum = StreamingChecksum()
        MappedFile.forEachPart(of: UnsafeRawBufferPointer(rebasing: file[headerSize...]), partBytes: partBytes) { part in
            sum.update(part)
            checked(part)
        }
        guard sum.value == expected else { throw .corrupt(path: path, reason: "checksum mismatch") }
    }

    /// Versions 2 to 4: the areas one by one, decoded into a table (the index is built from it).
    private static func decodeAreas(_ raw: UnsafeRawBufferPointer, version fileVersion: UInt32, path: String) throws(Failure) -> Contents {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        do {
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
            if fileVersion >= 3 { return try decodeArena(payload, path: path, version: fileVersion) }

            var reader = ByteReader(bytes: payload)
            let createdAt = try reader.readDouble()
            guard plausibleTime(createdAt) else { throw corrupt("created at \(createdAt), not a time this file can have") }
            let stringCount = Int(try reader.read(UInt32.self))
            guard stringCount <= payload.count / 4 else { throw corrupt("string table claims \(stringCount) strings") }
            var builder = AreaTable.Builder(capacity: 0)
            builder.strings.reserveCapacity(payload.count / 2)
            var refs: [StringArena.Ref] = []
            refs.reserveCapacity(stringCount)
            for _ in 0..<stringCount { refs.append(builder.strings.append(try reader.readBytes())) }
            func string(_ reader: inout ByteReader) throws -> StringArena.Ref {
                let index = Int(try reader.read(UInt32.self))
                guard index < refs.count else { throw corrupt("string index \(index) outside the table of \(refs.count)") }
                return refs[index]
            }
            var fetchedAt: [String: Double] = [:]
            var fields: [StringArena.Ref] = []
            let sourceCount = try reader.read(UInt32.self)
            for _ in 0..<sourceCount {
                let source = try string(&reader)
                let sourceName = builder.strings.string(source)
                let fetched = try reader.readDouble()
                guard plausibleTime(fetched) else { throw corrupt("source \(sourceName) fetched at \(fetched), not a time this file can have") }
                fetchedAt[sourceName] = fetched
                let count = Int(try reader.read(UInt32.self))
                builder.reserveCapacity(builder.count + Swift.min(count, payload.count / 32))
                for _ in 0..<count {
                    fields.removeAll(keepingCapacity: true)
                    let record = try readArea(&reader, source: source, sourceName: sourceName, fields: &fields, path: path, reference: string)
                    builder.append(record, fields: fields)
                }
            }
            guard reader.offset == payload.count else { throw corrupt("\(payload.count - reader.offset) unexpected bytes after the last area") }
            return Contents(catalog: Catalog(table: builder.build(), fetchedAt: fetchedAt), createdAt: createdAt, version: fileVersion)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw corrupt("a record runs past the end of the payload")
        }
    }
}

extension SnapshotFile {
    // MARK: Files

    /// The largest snapshot read: twenty times the 98 MB of a million areas. A larger file is
    /// refused before anything is allocated for it.
    package static let maximumBytes = 2 << 30

    /// Reads the snapshot at `path`; nil when there is none yet.
    ///
    /// Only a regular file is read (a FIFO planted at the path would block start-up forever),
    /// no larger than `maximumBytes`, and its header is checked before the rest is read.
    package static func load(path: String) throws(Failure) -> Contents? {
        let file: FileDescriptor
        do throws(SystemError) {
            guard try FileSystem.status(of: path) != nil else { return nil }
            file = try FileDescriptor.open(path, [.nonBlocking])
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        defer { file.close() }
        do {
            let status = try file.status()
            guard status.kind == .regular else { throw Failure.corrupt(path: path, reason: "not a regular file (\(status.kind))") }
            guard status.size <= maximumBytes else {
                throw Failure.corrupt(path: path, reason: "\(status.size) bytes is larger than the \(maximumBytes) a snapshot may have")
            }
            let header = try file.read(upTo: headerSize)
            let (fileVersion, payloadLength) = try checkHeader(header, fileSize: status.size, path: path)
            if fileVersion >= 5 { return try map(file, path: path, version: fileVersion) }
            // Header and payload in one array, read straight into it: no second copy of a
            // file that can be a hundred megabytes.
            var failure: SystemError?
            let bytes = [UInt8](unsafeUninitializedCapacity: headerSize + payloadLength) { buffer, initialized in
                _ = buffer.initialize(from: header)
                do throws(SystemError) {
                    initialized = headerSize + (try file.readFully(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[headerSize...])))
                } catch {
                    failure = error
                    initialized = headerSize
                }
            }
            if let failure { throw failure }
            return try decode(bytes, path: path)
        } catch let error as SystemError {
            throw .unreadable(path: path, reason: error.reason)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Maps a version 5 or later file and reads it in place. Checking it reads every page once,
    /// and the pages read leave the process's resident set as the checks go on (they stay in
    /// the kernel's cache): checking holds a few megabytes of the file, not the whole (a
    /// refresh checks its new file beside the data served), and the process then holds only
    /// what queries touch.
    private static func map(_ file: FileDescriptor, path: String, version: UInt32) throws -> Contents {
        let mapping = try MappedFile(file, path: path)
        defer { mapping.releaseResidentPages() }
        try checkChecksum(mapping.bytes, path: path, checked: mapping.releaseResidentPages(of:))
        return try decodeLayout(mapping.bytes, owner: mapping, path: path, version: version, lettingGo: mapping.releaseResidentPages(of:))
    }

    /// Checks the magic, the version and the payload's length against the file's size; the
    /// version and the payload's length.
    package static func checkHeader(_ header: [UInt8], fileSize: Int?, path: String) throws(Failure) -> (version: UInt32, payloadLength: Int) {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        guard header.count == headerSize else { throw corrupt("\(fileSize ?? header.count) bytes is shorter than the header") }
        guard Array(header[0..<8]) == magic else { throw corrupt("not an areas snapshot (bad magic)") }
        let fileVersion = header[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard readableVersions.contains(fileVersion) else {
            throw corrupt("format version \(fileVersion), this build reads \(readableVersions.sorted().map(String.init).joined(separator: " and "))")
        }
        let length = header[12..<20].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // Without the whole file (a download's first bytes), the length is judged alone.
        guard let fileSize else {
            guard length <= UInt64(maximumBytes - headerSize) else {
                throw corrupt("the header says \(length) bytes, more than the \(maximumBytes) a snapshot may have")
            }
            return (fileVersion, Int(length))
        }
        guard length == UInt64(fileSize - headerSize) else {
            throw corrupt("payload is \(fileSize - headerSize) bytes, header says \(length) (truncated or appended to)")
        }
        return (fileVersion, Int(length))
    }

    /// Moves a corrupt snapshot aside as `path.corrupt` so it is kept for inspection; where it
    /// went, or nil when it could not be moved.
    @discardableResult
    package static func quarantine(path: String) -> String? {
        let target = SnapshotFolder.setAside(path)
        do {
            try FileSystem.rename(path, to: target)
            return target
        } catch {
            return nil
        }
    }

    /// Writes atomically: temporary file, fsync, rename, fsync of the folder.
    /// On any failure the old snapshot is untouched and the temporary file removed.
    package static func write(_ catalog: Catalog, to path: String) throws(Failure) {
        try write(encode(catalog), to: path)
    }

    /// A snapshot is read-only once written (owner and group may read): it is mapped while
    /// served, and only ever replaced by renaming a new file over it.
    static let permissions: mode_t = 0o440

    /// Writes bytes made by `encode` atomically, as `write(_:to:)` does (see `WholeFile.replace`).
    package static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        do throws(SystemError) {
            try WholeFile.replace(path, with: bytes, permissions: permissions)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }

    /// Writes `catalog` with `index` (its table's index) atomically and hands back the new file
    /// mapped and checked: what is served from then on is exactly what a restart would load.
    /// `createdAt`: the time the data was first written, when it is written again unchanged
    /// (a file laid out anew in this build's format keeps its data's version); else now.
    package static func writeMapped(_ catalog: Catalog, index: AreaIndex, to path: String, createdAt: Double? = nil, changes: ChangeLog? = nil) throws(Failure) -> Contents {
        try install(try writeUnchecked(catalog, index: index, for: path, createdAt: createdAt, changes: changes), at: path)
    }

    /// The first half of `writeMapped`: `catalog` with `index` written to a new temporary file
    /// beside `path`, synced; its name. Then `install` checks it and puts it in place. Between
    /// the two the caller can let go of the data set it wrote, so that the data is never held
    /// in memory while the file's pages are read back to check it.
    /// `counts`: the data set's, when counted already.
    package static func writeUnchecked(_ catalog: Catalog, index: AreaIndex, for path: String, createdAt: Double? = nil, changes: ChangeLog? = nil,
                                       counts: ServedCounts? = nil) throws(Failure) -> String {
        let createdAt = createdAt ?? Date().timeIntervalSince1970
        do throws(SystemError) {
            return try WholeFile.writeTemporary(for: path, permissions: permissions) { file throws(SystemError) in
                try write(catalog, index: index, createdAt: createdAt, changes: changes, counts: counts, to: file)
            }
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }

    /// The second half of `writeMapped`: the file `writeUnchecked` wrote, mapped and checked as
    /// a load checks it, then renamed over `path`. A file that fails is removed, and the file
    /// at `path` is left as it was.
    package static func install(_ temporary: String, at path: String) throws(Failure) -> Contents {
        try adopt(path: path, judge: { _ in nil }) { () throws(SystemError) in temporary }
    }

    /// Puts another snapshot (a leader's, fetched over HTTP) in place at `path`, once it has
    /// passed every check a load makes; a refused one leaves the file at `path` as it was.
    package static func adopt(_ bytes: [UInt8], as path: String, judge: (Contents) -> String? = { _ in nil }) throws(Failure) -> Contents {
        try adopt(path: path, judge: judge) { () throws(SystemError) in try WholeFile.writeTemporary(for: path, bytes, permissions: permissions) }
    }

    /// Puts the snapshot at `source` (a leader's, on a shared folder) in place at `path` once
    /// it passed every check: as a second name of the same file when both are on one file
    /// system (so the daemons mapping it share its pages), else as a copy.
    package static func adopt(file source: String, as path: String, judge: (Contents) -> String? = { _ in nil }) throws(Failure) -> Contents {
        try adopt(path: path, judge: judge) { () throws(SystemError) in
            if let linked = try WholeFile.linkTemporary(for: path, to: source) { return linked }
            let read: [UInt8]?
            do throws(WholeFile.ReadFailure) {
                read = try WholeFile.read(source, limit: maximumBytes)
            } catch {
                if case .system(let failure) = error { throw failure }
                throw SystemError("read", errno: EINVAL, subject: "\(source) (\(error))")
            }
            guard let bytes = read else { throw SystemError("open", errno: ENOENT, subject: source) }
            return try WholeFile.writeTemporary(for: path, bytes, permissions: permissions)
        }
    }

    /// Makes a temporary beside `path` with `place`, loads it with every check, asks `judge`
    /// (a reason to refuse it, or nil), and only then renames it over `path`.
    private static func adopt(path: String, judge: (Contents) -> String?, _ place: () throws(SystemError) -> String) throws(Failure) -> Contents {
        let temporary: String
        do throws(SystemError) {
            temporary = try place()
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
        let contents: Contents
        do throws(Failure) {
            guard let loaded = try load(path: temporary) else { throw .unreadable(path: path, reason: "the new file vanished") }
            if let reason = judge(loaded) { throw .refused(path: path, reason: reason) }
            contents = loaded
        } catch {
            WholeFile.discard(temporary)
            throw error
        }
        do throws(SystemError) {
            try WholeFile.commit(temporary, to: path)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
        return contents
    }
}
