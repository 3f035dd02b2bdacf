/// Why a record was folded into another source's area, for people reading `get`: how far it
/// lies from the area's leading record, and which of the merge rule's name tests their names
/// passed (`MergingSources.md`).
public struct MergeReason: Sendable, Equatable {
    /// The name test two merged records passed.
    public enum Names: String, Sendable {
        /// Equal once white space is ignored.
        case equal = "the same name, white space aside"
        /// Equal once punctuation, letter case and a leading province or district are set aside.
        case equalOnceNormalised = "the same name once punctuation, letter case and a leading province or district are set aside"
        /// One lies inside the other, and what the longer adds holds no number.
        case contained = "one name contains the other"
    }

    public var meters: Double
    public var names: Names

    /// The reason record `member` was merged into the area `leader` leads; `text` reads a
    /// record's strings.
    public init(member: AreaTable.Record, leader: AreaTable.Record, text: (StringArena.Ref) -> String) {
        meters = Geodesy.distance(member.coordinate, leader.coordinate)
        let (a, b) = (text(member.name), text(leader.name))
        if a.filter({ !$0.isWhitespace }) == b.filter({ !$0.isWhitespace }) {
            names = .equal
        } else if PlaceName.key(a, province: text(member.province), district: text(member.district))
                    == PlaceName.key(b, province: text(leader.province), district: text(leader.district)) {
            names = .equalOnceNormalised
        } else {
            names = .contained
        }
    }

    /// "12 m apart; the same name, white space aside".
    public var text: String { "\(MeasurementText.distance(meters)) apart; \(names.rawValue)" }
}
