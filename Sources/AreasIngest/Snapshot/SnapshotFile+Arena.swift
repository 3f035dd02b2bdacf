import AreasCore

extension SnapshotFile {
    /// The payload of versions 3 and 4: the creation time, the arena as it was served, then the sources.
    /// Every reference is checked to start a string of the arena, and every string to be UTF-8,
    /// so a file with a valid checksum but hostile contents is refused, never served.
    static func decodeArena(_ payload: UnsafeRawBufferPointer, path: String, version: UInt32) throws(Failure) -> Contents {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        var reader = ByteReader(bytes: payload)
        do {
            let createdAt = try reader.readDouble()
            guard plausibleTime(createdAt) else { throw corrupt("created at \(createdAt), not a time this file can have") }
            let arenaLength = Int(try reader.read(UInt32.self))
            guard arenaLength >= 1, arenaLength <= payload.count - reader.offset else {
                throw corrupt("string arena of \(arenaLength) bytes in a payload of \(payload.count)")
            }
            let arena = [UInt8](UnsafeRawBufferPointer(rebasing: payload[reader.offset..<reader.offset + arenaLength]))
            reader.offset += arenaLength
            guard let starts = arena.withUnsafeBufferPointer(StringStarts.init(validating:)) else {
                throw corrupt("the string arena is not a run of length-prefixed UTF-8 strings")
            }
            func ref(_ reader: inout ByteReader) throws -> StringArena.Ref {
                let ref = try reader.read(UInt32.self)
                guard starts.contains(ref) else { throw corrupt("a reference (\(ref)) that starts no string") }
                return ref
            }
            var records: [AreaTable.Record] = []
            var fieldStarts: [UInt32] = [0]
            var fieldRefs: [StringArena.Ref] = []
            var fetchedAt: [String: Double] = [:]
            let sourceCount = try reader.read(UInt32.self)
            for _ in 0..<sourceCount {
                let nameBytes = try reader.readBytes()
                guard let name = String(validating: nameBytes, as: UTF8.self) else { throw corrupt("a source name that is not UTF-8") }
                let source = try ref(&reader)
                let fetched = try reader.readDouble()
                guard plausibleTime(fetched) else { throw corrupt("source \(name) fetched at \(fetched), not a time this file can have") }
                fetchedAt[name] = fetched
                let count = Int(try reader.read(UInt32.self))
                // An area takes at least 45 bytes: five references, a kind, two coordinates, a field count.
                guard count <= (payload.count - reader.offset) / 45 else { throw corrupt("source \(name) claims \(count) areas") }
                let named = arena.withUnsafeBufferPointer { StringArena.utf8(source, in: $0).sameBytes(as: nameBytes) }
                guard named || (source == StringArena.empty && count == 0) else { throw corrupt("source \(name)'s areas name another source") }
                records.reserveCapacity(records.count + count)
                for _ in 0..<count {
                    records.append(try readArea(&reader, source: source, sourceName: name, fields: &fieldRefs, path: path, reference: ref))
                    fieldStarts.append(UInt32(fieldRefs.count / 2))
                }
            }
            guard reader.offset == payload.count else { throw corrupt("\(payload.count - reader.offset) unexpected bytes after the last area") }
            let table = AreaTable(checkedRecords: records, fieldStarts: fieldStarts, fieldRefs: fieldRefs, arena: arena)
            return Contents(catalog: Catalog(table: table, fetchedAt: fetchedAt), createdAt: createdAt, version: version)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw corrupt("a record runs past the end of the payload")
        }
    }

    /// One area as both versions store it: its id, kind, name, position, addresses, province,
    /// district and upstream columns, each string read through `reference`; the columns'
    /// references are appended to `fields`.
    static func readArea(
        _ reader: inout ByteReader, source: StringArena.Ref, sourceName: String, fields: inout [StringArena.Ref], path: String,
        reference: (inout ByteReader) throws -> StringArena.Ref
    ) throws -> AreaTable.Record {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        let id = try reference(&reader)
        let flaggedKind = try reader.read(UInt8.self)
        let kindByte = flaggedKind & ~geocodedBit
        guard let kind: AreaKind = kindByte == 1 ? .smoking : kindByte == 2 ? .nonsmoking : nil else {
            throw corrupt("an area of \(sourceName) has kind byte \(kindByte)")
        }
        let name = try reference(&reader)
        let lat = try reader.readDouble()
        let lon = try reader.readDouble()
        guard let coordinate = try? GeoPoint(latitude: lat, longitude: lon) else {
            throw corrupt("an area of \(sourceName) has coordinates \(lat), \(lon)")
        }
        let road = try reference(&reader)
        let lot = try reference(&reader)
        let province = try reference(&reader)
        let district = try reference(&reader)
        let fieldCount = Int(try reader.read(UInt32.self))
        guard fieldCount <= (reader.bytes.count - reader.offset) / 8 else { throw corrupt("an area of \(sourceName) claims \(fieldCount) fields") }
        for _ in 0..<2 * fieldCount { fields.append(try reference(&reader)) }
        return AreaTable.Record(
            coordinate: coordinate, id: id, name: name, roadAddress: road, lotAddress: lot,
            province: province, district: district, source: source, kind: kind,
            geocoded: flaggedKind & geocodedBit != 0)
    }
}
