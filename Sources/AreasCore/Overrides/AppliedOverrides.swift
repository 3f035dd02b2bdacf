/// The operator's corrections as an index applied them: which areas they touched, how, and
/// the note each line gave, by the position of the area's leading record.
///
/// Few areas are touched (a handful of lines), so they are kept as a short sorted column and
/// found by binary search; an index without corrections has none and pays one check.
public struct AppliedOverrides: Sendable {
    /// What happened to an area; several lines may touch one.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let hidden = Flags(rawValue: 1)
        public static let moved = Flags(rawValue: 2)
        public static let renamed = Flags(rawValue: 4)
        public static let added = Flags(rawValue: 8)
    }

    /// Leading positions, ascending.
    public let positions: Column<UInt32>
    let flags: Column<UInt8>
    /// Note i is `noteBytes[noteStarts[i]..<noteStarts[i + 1]]` (UTF-8).
    let noteStarts: Column<UInt32>
    let noteBytes: Column<UInt8>
    /// `AreaOverride.fingerprint` of the lines applied.
    public let fingerprint: UInt64

    public static let none = AppliedOverrides(positions: Column(), flags: Column(), noteStarts: Column(), noteBytes: Column(), fingerprint: 0)

    init(positions: Column<UInt32>, flags: Column<UInt8>, noteStarts: Column<UInt32>, noteBytes: Column<UInt8>, fingerprint: UInt64) {
        self.positions = positions
        self.flags = flags
        self.noteStarts = noteStarts
        self.noteBytes = noteBytes
        self.fingerprint = fingerprint
    }

    /// From per-position flags and notes (notes of one area joined with "; ").
    init(_ touched: [Int: (Flags, [String])], fingerprint: UInt64) {
        let sorted = touched.keys.sorted()
        var starts: [UInt32] = [0]
        var bytes: [UInt8] = []
        for position in sorted {
            bytes += Array((touched[position]?.1 ?? []).filter { !$0.isEmpty }.joined(separator: "; ").utf8)
            starts.append(UInt32(bytes.count))
        }
        self.init(positions: Column(sorted.map { UInt32($0) }), flags: Column(sorted.map { touched[$0]?.0.rawValue ?? 0 }),
                  noteStarts: Column(starts), noteBytes: Column(bytes), fingerprint: fingerprint)
    }

    public var isEmpty: Bool { positions.isEmpty }

    /// Where `position` is in `positions`, if there.
    func index(of position: Int) -> Int? {
        var low = 0
        var high = positions.count
        while low < high {
            let mid = (low + high) / 2
            if Int(positions[mid]) < position { low = mid + 1 } else { high = mid }
        }
        return low < positions.count && Int(positions[low]) == position ? low : nil
    }

    /// What the corrections did to the area led by `position` (empty when nothing).
    public func flags(of position: Int) -> Flags {
        guard !isEmpty, let i = index(of: position) else { return [] }
        return Flags(rawValue: flags[i])
    }

    /// The notes of the lines that touched the area led by `position`.
    public func note(of position: Int) -> String? {
        guard !isEmpty, let i = index(of: position) else { return nil }
        let range = Int(noteStarts[i])..<Int(noteStarts[i + 1])
        guard !range.isEmpty else { return nil }
        return String(decoding: noteBytes[range], as: UTF8.self)
    }

    /// Whether the area led by `position` is hidden.
    public func hides(_ position: Int) -> Bool { flags(of: position).contains(.hidden) }

    /// How many areas are hidden.
    public var hiddenCount: Int { flags.reduce(0) { $0 + ($1 & Flags.hidden.rawValue != 0 ? 1 : 0) } }
}

extension AppliedOverrides {
    /// Reads what `AreaIndex.write(to:)` laid out, checking that positions are increasing and
    /// inside the table, flags known, and notes UTF-8 inside their bytes.
    init(reading reader: inout some FlatLayoutReader, count: Int) throws(FlatLayoutError) {
        let fingerprint = try reader.number()
        let positions = try reader.column(of: UInt32.self)
        let flags = try reader.column("the corrections' flags", of: UInt8.self, count: positions.count)
        let starts = try reader.column("the corrections' note starts", of: UInt32.self, count: positions.isEmpty ? 0 : positions.count + 1)
        let bytes = try reader.column(of: UInt8.self)
        for (i, position) in positions.enumerated() {
            guard Int(position) < count, i == 0 || positions[i - 1] < position else {
                throw FlatLayoutError("correction \(i) names position \(position), not one after the last inside the \(count) records")
            }
            guard flags[i] != 0, flags[i] < 16 else { throw FlatLayoutError("correction \(i) has flags \(flags[i])") }
            guard starts[i] <= starts[i + 1], Int(starts[i + 1]) <= bytes.count,
                  String(validating: bytes[Int(starts[i])..<Int(starts[i + 1])], as: UTF8.self) != nil else {
                throw FlatLayoutError("correction \(i)'s note is not UTF-8 inside the notes")
            }
        }
        guard positions.isEmpty ? bytes.isEmpty : starts.first == 0 else { throw FlatLayoutError("the corrections' notes do not start at 0") }
        self.init(positions: positions, flags: flags, noteStarts: starts, noteBytes: bytes, fingerprint: fingerprint)
    }
}
