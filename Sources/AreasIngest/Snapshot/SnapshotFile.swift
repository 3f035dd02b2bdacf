import AreasCore
import AreasProtocol
import Foundation
import Glibc

/// The last good catalog on disk, so a restart serves at once.
///
/// Format (little-endian): the magic `AREASNAP`, a format version (UInt32), the payload length
/// (UInt64) and its XXH64 checksum (UInt64), then the payload: the creation time, a table of
/// every distinct string, and per source its name, fetch time and areas, whose strings are
/// indexes into the table. Provinces, districts, column names and repeated values are stored
/// and decoded once, and share one copy in memory after loading. Written to a temporary file in the same folder,
/// fsync'ed, renamed over the old file, and the folder fsync'ed: a crash leaves either the old
/// snapshot or the new one, never a mix.
public enum SnapshotFile {
    static let magic = Array("AREASNAP".utf8)
    static let version: UInt32 = 2
    static let headerSize = 8 + 4 + 8 + 8

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
        // Distinct strings numbered in first-seen order.
        var table = StringArena.Builder()
        func index(_ string: String) -> UInt32 { UInt32(table.number(of: string)) }
        var body = ByteWriter()
        body.bytes.reserveCapacity(catalog.areaCount * 64)
        let names = catalog.sources.keys.sorted()
        body.append(UInt32(names.count))
        for name in names {
            guard let data = catalog.sources[name] else { continue }
            body.append(index(name))
            body.append(data.fetchedAt)
            body.append(UInt32(data.areas.count))
            for area in data.areas {
                body.append(index(area.id))
                body.append(area.kind == .smoking ? UInt8(1) : UInt8(2))
                body.append(index(area.name))
                body.append(area.coordinate.latitude)
                body.append(area.coordinate.longitude)
                body.append(index(area.roadAddress))
                body.append(index(area.lotAddress))
                body.append(index(area.province))
                body.append(index(area.district))
                body.append(UInt32(area.fields.count))
                for field in area.fields {
                    body.append(index(field.key))
                    body.append(index(field.value))
                }
            }
        }
        var payload = ByteWriter()
        payload.bytes.reserveCapacity(body.bytes.count + table.byteCount + 3 * table.refs.count + 16)
        payload.append(createdAt)
        payload.append(UInt32(table.refs.count))
        table.build().bytes.withUnsafeBufferPointer { arena in
            for ref in table.refs { payload.append(StringArena.utf8(ref, in: arena)) }
        }
        payload.bytes.append(contentsOf: body.bytes)

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

        /// The areas as a catalog, each made whole (for comparisons, not for serving).
        public var catalog: Catalog {
            var sources = fetchedAt.mapValues { Catalog.SourceData(areas: [], fetchedAt: $0) }
            for area in areas { sources[area.source]?.areas.append(area) }
            return Catalog(sources: sources)
        }
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

