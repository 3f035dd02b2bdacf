extension AreaTable {
    /// Whether the area at `position` is the area at `otherPosition` of `other`: the same id,
    /// kind, position (and whether it was geocoded), reference date, names, addresses, source and upstream
    /// columns, compared as bytes (the two tables' strings live in different arenas).
    /// `idsMatch`: the caller found the two ids the same already (a walk pairing them by id).
    public func sameArea(at position: Int, as other: AreaTable, at otherPosition: Int, idsMatch: Bool = false) -> Bool {
        let a = records[position]
        let b = other.records[otherPosition]
        guard a.kind == b.kind, a.geocoded == b.geocoded, a.referenceDay == b.referenceDay, a.coordinate == b.coordinate else { return false }
        let ownValues = fields.valueRange(of: position)
        let otherValues = other.fields.valueRange(of: otherPosition)
        guard ownValues.count == otherValues.count else { return false }
        let (ownKeys, otherKeys) = (fields.firstKey(of: position), other.fields.firstKey(of: otherPosition))
        return withBuffers { mine in
            other.withBuffers { theirs in
                func same(_ x: StringArena.Ref, _ y: StringArena.Ref) -> Bool { mine.utf8(x).sameBytes(as: theirs.utf8(y)) }
                guard idsMatch || same(a.id, b.id), same(a.name, b.name), same(a.roadAddress, b.roadAddress),
                      same(a.lotAddress, b.lotAddress), same(a.province, b.province),
                      same(a.district, b.district), same(a.source, b.source) else { return false }
                for k in 0..<ownValues.count {
                    guard same(mine.keys[ownKeys + k], theirs.keys[otherKeys + k]),
                          same(mine.fieldValues[ownValues.lowerBound + k], theirs.fieldValues[otherValues.lowerBound + k]) else { return false }
                }
                return true
            }
        }
    }
}

extension AreaTable: Equatable {
    /// The same areas in the same order, whatever the layout of their text.
    public static func == (a: AreaTable, b: AreaTable) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a.sameArea(at: $0, as: b, at: $0) }
    }
}

extension AreaTable.Builder {
    /// Appends the area at `position` of `table`, its strings stored in this table's arena.
    public mutating func append(_ position: Int, of table: AreaTable) {
        table.withBuffers { source in
            let record = answerText(of: source.records[position], in: source)
            var fields: [StringArena.Ref] = []
            fields.reserveCapacity(2 * source.fieldCount(of: position))
            source.forEachFieldRef(of: position) { key, value in
                fields.append(strings.intern(source.utf8(key)))
                fields.append(strings.intern(source.utf8(value)))
            }
            append(record, fields: fields)
        }
    }

    /// Stores the strings answers read of the area at `position` of `table` (`AnswerText`),
    /// without appending the area: a builder given every row's this way before appending the
    /// rows lays its text out answers' strings first, as a concatenation does.
    public mutating func storeAnswerText(of position: Int, of table: AreaTable) {
        table.withBuffers { _ = answerText(of: $0.records[position], in: $0) }
    }

    /// `record` with the strings answers read stored in this table's arena.
    private mutating func answerText(of record: AreaTable.Record, in source: AreaTable.Buffers) -> AreaTable.Record {
        record.movingStrings { strings.intern(source.utf8($0)) }
    }
}

