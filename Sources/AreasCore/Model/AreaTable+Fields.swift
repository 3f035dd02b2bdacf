extension AreaTable {
    /// The upstream columns of every area, as keys and values.
    ///
    /// Rows a source publishes alike name the same columns in the same order (the zones API's
    /// sixteen in every row), so a row keeps its values and the number of its key list, and
    /// each distinct list of keys is kept once: half the references of storing every key
    /// beside its value, in memory, in the snapshot, and while a refresh builds the table.
    public struct Fields: Sendable {
        /// Area `i`'s values are `values[starts[i]..<starts[i + 1]]`.
        @usableFromInline let starts: Column<UInt32>
        /// Area `i`'s keys are key list `lists[i]`, as many as its values.
        @usableFromInline let lists: Column<UInt32>
        @usableFromInline let values: Column<StringArena.Ref>
        /// Key list `l` is `keys[listStarts[l]..<listStarts[l + 1]]`.
        @usableFromInline let listStarts: Column<UInt32>
        @usableFromInline let keys: Column<StringArena.Ref>

        init(starts: Column<UInt32>, lists: Column<UInt32>, values: Column<StringArena.Ref>, listStarts: Column<UInt32>, keys: Column<StringArena.Ref>) {
            self.starts = starts
            self.lists = lists
            self.values = values
            self.listStarts = listStarts
            self.keys = keys
        }

        /// No area's.
        static var none: Fields { Fields(starts: Column([0]), lists: Column(), values: Column(), listStarts: Column([0]), keys: Column()) }

        /// The positions in `values` of area `position`'s values.
        func valueRange(of position: Int) -> Range<Int> { Int(starts[position])..<Int(starts[position + 1]) }

        /// The position in `keys` of the key of area `position`'s first value.
        func firstKey(of position: Int) -> Int { Int(listStarts[Int(lists[position])]) }

        /// Calls `body` with the key and value references of each column of area `position`.
        func forEach(of position: Int, _ body: (StringArena.Ref, StringArena.Ref) -> Void) {
            Self.forEach(of: position, starts: starts, lists: lists, values: values, listStarts: listStarts, keys: keys, body)
        }

        /// Calls `body` with the key and value references of each column of row `row`, of
        /// fields laid out as `starts`, `lists`, `values`, `listStarts` and `keys` (columns, a
        /// builder's arrays, or the buffers a loop borrows).
        @inlinable
        static func forEach<Numbers: RandomAccessCollection<UInt32>, Refs: RandomAccessCollection<StringArena.Ref>>(
            of row: Int, starts: Numbers, lists: Numbers, values: Refs, listStarts: Numbers, keys: Refs,
            _ body: (StringArena.Ref, StringArena.Ref) -> Void
        ) where Numbers.Index == Int, Refs.Index == Int {
            var key = Int(listStarts[Int(lists[row])])
            for value in Int(starts[row])..<Int(starts[row + 1]) {
                body(keys[key], values[value])
                key += 1
            }
        }

        /// Bytes held by the columns.
        var byteCount: Int { (starts.count + lists.count + values.count + listStarts.count + keys.count) * 4 }

        /// The fields of the rows at `order`, in that order (the key lists as they are).
        func rows(_ order: [UInt32]) -> Fields {
            starts.withUnsafeBufferPointer { starts in
                lists.withUnsafeBufferPointer { lists in
                    values.withUnsafeBufferPointer { values in
                        Self.rows(order, starts: starts, lists: lists, values: values, listStarts: listStarts, keys: keys)
                    }
                }
            }
        }

        /// The rows at `order` of fields laid out as `starts`, `lists` and `values`, in that
        /// order, with the key lists `listStarts` and `keys`.
        static func rows(_ order: [UInt32], starts: UnsafeBufferPointer<UInt32>, lists: UnsafeBufferPointer<UInt32>, values: UnsafeBufferPointer<StringArena.Ref>,
                         listStarts: Column<UInt32>, keys: Column<StringArena.Ref>) -> Fields {
            var count: UInt32 = 0
            let sortedStarts = Column<UInt32>(unsafeUninitializedCount: order.count + 1) { sorted in
                sorted.initializeElement(at: 0, to: 0)
                for (i, position) in order.enumerated() {
                    count += starts[Int(position) + 1] - starts[Int(position)]
                    sorted.initializeElement(at: i + 1, to: count)
                }
            }
            let sortedLists = Column<UInt32>(unsafeUninitializedCount: order.count) { sorted in
                for (i, position) in order.enumerated() { sorted.initializeElement(at: i, to: lists[Int(position)]) }
            }
            let sortedValues = Column<StringArena.Ref>(unsafeUninitializedCount: Int(count)) { sorted in
                var next = 0
                for position in order {
                    for value in values[Int(starts[Int(position)])..<Int(starts[Int(position) + 1])] {
                        sorted.initializeElement(at: next, to: value)
                        next += 1
                    }
                }
            }
            return Fields(starts: sortedStarts, lists: sortedLists, values: sortedValues, listStarts: listStarts, keys: keys)
        }

        /// Fields as snapshots before format 11 store them: area `i`'s columns are pairs
        /// `pairStarts[i]..<pairStarts[i + 1]` of `pairs`, key and value alternating (checked
        /// by the caller).
        init(pairStarts: UnsafeBufferPointer<UInt32>, pairs: UnsafeBufferPointer<StringArena.Ref>) {
            var builder = Builder(rows: Swift.max(pairStarts.count - 1, 0))
            for row in 0..<Swift.max(pairStarts.count - 1, 0) {
                builder.append(pairs[2 * Int(pairStarts[row])..<2 * Int(pairStarts[row + 1])])
            }
            self = builder.build()
        }

        /// Fields row by row, each distinct key list kept once.
        struct Builder {
            private var starts: [UInt32] = [0]
            private var lists: [UInt32] = []
            private var values: [StringArena.Ref] = []
            private var listStarts: [UInt32] = [0]
            private var keys: [StringArena.Ref] = []
            private var listNumbers: [[StringArena.Ref]: UInt32] = [:]
            /// The row being appended's keys, kept to look its list up without a new array.
            private var rowKeys: [StringArena.Ref] = []

            init(rows: Int = 0) {
                reserveCapacity(rows: rows)
            }

            var rowCount: Int { lists.count }
            var valueCount: Int { values.count }

            mutating func reserveCapacity(rows: Int) {
                starts.reserveCapacity(rows + 1)
                lists.reserveCapacity(rows)
            }

            mutating func reserveCapacity(values count: Int) {
                values.reserveCapacity(count)
            }

            /// Appends a row whose columns are `pairs`, key and value alternating.
            mutating func append(_ pairs: some Sequence<StringArena.Ref>) {
                rowKeys.removeAll(keepingCapacity: true)
                var isKey = true
                for ref in pairs {
                    if isKey { rowKeys.append(ref) } else { values.append(ref) }
                    isKey.toggle()
                }
                endRow()
            }

            /// Appends a row of `keys` and `rowValues`, one for one.
            mutating func append(keys rowKeys: some Sequence<StringArena.Ref>, values rowValues: some Sequence<StringArena.Ref>) {
                self.rowKeys.removeAll(keepingCapacity: true)
                self.rowKeys.append(contentsOf: rowKeys)
                values.append(contentsOf: rowValues)
                endRow()
            }

            private mutating func endRow() {
                if let number = listNumbers[rowKeys] {
                    lists.append(number)
                } else {
                    let number = UInt32(listNumbers.count)
                    listNumbers[rowKeys] = number
                    keys.append(contentsOf: rowKeys)
                    listStarts.append(UInt32(keys.count))
                    lists.append(number)
                }
                starts.append(UInt32(values.count))
            }

            /// Row `position`'s key and value references, in order.
            func forEach(of position: Int, _ body: (StringArena.Ref, StringArena.Ref) -> Void) {
                Fields.forEach(of: position, starts: starts, lists: lists, values: values, listStarts: listStarts, keys: keys, body)
            }

            /// The fields, leaving the builder empty; each part is handed over and let go
            /// before the next is made.
            mutating func build() -> Fields {
                letGoOfLookups()
                let starts = Column(taking(&self.starts, leaving: [0]))
                let lists = Column(taking(&self.lists, leaving: []))
                let values = Column(taking(&self.values, leaving: []))
                let listStarts = Column(taking(&self.listStarts, leaving: [0]))
                return Fields(starts: starts, lists: lists, values: values, listStarts: listStarts, keys: Column(taking(&keys, leaving: [])))
            }

            /// The fields of the rows at `order`, in that order, leaving the builder empty:
            /// copied once from the rows as appended.
            mutating func build(inOrder order: [UInt32]) -> Fields {
                letGoOfLookups()
                let (listStarts, keys) = (Column(taking(&self.listStarts, leaving: [0])), Column(taking(&self.keys, leaving: [])))
                let (starts, lists, values) = (taking(&self.starts, leaving: [0]), taking(&self.lists, leaving: []), taking(&self.values, leaving: []))
                return starts.withUnsafeBufferPointer { starts in
                    lists.withUnsafeBufferPointer { lists in
                        values.withUnsafeBufferPointer { values in
                            Fields.rows(order, starts: starts, lists: lists, values: values, listStarts: listStarts, keys: keys)
                        }
                    }
                }
            }

            private mutating func letGoOfLookups() {
                listNumbers = [:]
                rowKeys = []
            }
        }
    }
}

/// `array`'s elements, `array` left holding `empty`: the only reference, so letting go of the
/// result frees them.
func taking<T>(_ array: inout [T], leaving empty: [T]) -> [T] {
    var taken = empty
    swap(&taken, &array)
    return taken
}
