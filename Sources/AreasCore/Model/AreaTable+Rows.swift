extension AreaTable {
    /// Whether the area at `position` is the area at `otherPosition` of `other`: the same id,
    /// kind, position, names, addresses, source and upstream columns, compared as bytes (the
    /// two tables' strings live in different arenas).
    public func sameArea(at position: Int, as other: AreaTable, at otherPosition: Int) -> Bool {
        let a = records[position]
        let b = other.records[otherPosition]
        guard a.kind == b.kind, a.coordinate == b.coordinate else { return false }
        let ownFields = fieldRange(of: position)
        let otherFields = other.fieldRange(of: otherPosition)
        guard ownFields.count == otherFields.count else { return false }
        return withBuffers { mine in
            other.withBuffers { theirs in
                func same(_ x: StringArena.Ref, _ y: StringArena.Ref) -> Bool { mine.utf8(x).sameBytes(as: theirs.utf8(y)) }
                guard same(a.id, b.id), same(a.name, b.name), same(a.roadAddress, b.roadAddress),
                      same(a.lotAddress, b.lotAddress), same(a.province, b.province),
                      same(a.district, b.district), same(a.source, b.source) else { return false }
                for (x, y) in zip(ownFields, otherFields) {
                    guard same(mine.fieldRefs[2 * x], theirs.fieldRefs[2 * y]),
                          same(mine.fieldRefs[2 * x + 1], theirs.fieldRefs[2 * y + 1]) else { return false }
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
            var record = source.records[position]
            record.id = strings.intern(source.utf8(record.id))
            record.name = strings.intern(source.utf8(record.name))
            record.roadAddress = strings.intern(source.utf8(record.roadAddress))
            record.lotAddress = strings.intern(source.utf8(record.lotAddress))
            record.province = strings.intern(source.utf8(record.province))
            record.district = strings.intern(source.utf8(record.district))
            record.source = strings.intern(source.utf8(record.source))
            let range = table.fieldRange(of: position)
            var fields: [StringArena.Ref] = []
            fields.reserveCapacity(2 * range.count)
            for pair in range {
                fields.append(strings.intern(source.utf8(source.fieldRefs[2 * pair])))
                fields.append(strings.intern(source.utf8(source.fieldRefs[2 * pair + 1])))
            }
            append(record, fields: fields)
        }
    }
}