    /// Decodes straight into an `AreaTable`: the file's string table becomes the arena, and
    /// an area's string indexes become references, so loading makes no `String` per area.
    private static func decode(_ raw: UnsafeRawBufferPointer, path: String) throws(Failure) -> Contents {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        guard raw.count >= headerSize else { throw corrupt("\(raw.count) bytes is shorter than the header") }
        guard Array(raw[0..<8]) == magic else { throw corrupt("not an areas snapshot (bad magic)") }
        var header = ByteReader(bytes: raw, offset: 8)
        do {
            let fileVersion = try header.read(UInt32.self)
            guard fileVersion == version else { throw corrupt("format version \(fileVersion), this build reads \(version)") }
            let length = try header.read(UInt64.self)
            let expected = try header.read(UInt64.self)
            guard length == UInt64(raw.count - headerSize) else {
                throw corrupt("payload is \(raw.count - headerSize) bytes, header says \(length) (truncated or appended to)")
            }
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
            guard checksum(payload) == expected else { throw corrupt("checksum mismatch") }

            var reader = ByteReader(bytes: payload)
            let createdAt = try reader.readDouble()
            let stringCount = Int(try reader.read(UInt32.self))
            guard stringCount <= payload.count / 4 else { throw corrupt("string table claims \(stringCount) strings") }
            var builder = AreaTable.Builder(capacity: 0)
            builder.strings.reserveCapacity(payload.count / 2)
            var refs: [StringArena.Ref] = []
            refs.reserveCapacity(stringCount)
            for _ in 0..<stringCount { refs.append(builder.strings.append(try reader.readBytes())) }
            func string() throws -> StringArena.Ref {
                let index = Int(try reader.read(UInt32.self))
                guard index < refs.count else { throw corrupt("string index \(index) outside the table of \(refs.count)") }
                return refs[index]
            }
            var fetchedAt: [String: Double] = [:]
            var fields: [StringArena.Ref] = []
            let sourceCount = try reader.read(UInt32.self)
            for _ in 0..<sourceCount {
                let source = try string()
                let sourceName = builder.strings.string(source)
                fetchedAt[sourceName] = try reader.readDouble()
                let count = Int(try reader.read(UInt32.self))
                builder.reserveCapacity(builder.count + Swift.min(count, payload.count / 32))
                for _ in 0..<count {
                    let id = try string()
                    let kindByte = try reader.read(UInt8.self)
                    guard let kind: AreaKind = kindByte == 1 ? .smoking : kindByte == 2 ? .nonsmoking : nil else {
                        throw corrupt("area \(builder.strings.string(id)) has kind byte \(kindByte)")
                    }
                    let name = try string()
                    let lat = try reader.readDouble()
                    let lon = try reader.readDouble()
                    guard let coordinate = try? GeoPoint(latitude: lat, longitude: lon) else {
                        throw corrupt("area \(builder.strings.string(id)) has coordinates \(lat), \(lon)")
                    }
                    let road = try string()
                    let lot = try string()
                    let province = try string()
                    let district = try string()
                    let fieldCount = Int(try reader.read(UInt32.self))
                    guard fieldCount <= (payload.count - reader.offset) / 8 else {
                        throw corrupt("area \(builder.strings.string(id)) claims \(fieldCount) fields")
                    }
                    fields.removeAll(keepingCapacity: true)
                    for _ in 0..<2 * fieldCount { fields.append(try string()) }
                    builder.append(
                        AreaTable.Record(
                            coordinate: coordinate, id: id, name: name, roadAddress: road, lotAddress: lot,
                            province: province, district: district, source: source, kind: kind),
                        fields: fields)
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

    /// Reads the snapshot at `path`; nil when there is none yet.
    public static func load(path: String) throws(Failure) -> Contents? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        // Read straight into the array: no intermediate Data, no second copy.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var offset = 0
            while offset < size {
                let n = read(fd, buffer.baseAddress! + offset, size - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? errno : 0
                    break
                }
                offset += n
            }
            count = offset
        }
        if failure != 0 { throw .unreadable(path: path, reason: String(cString: strerror(failure))) }
        return try decode(bytes, path: path)
    }

    /// Moves a corrupt snapshot aside as `path.corrupt` so it is kept for inspection.
    @discardableResult
    public static func quarantine(path: String) -> String {
        let target = path + ".corrupt"
        _ = unlink(target)
        return rename(path, target) == 0 ? target : path
    }

    /// Writes atomically: temporary file, fsync, rename, fsync of the folder.
    /// On any failure the old snapshot is untouched and the temporary file removed.
    public static func write(_ catalog: Catalog, to path: String) throws(Failure) {
        try write(encode(catalog), to: path)
    }

    /// Writes bytes made by `encode` atomically, as `write(_:to:)` does.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: path, reason: "cannot create \(directory): \((error as NSError).localizedDescription)")
        }
        let temporary = "\(path).tmp-\(getpid())"
        func fail(_ what: String) -> Failure {
            let reason = "\(what): \(String(cString: strerror(errno)))"
            _ = unlink(temporary)
            return .unwritable(path: path, reason: reason)
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw fail("open \(temporary)") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = fail("write")
                close(fd)
                throw error
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let error = fail("fsync")
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw fail("close") }
        guard rename(temporary, path) == 0 else { throw fail("rename") }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }
}
