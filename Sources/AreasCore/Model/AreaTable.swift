/// Every area of a data set, stored by column: one fixed-size record per area whose strings
/// are references into one `StringArena`.
///
/// An `Area` is 144 bytes inline plus a heap object for each long string and its field list;
/// a record is 48 bytes and all the text is one array, so a million areas take about a third
/// of the memory, load without a million allocations, and an answer reads each area from
/// two places instead of half a dozen. Subscripting still gives a whole `Area` for code that
/// wants one; the query paths read the columns.
public struct AreaTable: Sendable, RandomAccessCollection {
    /// One area's fixed-size part.
    public struct Record: Sendable, BitwiseCopyable {
        public var coordinate: GeoPoint
        public var id: StringArena.Ref
        public var name: StringArena.Ref
        public var roadAddress: StringArena.Ref
        public var lotAddress: StringArena.Ref
        public var province: StringArena.Ref
        public var district: StringArena.Ref
        public var source: StringArena.Ref
        public var kind: AreaKind
        /// The position came from a geocoder, not from the published data.
        public var geocoded: Bool
        /// The day the publisher states the record's data for (`ReferenceDate.day`), 0 when it
        /// states none. It fills the record's last two bytes, so every byte of a record is
        /// defined and a snapshot that stores records as they lie in memory holds no stray bytes.
        public var referenceDay: UInt16 = 0

        package init(
            coordinate: GeoPoint, id: StringArena.Ref, name: StringArena.Ref, roadAddress: StringArena.Ref,
            lotAddress: StringArena.Ref, province: StringArena.Ref, district: StringArena.Ref,
            source: StringArena.Ref, kind: AreaKind, geocoded: Bool = false, referenceDay: UInt16 = 0
        ) {
            self.coordinate = coordinate
            self.id = id
            self.name = name
            self.roadAddress = roadAddress
            self.lotAddress = lotAddress
            self.province = province
            self.district = district
            self.source = source
            self.kind = kind
            self.geocoded = geocoded
            self.referenceDay = referenceDay
        }

        /// The date the publisher states, if any.
        public var referenceDate: ReferenceDate? { ReferenceDate(day: referenceDay) }

        /// The address a person would look for: the road address, else the lot address.
        public var address: StringArena.Ref { roadAddress == StringArena.empty ? lotAddress : roadAddress }

        /// Calls `body` with each string the record names: its id, name, addresses, region and
        /// source, in that order.
        func forEachString(_ body: (StringArena.Ref) throws -> Void) rethrows {
            _ = try movingStrings { ref in
                try body(ref)
                return ref
            }
        }

        /// The record with each string it names replaced by what `move` gives for it.
        func movingStrings(_ move: (StringArena.Ref) throws -> StringArena.Ref) rethrows -> Record {
            var record = self
            record.id = try move(id)
            record.name = try move(name)
            record.roadAddress = try move(roadAddress)
            record.lotAddress = try move(lotAddress)
            record.province = try move(province)
            record.district = try move(district)
            record.source = try move(source)
            return record
        }
    }

    public let records: Column<Record>
    /// Each area's upstream columns.
    @usableFromInline let fields: Fields
    public let strings: StringArena

