/// How records of different sources that describe one place become one area.
public struct MergePolicy: Sendable, Equatable {
    /// Records farther apart than this are never one place; 0 turns merging off.
    public var meters: Double
    /// Source names, earliest first: an area takes its id, name, position and source from its
    /// record in the earliest source. Sources not named come after, in name order.
    public var priority: [String]

    public init(meters: Double, priority: [String]) {
        self.meters = meters
        self.priority = priority
    }

    /// Every record served as its own area.
    public static let off = MergePolicy(meters: 0, priority: [])

    /// The default distance: booths re-published by the city and a hobby merge lie within a
    /// few meters of the district's own; 15 m holds them and stays inside one building.
    public static let defaultMeters = 15.0

    public var isOff: Bool { meters <= 0 }
}