extension AreaTable {
    /// `tables` one after another, each table's text copied rather than stored string by
    /// string: no string is looked up, so this costs a copy of the bytes. A string two tables
    /// share is then held twice. The text the answers read comes first, every table's, then
    /// the text only the upstream fields name (`AnswerText`); a single table already laid out
    /// so comes back uncopied. Each table is let go once copied (when the caller holds it no
    /// more), so the tables and their concatenation are never all held at once.
    public init(concatenating tables: consuming [AreaTable]) {
        let marks = tables.map { table in table.withBuffers { AnswerText(records: $0.records, arena: $0.arena) } }
        if tables.count == 1 && marks[0].leads {
            self = tables[0]
            return
        }
        let text = tables.reduce(1) { $0 + Swift.max($1.strings.byteCount - 1, 0) }
        precondition(text <= Int(UInt32.max), "more than 4 GiB of area text")
        let records = Column<Record>.Unfilled(count: tables.reduce(0) { $0 + $1.count })
        let fieldStarts = Column<UInt32>.Unfilled(count: records.buffer.count + 1)
        let fieldLists = Column<UInt32>.Unfilled(count: records.buffer.count)
        let fieldValues = Column<StringArena.Ref>.Unfilled(count: tables.reduce(0) { $0 + $1.fields.values.count })
        let listStarts = Column<UInt32>.Unfilled(count: tables.reduce(1) { $0 + $1.fields.listStarts.count - 1 })
        let keys = Column<StringArena.Ref>.Unfilled(count: tables.reduce(0) { $0 + $1.fields.keys.count })
        let arena = Column<UInt8>.Unfilled(count: text)
        arena.buffer[0] = 0  // the empty string
        fieldStarts.buffer[0] = 0
        listStarts.buffer[0] = 0
        var (recordCount, valueCount, listCount, keyCount) = (0, 0, 0, 0)
        var (answerCount, fieldTextCount) = (1, 1 + marks.reduce(0) { $0 + $1.byteCount })
        tables.reverse()
        var tableNumber = 0
        while let table = tables.popLast() {
            let marks = marks[tableNumber]
            tableNumber += 1
            let (answerBase, fieldBase) = (answerCount, fieldTextCount)
            func moved(_ ref: StringArena.Ref) -> StringArena.Ref { marks.moved(ref, answerBase: answerBase, fieldBase: fieldBase) }
            // The table's columns are taken apart and each is let go as soon as it is copied:
            // the largest source of a refresh (most of the areas) is then never held whole
            // beside its copy, only its largest column.
            var text: Column<UInt8>? = table.strings.bytes
            var rows: (records: Column<Record>, lists: Column<UInt32>, starts: Column<UInt32>)? = (table.records, table.fields.lists, table.fields.starts)
            var values: Column<StringArena.Ref>? = table.fields.values
            let (partListStarts, partKeys) = (table.fields.listStarts, table.fields.keys)
            _ = consume table
            text?.withUnsafeBufferPointer { partArena in
                // String by string, each to its kind's next place.
                var offset = 1
                while offset < partArena.count {
                    let end = StringArena.end(of: StringArena.Ref(offset), in: partArena)
                    let isAnswer = marks.isAnswerText(offset)
                    let to = isAnswer ? answerCount : fieldTextCount
                    _ = UnsafeMutableBufferPointer(rebasing: arena.buffer[to..<to + end - offset]).initialize(fromContentsOf: partArena[offset..<end])
                    if isAnswer { answerCount += end - offset } else { fieldTextCount += end - offset }
                    offset = end
                }
            }
            text = nil
            let (valueBase, listBase) = (UInt32(valueCount), UInt32(listCount))
            if let rows {
                for (position, record) in rows.records.enumerated() {
                    records.buffer[recordCount] = record.movingStrings(moved)
                    fieldLists.buffer[recordCount] = listBase + rows.lists[position]
                    recordCount += 1
                    fieldStarts.buffer[recordCount] = valueBase + rows.starts[position + 1]
                }
            }
            rows = nil
            for ref in values ?? Column() {
                fieldValues.buffer[valueCount] = moved(ref)
                valueCount += 1
            }
            values = nil
            let keyBase = UInt32(keyCount)
            for start in partListStarts.dropFirst() {
                listCount += 1
                listStarts.buffer[listCount] = keyBase + start
            }
            for ref in partKeys {
                keys.buffer[keyCount] = moved(ref)
                keyCount += 1
            }
        }
        let fields = Fields(starts: fieldStarts.column, lists: fieldLists.column, values: fieldValues.column, listStarts: listStarts.column, keys: keys.column)
        self.init(records: records.column, fields: fields, strings: StringArena(checkedBytes: arena.column))
    }

    /// A table from its parts as snapshots before format 11 store them; the caller has checked
    /// that every reference starts a string of `arena` and that `fieldStarts` is a valid
    /// partition of `fieldRefs`' pairs (key and value alternating).
    package init(checkedRecords records: [Record], fieldStarts: [UInt32], fieldRefs: [StringArena.Ref], arena: [UInt8]) {
        let fields = fieldStarts.withUnsafeBufferPointer { starts in fieldRefs.withUnsafeBufferPointer { Fields(pairStarts: starts, pairs: $0) } }
        self.init(records: Column(records), fields: fields, strings: StringArena(bytes: arena))
    }
}
