import Glibc

extension AreaTable {
    /// Lays the table out: the record layout, the records, the string arena, their fields
    /// (each area's values and key list, then the key lists).
    ///
    /// Every answer reads the records and the text they name, which leads the arena
    /// (`AnswerText`); the text only fields name ends it. Laid out in this order, what answers
    /// read is one run of the file and what they do not (the fields' text and lists) another,
    /// so the pages the kernel maps together around a read (large folios, fault-around) hold
    /// data the answers read, not the fields' text between the two.
    package func write(to writer: inout some FlatLayoutWriter) {
        let layout = RecordLayout.current.numbers
        writer.number(layout.count)
        for number in layout { writer.number(number) }
        writer.begin(.records)
        writer.column(records)
        writer.begin(.text)
        writer.column(strings.bytes)
        writer.begin(.records)
        writer.column(fields.starts)
        writer.column(fields.lists)
        writer.column(fields.values)
        writer.column(fields.listStarts)
        writer.column(fields.keys)
    }

    /// Reads a table laid out by `write(to:)`, in place, after checking every byte a query could
    /// trust: each string is UTF-8 and each reference starts one, each position is a valid
    /// coordinate, each kind and flag byte is one this build writes, the areas' values and the
    /// key lists partition their references, each area's key list is one of the lists and as
    /// long as its values, and the ids are in strictly increasing order (the binary search by
    /// id relies on it). A file that fails any check is refused whole.
    /// `keyedFields` false: fields as snapshots before format 11 store them (each area's keys
    /// and values alternating), read into key lists. `recordsFirst` false: the arena before
    /// the records, as snapshots before format 12 lay them out.
    package init(reading reader: inout some FlatLayoutReader, keyedFields: Bool = true, recordsFirst: Bool = true) throws(FlatLayoutError) {
        let layoutCount = try reader.integer("the record layout's length", atMost: 64)
        var layout: [UInt64] = []
        for _ in 0..<layoutCount { layout.append(try reader.number()) }
        guard RecordLayout(numbers: layout) == RecordLayout.current else {
            throw FlatLayoutError("its areas are laid out as \(layout), this build lays them out as \(RecordLayout.current.numbers)")
        }
        let recordsBefore = recordsFirst ? try reader.column(of: Record.self) : nil
        let arena = try reader.column(of: UInt8.self)
        guard arena.count <= Int(UInt32.max) else { throw FlatLayoutError("a string arena of \(arena.count) bytes") }
        guard let starts = arena.withUnsafeBufferPointer(StringStarts.init(validating:)) else {
            throw FlatLayoutError("the string arena is not a run of length-prefixed UTF-8 strings")
        }
        let records: Column<Record>
        if let recordsBefore { records = recordsBefore } else { records = try reader.column(of: Record.self) }
        let fields: Fields
        if keyedFields {
            let valueStarts = try reader.column("the field value starts", of: UInt32.self, count: records.count + 1)
            let lists = try reader.column("the areas' key lists", of: UInt32.self, count: records.count)
            let values = try reader.column(of: StringArena.Ref.self)
            let listStarts = try reader.column(of: UInt32.self)
            let keys = try reader.column(of: StringArena.Ref.self)
            try Self.check(values, "field value", starts: starts)
            try Self.check(keys, "field key", starts: starts)
            try Self.check(valueStarts, partitioning: values.count, "the areas' values")
            try Self.check(listStarts, partitioning: keys.count, "the key lists")
            for i in 0..<records.count {
                let list = Int(lists[i])
                guard list < listStarts.count - 1, listStarts[list + 1] - listStarts[list] == valueStarts[i + 1] - valueStarts[i] else {
                    throw FlatLayoutError("area \(i)'s key list (\(list)) is not one of the \(listStarts.count - 1) or not as long as its values")
                }
            }
            fields = Fields(starts: valueStarts, lists: lists, values: values, listStarts: listStarts, keys: keys)
        } else {
            let pairStarts = try reader.column("the field list starts", of: UInt32.self, count: records.count + 1)
            let pairs = try reader.column(of: StringArena.Ref.self)
            guard pairs.count % 2 == 0 else { throw FlatLayoutError("an odd number (\(pairs.count)) of field references") }
            try Self.check(pairs, "field", starts: starts)
            try Self.check(pairStarts, partitioning: pairs.count / 2, "the field lists")
            fields = pairStarts.withUnsafeBufferPointer { starts in pairs.withUnsafeBufferPointer { Fields(pairStarts: starts, pairs: $0) } }
        }
        try Self.check(records, starts: starts, arena: arena)
        self.init(records: records, fields: fields, strings: StringArena(checkedBytes: arena))
    }

    /// Checks that each of `refs` starts a string.
    private static func check(_ refs: Column<StringArena.Ref>, _ what: String, starts: StringStarts) throws(FlatLayoutError) {
        try refs.withUnsafeBufferPointer { (refs) throws(FlatLayoutError) in
            for ref in refs where !starts.contains(ref) { throw FlatLayoutError("a \(what) reference (\(ref)) that starts no string") }
        }
    }

    /// Checks that `starts` runs from 0 to `count` without going back: runs that cover
    /// `count` values in order.
    private static func check(_ starts: Column<UInt32>, partitioning count: Int, _ what: String) throws(FlatLayoutError) {
        try starts.withUnsafeBufferPointer { (starts) throws(FlatLayoutError) in
            guard starts.first == 0, starts.last.map({ Int($0) == count }) == true else {
                throw FlatLayoutError("\(what) do not cover the \(count) references")
            }
            for i in starts.indices.dropFirst() where starts[i] < starts[i - 1] {
                throw FlatLayoutError("\(what): run \(i - 1) ends before it starts")
            }
        }
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
