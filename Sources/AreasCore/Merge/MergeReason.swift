/// Why a record is served as part of another record's area, for people reading `get`: how far
/// it lies from the area's leading record, and which of the identity rules' tests the two
/// passed (`MergingSources.md`).
public struct MergeReason: Sendable, Equatable {
    /// The test two records of one area passed.
    public enum Names: String, Sendable {
        /// Another row of the leading record's own source: one name, position and footprint.
        case listedAgain = "the same place listed again by its source: one name, position and footprint"
        /// Equal once white space is ignored.
        case equal = "the same name, white space aside"
        /// Equal once punctuation, letter case and a leading province or district are set aside.
        case equalOnceNormalised = "the same name once punctuation, letter case and a leading province or district are set aside"
        /// One lies inside the other, and what the longer adds holds no number.
        case contained = "one name contains the other"
        /// One record names the place by the address the other gives.
        case nameIsAddress = "one names the place by the other's address"
        /// One address, and no number in one name that the other lacks.
        case sameAddress = "the same address, and the same numbers in their names"
    }

    public var meters: Double
    public var names: Names

    /// The reason record `member` is in the area `leader` leads; `text` reads a record's strings.
    public init(member: AreaTable.Record, leader: AreaTable.Record, text: (StringArena.Ref) -> String) {
        meters = Geodesy.distance(member.coordinate, leader.coordinate)
        let (a, b) = (text(member.name), text(leader.name))
        func key(_ ref: StringArena.Ref, of record: AreaTable.Record) -> [UInt8] {
            PlaceName.key(text(ref), province: text(record.province), district: text(record.district))
        }
        let (keyA, keyB) = (key(member.name, of: member), key(leader.name, of: leader))
        let addressA = member.address == StringArena.empty ? [] : PlaceName.mainPart(key(member.address, of: member))
        let addressB = leader.address == StringArena.empty ? [] : PlaceName.mainPart(key(leader.address, of: leader))
        if text(member.source) == text(leader.source) {
            names = .listedAgain
        } else if a.filter({ !$0.isWhitespace }) == b.filter({ !$0.isWhitespace }) {
            names = .equal
        } else if keyA == keyB {
            names = .equalOnceNormalised
        } else if PlaceName.samePlace(keyA, keyB) {
            names = .contained
        } else if (!addressA.isEmpty && addressA == PlaceName.mainPart(keyB)) || (!addressB.isEmpty && addressB == PlaceName.mainPart(keyA)) {
            names = .nameIsAddress
        } else {
            names = .sameAddress
        }
    }

    /// "12 m apart; the same name, white space aside".
    public var text: String { "\(MeasurementText.distance(meters)) apart; \(names.rawValue)" }
}
