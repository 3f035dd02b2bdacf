import Glibc

extension AreaTable {
    /// Lays the table out: the record layout, the string arena, the records, the field lists.
    package func write(to writer: inout some FlatLayoutWriter) {
        let layout = RecordLayout.current.numbers
        writer.number(layout.count)
        for number in layout { writer.number(number) }
        writer.begin(.text)
        writer.column(strings.bytes)
        writer.begin(.records)
        writer.column(records)
        writer.column(fieldStarts)
        writer.column(fieldRefs)
    }

    /// Reads a table laid out by `write(to:)`, in place, after checking every byte a query could
    /// trust: each string is UTF-8 and each reference starts one, each position is a valid
    /// coordinate, each kind and flag byte is one this build writes, the field lists partition
    /// their references, and the ids are in strictly increasing order (the binary search by id
    /// relies on it). A file that fails any check is refused whole.
    package init(reading reader: inout some FlatLayoutReader) throws(FlatLayoutError) {
        let layoutCount = try reader.integer("the record layout's length", atMost: 64)
        var layout: [UInt64] = []
        for _ in 0..<layoutCount { layout.append(try reader.number()) }
        guard RecordLayout(numbers: layout) == RecordLayout.current else {
            throw FlatLayoutError("its areas are laid out as \(layout), this build lays them out as \(RecordLayout.current.numbers)")
        }
        let arena = try reader.column(of: UInt8.self)
        guard arena.count <= Int(UInt32.max) else { throw FlatLayoutError("a string arena of \(arena.count) bytes") }
        guard let starts = arena.withUnsafeBufferPointer(StringStarts.init(validating:)) else {
            throw FlatLayoutError("the string arena is not a run of length-prefixed UTF-8 strings")
        }
        let records = try reader.column(of: Record.self)
        let fieldStarts = try reader.column("the field list starts", of: UInt32.self, count: records.count + 1)
        let fieldRefs = try reader.column(of: StringArena.Ref.self)
        guard fieldRefs.count % 2 == 0 else { throw FlatLayoutError("an odd number (\(fieldRefs.count)) of field references") }
        try fieldRefs.withUnsafeBufferPointer { (refs) throws(FlatLayoutError) in
            for ref in refs where !starts.contains(ref) { throw FlatLayoutError("a field reference (\(ref)) that starts no string") }
        }
        try fieldStarts.withUnsafeBufferPointer { (starts) throws(FlatLayoutError) in
            guard starts.first == 0, starts.last.map({ Int($0) == fieldRefs.count / 2 }) == true else {
                throw FlatLayoutError("the field lists do not cover the \(fieldRefs.count / 2) fields")
            }
            for i in starts.indices.dropFirst() where starts[i] < starts[i - 1] {
                throw FlatLayoutError("the field list of area \(i - 1) ends before it starts")
            }
        }
        try Self.check(records, starts: starts, arena: arena)
        self.init(records: records, fieldStarts: fieldStarts, fieldRefs: fieldRefs, strings: StringArena(checkedBytes: arena))
    }

    /// Checks each record's bytes before any is read as a `Record` (a kind byte this build does
    /// not write is no `AreaKind` at all).
    private static func check(_ records: Column<Record>, starts: StringStarts, arena: Column<UInt8>) throws(FlatLayoutError) {
        let layout = RecordLayout.current
        let (stride, coordinate, kind, geocoded) = (layout.stride, layout.coordinate, layout.kind, layout.geocoded)
        let refOffsets = layout.stringReferences
        let nonsmoking = UInt8(layout.nonsmokingByte)
        let smoking: UInt8 = nonsmoking == 0 ? 1 : 0
        try records.withUnsafeBufferPointer { (typed) throws(FlatLayoutError) in
            guard let first = typed.baseAddress else { return }
            let base = UnsafeRawPointer(first)
            try arena.withUnsafeBufferPointer { (arena) throws(FlatLayoutError) in
                var previousID: UnsafeBufferPointer<UInt8>?
                for i in 0..<typed.count {
                    let record = base + i * stride
                    let kindByte = record.load(fromByteOffset: kind, as: UInt8.self)
                    guard kindByte == smoking || kindByte == nonsmoking else { throw FlatLayoutError("area \(i) has kind byte \(kindByte)") }
                    // The last two bytes are the reference day, where every value is a day.
                    guard record.load(fromByteOffset: geocoded, as: UInt8.self) <= 1
                    else { throw FlatLayoutError("area \(i) has flag bytes this build does not write") }
                    let latitude = record.load(fromByteOffset: coordinate, as: Double.self)
                    let longitude = record.load(fromByteOffset: coordinate + 8, as: Double.self)
                    guard (try? GeoPoint(latitude: latitude, longitude: longitude)) != nil else {
                        throw FlatLayoutError("area \(i) has coordinates \(latitude), \(longitude)")
                    }
                    for offset in refOffsets {
                        let ref = record.load(fromByteOffset: offset, as: StringArena.Ref.self)
                        guard starts.contains(ref) else { throw FlatLayoutError("area \(i) has a reference (\(ref)) that starts no string") }
                    }
                    let id = StringArena.utf8(record.load(fromByteOffset: layout.id, as: StringArena.Ref.self), in: arena)
                    if let previousID, !Self.bytes(previousID, precede: id) {
                        throw FlatLayoutError("area \(i)'s id does not sort after area \(i - 1)'s")
                    }
                    previousID = id
                }
            }
        }
    }

    /// Whether `a` sorts before `b` byte by byte (the order ids are kept in).
    private static func bytes(_ a: UnsafeBufferPointer<UInt8>, precede b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = Swift.min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }
}
