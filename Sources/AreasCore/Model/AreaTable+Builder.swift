extension AreaTable {
    /// Assembles a table row by row.
    ///
    /// Building hands each part over to the table's columns and lets it go before the next, so
    /// a large source is held twice over only one part at a time, never whole: the refresh's
    /// peak memory is set by how many copies of a source's rows live at once.
    public struct Builder {
        public var strings = StringArena.Builder()
        private var records: [Record] = []
        private var fields = Fields.Builder()

        public init(capacity: Int) {
            reserveCapacity(capacity)
        }

        public mutating func append(_ area: Area) {
            let record = Record(
                coordinate: area.coordinate, id: strings.intern(area.id), name: strings.intern(area.name),
                roadAddress: strings.intern(area.roadAddress), lotAddress: strings.intern(area.lotAddress),
                province: strings.intern(area.province), district: strings.intern(area.district),
                source: strings.intern(area.source), kind: area.kind, geocoded: area.geocoded,
                referenceDay: area.referenceDate?.day ?? 0)
            records.append(record)
            fields.append(keys: area.fields.map { strings.intern($0.key) }, values: area.fields.map { strings.intern($0.value) })
        }

        /// Appends a record whose strings are already in `strings`; `fields` alternates keys and values.
        public mutating func append(_ record: Record, fields: some Sequence<StringArena.Ref>) {
            records.append(record)
            self.fields.append(fields)
        }

        public var count: Int { records.count }

        /// The row appended `position`th, whole (for the rare row read again: a source's row
        /// that a later one repeats).
        public func area(at position: Int) -> Area {
            let record = records[position]
            var fields: [Field] = []
            self.fields.forEach(of: position) { key, value in fields.append(Field(strings.string(key), strings.string(value))) }
            return Area(
                id: strings.string(record.id), kind: record.kind, name: strings.string(record.name), coordinate: record.coordinate,
                roadAddress: strings.string(record.roadAddress), lotAddress: strings.string(record.lotAddress),
                province: strings.string(record.province), district: strings.string(record.district),
                source: strings.string(record.source), fields: fields, geocoded: record.geocoded, referenceDate: record.referenceDate)
        }

        public mutating func reserveCapacity(_ count: Int) {
            records.reserveCapacity(count)
            fields.reserveCapacity(rows: count)
        }

        /// Room for `rows` rows in all, shaped like the ones appended so far (their fields and
        /// new text per row), so that a source whose size is known early grows no array by
        /// doubling (a doubling holds the old array and the new one at once). Nothing when no
        /// row is in yet to go by. The count comes from upstream, so it is taken only up to
        /// `reservableRows`: a page that claims a billion rows reserves no more than a real
        /// nationwide data set needs, and past that the arrays grow as rows come.
        public mutating func reserveCapacity(forRows claimed: Int) {
            let rows = Swift.min(claimed, Self.reservableRows)
            guard !records.isEmpty, rows > records.count else { return }
            let scale = Double(rows) / Double(records.count)
            reserveCapacity(rows)
            fields.reserveCapacity(values: Int(Double(fields.valueCount) * scale * 1.05))
            strings.reserveCapacity(Int(Double(strings.byteCount) * scale * 1.05), strings: Int(Double(strings.refs.count) * scale * 1.05))
        }

        /// The most rows `reserveCapacity(forRows:)` makes room for at once.
        static let reservableRows = 1_000_000

        /// The table, leaving the builder empty.
        public mutating func build() -> AreaTable {
            build(strings: strings.take())
        }

        /// The table of the rows as appended, `strings` their text.
        private mutating func build(strings: StringArena) -> AreaTable {
            let records = Column(taking(&self.records, leaving: []))
            return AreaTable(records: records, fields: fields.build(), strings: strings)
        }

        /// The table in id order, keeping the first of any repeated id, leaving the builder
        /// empty. Rows come in id order when a source serves them so; otherwise they are
        /// copied into their places, one part at a time.
        ///
        /// The text's lookup table goes first: the copies into id order, a refresh's peak, then
        /// share it only with the rows themselves.
        public mutating func buildSortedByID() -> AreaTable {
            let strings = self.strings.take()
            let order = strings.bytes.withUnsafeBufferPointer { text in
                self.records.withUnsafeBufferPointer { AreaTable.idOrder(of: $0, text: text) }
            }
            guard let order else { return build(strings: strings) }
            let sorted = taking(&self.records, leaving: []).withUnsafeBufferPointer { AreaTable.records(order, of: $0) }
            return AreaTable(records: sorted, fields: fields.build(inOrder: order), strings: strings)
        }
    }

    /// The same areas in id order, keeping the first of any repeated id.
    ///
    /// Data sets arrive in id order (each source keeps its areas sorted, and sources are
    /// concatenated in name order), so this is usually one linear check.
    public func sortedByID() -> AreaTable {
        let order = strings.bytes.withUnsafeBufferPointer { text in
            records.withUnsafeBufferPointer { AreaTable.idOrder(of: $0, text: text) }
        }
        guard let order else { return self }
        return AreaTable(records: records.withUnsafeBufferPointer { AreaTable.records(order, of: $0) }, fields: fields.rows(order), strings: strings)
    }

    /// The positions of the rows to keep, in id order, the first of any repeated id kept; nil
    /// when the rows are in id order already, with no id repeated. `text` is the arena the
    /// ids lie in.
    static func idOrder(of records: UnsafeBufferPointer<Record>, text: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
        func precedes(_ a: Int, _ b: Int) -> Bool {
            StringArena.utf8(records[a].id, in: text).lexicographicallyPrecedes(StringArena.utf8(records[b].id, in: text))
        }
        if records.indices.dropFirst().allSatisfy({ precedes($0 - 1, $0) }) { return nil }
        var order = (0..<UInt32(records.count)).map { $0 }
        // Stable for equal ids: the first of a repeated id comes first and is the one kept.
        order.sort { a, b in
            precedes(Int(a), Int(b)) || (!precedes(Int(b), Int(a)) && a < b)
        }
        var kept = 0
        for position in order where kept == 0 || precedes(Int(order[kept - 1]), Int(position)) {
            order[kept] = position
            kept += 1
        }
        order.removeLast(order.count - kept)
        return order
    }

    /// The records at `order`, in that order.
    static func records(_ order: [UInt32], of records: UnsafeBufferPointer<Record>) -> Column<Record> {
        Column(unsafeUninitializedCount: order.count) { sorted in
            for (i, position) in order.enumerated() { sorted.initializeElement(at: i, to: records[Int(position)]) }
        }
    }
}
