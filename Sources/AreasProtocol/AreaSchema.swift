/// The members of an area in an answer, in the order the daemon writes them, each with when it
/// is there. The daemon's writers follow it (a test walks real answers against it), and every
/// reader derives from it: the GeoJSON properties, `areasctl get`'s rows, the map page's keys.
public enum AreaSchema {
    public enum Presence: Sendable, Equatable {
        /// In every area of every answer.
        case always
        /// Only when it says something (a geocoded position, a known date, a merged area).
        case whenSet
        /// With the distance from the question's point (not in `bbox` or `get`).
        case withQueryPoint
        /// Only in `get`, which gives an area with everything known of it.
        case detailedOnly
        /// Only in `get`, and there only when it says something (an override's note, a record
        /// outside its stated district).
        case detailedWhenSet
        /// Added by the answer around the area: a route's (`along`) or a check's zone.
        case byTheAnswer
    }

    public struct Member: Sendable {
        public let key: AnswerKey
        public let presence: Presence
        /// Whether a GeoJSON feature keeps it among its properties: everything but the
        /// position (the geometry) and what only `get` gives.
        public var isProperty: Bool { presence != .detailedOnly && presence != .detailedWhenSet && key != .lat && key != .lon }
        /// Whether it is a distance, which a GeoJSON feature keeps even with only ids.
        public let isDistance: Bool

        init(_ key: AnswerKey, _ presence: Presence, isDistance: Bool = false) {
            self.key = key
            self.presence = presence
            self.isDistance = isDistance
        }
    }

    public static let members: [Member] = [
        Member(.id, .always),
        Member(.kind, .always),
        Member(.name, .always),
        Member(.lat, .always),
        Member(.lon, .always),
        Member(.distanceMeters, .withQueryPoint, isDistance: true),
        Member(.address, .always),
        Member(.district, .always),
        Member(.source, .always),
        Member(.geocoded, .whenSet),
        Member(.referenceDate, .whenSet),
        Member(.overridden, .whenSet),
        Member(.note, .detailedWhenSet),
        Member(.firstSeen, .always),
        Member(.changedAt, .whenSet),
        Member(.sources, .whenSet),
        Member(.footprint, .whenSet),
        Member(.crowd, .whenSet),
        Member(.province, .detailedOnly),
        Member(.roadAddress, .detailedOnly),
        Member(.lotAddress, .detailedOnly),
        Member(.regionMismatch, .detailedWhenSet),
        Member(.districtFrom, .detailedWhenSet),
        Member(.fields, .detailedOnly),
        Member(.records, .detailedOnly),
        Member(.alongMeters, .byTheAnswer, isDistance: true),
        Member(.sideMeters, .byTheAnswer, isDistance: true),
        Member(.footprintMeters, .byTheAnswer),
        Member(.edgeMeters, .byTheAnswer),
        Member(.bearingDegrees, .byTheAnswer),
        Member(.direction, .byTheAnswer),
    ]

    /// The member named `name`, nil for one the schema lacks.
    public static func member(named name: String) -> Member? { members.first { $0.key.name == name } }

    /// The members a GeoJSON feature keeps: every property, or with `idsOnly` the id and the
    /// distances.
    public static func properties(idsOnly: Bool) -> [AnswerKey] {
        members.filter { $0.isProperty && (!idsOnly || $0.key == .id || $0.isDistance) }.map(\.key)
    }
}
