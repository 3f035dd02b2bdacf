import AreasCore
import AreasProtocol
import AreasSystem
import Foundation
import Glibc

/// The last good catalog on disk, so a restart serves at once.
///
/// Format (little-endian): the magic `AREASNAP`, a format version (UInt32), the payload length
/// (UInt64) and its XXH64 checksum (UInt64), then the payload. Version 4, written now: the
/// creation time, the table's string arena byte for byte (so writing it looks up no string and
/// reading it copies one block), and per source its name, fetch time and areas, whose strings
/// are offsets into the arena, each checked on reading to start a string; an area's kind byte
/// has its high bit set when its position was geocoded. Version 3 (the same without geocoded
/// areas) and version 2 (a table of numbered strings) are still read. Written to a temporary file in the same folder, fsync'ed,
/// renamed over the old file, and the folder fsync'ed: a crash leaves either the old snapshot or
/// the new one, never a mix.
public enum SnapshotFile {
    static let magic = Array("AREASNAP".utf8)
    static let version: UInt32 = 4
    /// The versions this build reads.
    static let readableVersions: Set<UInt32> = [2, 3, 4]
    static let headerSize = 8 + 4 + 8 + 8
    /// Set in an area's kind byte (version 4) when its position came from a geocoder.
    static let geocodedBit: UInt8 = 0x80

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case corrupt(path: String, reason: String)
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read snapshot \(path): \(reason)"
            case .corrupt(let path, let reason): return "snapshot \(path) is corrupt: \(reason)"
            case .unwritable(let path, let reason): return "cannot write snapshot \(path): \(reason)"
            }
        }
    }

    // MARK: Encoding

    public static func encode(_ catalog: Catalog, createdAt: Double = Date().timeIntervalSince1970) -> [UInt8] {
        let table = catalog.table
        var payload = ByteWriter()
        payload.bytes.reserveCapacity(table.strings.byteCount + table.count * 64 + 64)
        payload.append(createdAt)
        payload.append(UInt32(table.strings.byteCount))
        payload.bytes.append(contentsOf: table.strings.bytes)
        // In the table's order (by id), so the file reads back as it was served.
        let names = catalog.sources.sorted { ($0.value.range.lowerBound, $0.key) < ($1.value.range.lowerBound, $1.key) }.map(\.key)
        payload.append(UInt32(names.count))
        table.withBuffers { areas in
            for name in names {
                guard let span = catalog.sources[name] else { continue }
                payload.append(UInt32(name.utf8.count))
                payload.bytes.append(contentsOf: name.utf8)
                // The name again as the arena holds it, which every area of the source names.
                payload.append(span.range.isEmpty ? StringArena.empty : areas.records[span.range.lowerBound].source)
                payload.append(span.fetchedAt)
                payload.append(UInt32(span.range.count))
                for position in span.range {
                    let area = areas.records[position]
                    payload.append(area.id)
                    payload.append((area.kind == .smoking ? UInt8(1) : UInt8(2)) | (area.geocoded ? geocodedBit : 0))
                    payload.append(area.name)
                    payload.append(area.coordinate.latitude)
                    payload.append(area.coordinate.longitude)
                    payload.append(area.roadAddress)
                    payload.append(area.lotAddress)
                    payload.append(area.province)
                    payload.append(area.district)
                    payload.append(UInt32(areas.fieldCount(of: position)))
                    areas.forEachFieldRef(of: position) { key, value in
                        payload.append(key)
                        payload.append(value)
                    }
                }
            }
        }
        var file = ByteWriter()
        file.bytes.reserveCapacity(headerSize + payload.bytes.count)
        file.bytes.append(contentsOf: magic)
        file.append(version)
        file.append(UInt64(payload.bytes.count))
        file.append(payload.bytes.withUnsafeBytes(checksum))
        file.bytes.append(contentsOf: payload.bytes)
        return file.bytes
    }

    /// What a snapshot holds: every area in one table, and when each source was fetched.
    public struct Contents: Sendable {
        /// Every area, source by source in name order, each source's in id order.
        public var areas: AreaTable
        /// Every source the snapshot names (including any with no areas) and its fetch time.
        public var fetchedAt: [String: Double]
        public var createdAt: Double

        /// The areas as a catalog, each source its run of the table.
        public var catalog: Catalog { Catalog(table: areas, fetchedAt: fetchedAt) }
    }

    /// A time a snapshot can hold: from 2000 to a day past now (a clock a little ahead). Anything
    /// else would make the data look fresh forever (a time far ahead) or its age meaningless.
    static func plausibleTime(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= 946_684_800 && seconds <= Date().timeIntervalSince1970 + 86_400
    }

    public static func decode(_ bytes: [UInt8], path: String = "snapshot") throws(Failure) -> Contents {
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
        var header = ByteReader(bytes: raw, offset: 20)
        do {
            let expected = try header.read(UInt64.self)
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
            guard checksum(payload) == expected else { throw corrupt("checksum mismatch") }
            if fileVersion >= 3 { return try decodeArena(payload, path: path) }

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
            return Contents(areas: builder.build(), fetchedAt: fetchedAt, createdAt: createdAt)
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
    public static let maximumBytes = 2 << 30

    /// Reads the snapshot at `path`; nil when there is none yet.
    ///
    /// Only a regular file is read (a FIFO planted at the path would block start-up forever),
    /// no larger than `maximumBytes`, and its header is checked before the rest is read.
    public static func load(path: String) throws(Failure) -> Contents? {
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
            let (_, payloadLength) = try checkHeader(header, fileSize: status.size, path: path)
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

    /// Checks the magic, the version and the payload's length against the file's size; the
    /// version and the payload's length.
    static func checkHeader(_ header: [UInt8], fileSize: Int, path: String) throws(Failure) -> (version: UInt32, payloadLength: Int) {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        guard header.count == headerSize else { throw corrupt("\(fileSize) bytes is shorter than the header") }
        guard Array(header[0..<8]) == magic else { throw corrupt("not an areas snapshot (bad magic)") }
        let fileVersion = header[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard readableVersions.contains(fileVersion) else {
            throw corrupt("format version \(fileVersion), this build reads \(readableVersions.sorted().map(String.init).joined(separator: " and "))")
        }
        let length = header[12..<20].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length == UInt64(fileSize - headerSize) else {
            throw corrupt("payload is \(fileSize - headerSize) bytes, header says \(length) (truncated or appended to)")
        }
        return (fileVersion, Int(length))
    }

    /// Moves a corrupt snapshot aside as `path.corrupt` so it is kept for inspection; where it
    /// went, or nil when it could not be moved.
    @discardableResult
    public static func quarantine(path: String) -> String? {
        let target = path + ".corrupt"
        do {
            try FileSystem.rename(path, to: target)
            return target
        } catch {
            return nil
        }
    }

    /// Writes atomically: temporary file, fsync, rename, fsync of the folder.
    /// On any failure the old snapshot is untouched and the temporary file removed.
    public static func write(_ catalog: Catalog, to path: String) throws(Failure) {
        try write(encode(catalog), to: path)
    }

    /// Writes bytes made by `encode` atomically, as `write(_:to:)` does (see `WholeFile.replace`).
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        do throws(SystemError) {
            try WholeFile.replace(path, with: bytes)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }
}
