/// What a refresh's district check found, kept on the record as fields of its own (hidden from
/// the record's published columns, like a shape's text), so it travels wherever the record
/// does: through merging, the snapshot and a follower.
public enum RegionFields {
    /// `found<TAB>meters`: the position lies `meters` outside the stated district, in `found`
    /// (empty at sea).
    public static let mismatchKey = "\u{1}regionMismatch"
    /// `position`: the record stated no district; it has the one its position lies in.
    public static let districtFromKey = "\u{1}districtFrom"

    /// A record's position outside its stated district.
    public struct Mismatch: Sendable, Equatable {
        public var stated: String
        public var found: String?
        public var meters: Double
    }

    /// Records `finding` on `area`: a district from its position fills the empty district (and
    /// province); a mismatch is noted. Nothing is ever rejected for it: the operator decides.
    public static func apply(_ finding: RegionMap.DistrictFinding, to area: inout Area) {
        switch finding {
        case .agrees, .unknownName, .nowhere:
            return
        case .fromPosition(let province, let district):
            area.district = district
            if area.province.isEmpty { area.province = province }
            area.fields.append(Field(districtFromKey, "position"))
        case .elsewhere(let found, let meters):
            area.fields.append(Field(mismatchKey, "\(found ?? "")\t\(Int(meters.rounded()))"))
        }
    }

    /// The mismatch a record's field value says, for a record stating `district`.
    public static func mismatch(stated district: String, value: String) -> Mismatch? {
        let parts = value.split(separator: "\t", omittingEmptySubsequences: false)
        guard parts.count == 2, let meters = Double(parts[1]) else { return nil }
        return Mismatch(stated: district, found: parts[0].isEmpty ? nil : String(parts[0]), meters: meters)
    }
}

extension RegionFields {
    /// What a district check left on a run of records: how many lie outside their stated
    /// district (with the first ids), and how many have a district from their position.
    public struct Counts: Sendable, Equatable {
        public var outsideDistrict = 0
        public var outsideDistrictIds: [String] = []
        public var districtsFromPosition = 0
        /// The ids listed at most.
        public static let listedIds = 10

        public init() {}
    }

    private static let mismatchBytes = Array(mismatchKey.utf8)
    private static let districtFromBytes = Array(districtFromKey.utf8)

    /// The counts over `positions` of `table`.
    public static func counts(in table: AreaTable, _ positions: Range<Int>) -> Counts {
        var counts = Counts()
        table.withBuffers { areas in
            for position in positions.clamped(to: 0..<areas.records.count) {
                areas.forEachField(of: position) { key, _ in
                    guard key.first == 1 else { return }
                    if key.elementsEqual(mismatchBytes) {
                        counts.outsideDistrict += 1
                        if counts.outsideDistrictIds.count < Counts.listedIds {
                            counts.outsideDistrictIds.append(String(decoding: areas.utf8(areas.records[position].id), as: UTF8.self))
                        }
                    } else if key.elementsEqual(districtFromBytes) {
                        counts.districtsFromPosition += 1
                    }
                }
            }
        }
        return counts
    }

    /// The district check's findings on the record at `position`: its mismatch, and whether
    /// its district came from its position.
    public static func findings(of position: Int, in areas: AreaTable.Buffers) -> (mismatch: Mismatch?, fromPosition: Bool) {
        var mismatch: Mismatch?
        var fromPosition = false
        areas.forEachField(of: position) { key, value in
            guard key.first == 1 else { return }
            if key.elementsEqual(mismatchBytes) {
                mismatch = Self.mismatch(stated: String(decoding: areas.utf8(areas.records[position].district), as: UTF8.self),
                                         value: String(decoding: value, as: UTF8.self))
            } else if key.elementsEqual(districtFromBytes) {
                fromPosition = true
            }
        }
        return (mismatch, fromPosition)
    }
}
