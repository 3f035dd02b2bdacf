/// One of the operator's corrections, as a line of the `overrides` file says it.
///
/// No public data set carries closures or moves: a booth removed last month is still
/// published. The operator's file hides, moves, renames or adds areas, and every refresh
/// applies it again to whatever the sources say now.
public struct AreaOverride: Sendable, Hashable {
    public enum Action: String, Sendable, CaseIterable {
        case hide, move, rename, add
    }

    public var action: Action
    /// The id of an area or of any record merged into one (for `add`, the added area's id).
    public var id: String
    public var name: String?
    public var coordinate: GeoPoint?
    public var note: String
    /// The line of the file, for what is reported about it.
    public var line: Int

    /// The source an `add` line's area belongs to: its id is `overrides:ID`.
    public static let addedSource = "overrides"

    public init(action: Action, id: String, name: String? = nil, coordinate: GeoPoint? = nil, note: String = "", line: Int) {
        self.action = action
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.note = note
        self.line = line
    }

    /// A number that changes whenever any line changes (FNV-1a over every field), so an index
    /// built with other corrections than configured is built again.
    public static func fingerprint(_ lines: [AreaOverride]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
        }
        for line in lines {
            mix(line.action.rawValue)
            mix(line.id)
            mix(line.name ?? "")
            mix(line.coordinate.map { "\($0.latitude),\($0.longitude)" } ?? "")
            mix(line.note)
        }
        return lines.isEmpty ? 0 : hash
    }
}