    init(records: Column<Record>, fields: Fields, strings: StringArena) {
        self.records = records
        self.fields = fields
        self.strings = strings
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    /// The whole area, with its strings made (for code that wants an `Area`, not for hot paths).
    public subscript(position: Int) -> Area {
        let record = records[position]
        var fields: [Field] = []
        self.fields.forEach(of: position) { key, value in fields.append(Field(strings.string(key), strings.string(value))) }
        return Area(
            id: strings.string(record.id), kind: record.kind, name: strings.string(record.name), coordinate: record.coordinate,
            roadAddress: strings.string(record.roadAddress), lotAddress: strings.string(record.lotAddress),
            province: strings.string(record.province), district: strings.string(record.district),
            source: strings.string(record.source), fields: fields, geocoded: record.geocoded,
            referenceDate: record.referenceDate)
    }

    /// The value of the upstream column `key` of the area at `position`, if the source published it.
    public func field(_ key: String, of position: Int) -> String? {
        fieldRef(key, of: position).map(strings.string)
    }

    /// The reference of the value of the upstream column `key` of the area at `position`.
    public func fieldRef(_ key: String, of position: Int) -> StringArena.Ref? {
        var key = key
        return key.withUTF8 { key in
            var keyAt = fields.firstKey(of: position)
            for value in fields.valueRange(of: position) {
                if strings.compare(fields.keys[keyAt], key) == 0 { return fields.values[value] }
                keyAt += 1
            }
            return nil
        }
    }

    /// Whether `ref` is the reference of one of the values of the area at `position`.
    func hasFieldValue(_ ref: StringArena.Ref, at position: Int) -> Bool {
        fields.valueRange(of: position).contains { fields.values[$0] == ref }
    }

    public func id(at position: Int) -> String { strings.string(records[position].id) }

    /// The table's arrays borrowed in place, for loops that read many areas.
    public struct Buffers {
        public let records: UnsafeBufferPointer<Record>
        @usableFromInline let fieldStarts: UnsafeBufferPointer<UInt32>
        @usableFromInline let fieldLists: UnsafeBufferPointer<UInt32>
        @usableFromInline let fieldValues: UnsafeBufferPointer<StringArena.Ref>
        @usableFromInline let keyListStarts: UnsafeBufferPointer<UInt32>
        @usableFromInline let keys: UnsafeBufferPointer<StringArena.Ref>
        @usableFromInline let arena: UnsafeBufferPointer<UInt8>

        @usableFromInline
        init(records: UnsafeBufferPointer<Record>, fields: Fields, arena: UnsafeBufferPointer<UInt8>) {
            // The columns are held by the table for as long as `withBuffers` runs.
            self.records = records
            self.fieldStarts = fields.starts.unsafeBuffer
            self.fieldLists = fields.lists.unsafeBuffer
            self.fieldValues = fields.values.unsafeBuffer
            self.keyListStarts = fields.listStarts.unsafeBuffer
            self.keys = fields.keys.unsafeBuffer
            self.arena = arena
        }

        /// The UTF-8 bytes of the string at `ref`.
        @inlinable
        public func utf8(_ ref: StringArena.Ref) -> UnsafeBufferPointer<UInt8> { StringArena.utf8(ref, in: arena) }

        /// Starts loading the record at `position`, for a read that comes soon.
        @inlinable
        package func prefetchRecord(at position: Int) {
            guard let base = records.baseAddress else { return }
            MemoryHints.prefetch(base + position, bytes: MemoryLayout<Record>.stride)
        }

        /// Starts loading the text of the string at `ref` (its length and first bytes).
        @inlinable
        package func prefetchText(_ ref: StringArena.Ref) {
            guard let base = arena.baseAddress, Int(ref) < arena.count else { return }
            MemoryHints.prefetch(base + Int(ref), bytes: 32)
        }

        /// How many upstream columns the area at `position` has.
        @inlinable
        public func fieldCount(of position: Int) -> Int {
            Int(fieldStarts[position + 1] - fieldStarts[position])
        }

        /// Calls `body` with the references of each upstream column of the area at `position`.
        @inlinable
        public func forEachFieldRef(of position: Int, _ body: (StringArena.Ref, StringArena.Ref) -> Void) {
            Fields.forEach(of: position, starts: fieldStarts, lists: fieldLists, values: fieldValues, listStarts: keyListStarts, keys: keys, body)
        }

        /// Calls `body` with each upstream column of the area at `position`, as UTF-8 key and value.
        @inlinable
        public func forEachField(of position: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
            forEachFieldRef(of: position) { key, value in body(utf8(key), utf8(value)) }
        }
    }

    @inlinable
    public func withBuffers<R>(_ body: (Buffers) throws -> R) rethrows -> R {
        try withExtendedLifetime(fields) {
            try records.withUnsafeBufferPointer { records in
                try strings.bytes.withUnsafeBufferPointer { arena in
                    try body(Buffers(records: records, fields: fields, arena: arena))
                }
            }
        }
    }

    /// Bytes held by the records and their fields, without the text.
    public var recordByteCount: Int {
        records.count * MemoryLayout<Record>.stride + fields.byteCount
    }
}

extension AreaTable {
    public init() {
        self.init(areas: [])
    }

    /// Stores `areas` in their order, each distinct string once.
    public init(areas: some Collection<Area>) {
        var builder = Builder(capacity: areas.count)
        for area in areas { builder.append(area) }
        self = builder.build()
    }

    /// The position of the area with `id`, by binary search (the table must be in id order).
    public func position(of id: String) -> Int? {
        var id = id
        return id.withUTF8 { key in
            var low = 0
            var high = records.count
            while low < high {
                let mid = (low + high) / 2
                if strings.compare(records[mid].id, key) < 0 { low = mid + 1 } else { high = mid }
            }
            return low < records.count && strings.compare(records[low].id, key) == 0 ? low : nil
        }
    }

    /// The position of `id`, every record before `start` known to sort before it: the search
    /// gallops forward from `start`, so asking the ids of a sorted list in turn, each from the
    /// `next` of the one before, reads the table once from start to end rather than searching
    /// all of it for each. `next` is where `id` is or would be.
    package func position(of id: String, from start: Int) -> (position: Int?, next: Int) {
        var id = id
        return id.withUTF8 { key in
            var low = Swift.min(Swift.max(start, 0), records.count)
            var high = low
            var stride = 1
            while high < records.count && strings.compare(records[high].id, key) < 0 {
                low = high + 1
                high = low + stride
                stride *= 2
            }
            high = Swift.min(high, records.count)
            while low < high {
                let mid = (low + high) / 2
                if strings.compare(records[mid].id, key) < 0 { low = mid + 1 } else { high = mid }
            }
            return (low < records.count && strings.compare(records[low].id, key) == 0 ? low : nil, low)
        }
    }
}
