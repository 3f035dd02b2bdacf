/// What a zone's footprint rests on, the first of these its publisher states (the order is
/// the rule's: see `FootprintPolicy.footprint(words:zoneType:size:)`).
public enum FootprintBasis: UInt8, Sendable, CaseIterable {
    /// A geometry the source gives.
    case shape = 1
    /// A distance stated in the extent words.
    case stated
    /// A school or walking route whose size column holds its length.
    case route
    /// The whole facility, a circle of its size.
    case size
    /// Nothing usable: a circle of `footprint.minMeters`.
    case `default`

    /// The name answers give (`"basis"`).
    public var name: StaticString {
        switch self {
        case .shape: "shape"
        case .stated: "stated"
        case .route: "route"
        case .size: "size"
        case .default: "default"
        }
    }
}

/// The outline of a footprint.
public enum FootprintShape: UInt8, Sendable {
    case circle = 0
    case polygon
    case corridor

    public var name: StaticString {
        switch self {
        case .circle: "circle"
        case .polygon: "polygon"
        case .corridor: "corridor"
        }
    }
}

/// One zone's footprint as the rule drew it: where the zone holds a point, and what in the
/// published record it rests on.
public struct ZoneFootprint: Sendable, Equatable {
    public var basis: FootprintBasis
    public var shape: FootprintShape
    /// A circle's radius around the zone's position, in meters, after clamping; for a shape,
    /// the reach from the zone's position to the footprint's farthest edge.
    public var radiusMeters: Double
    /// A shape's widening (a polygon) or half-width (a corridor), in meters; 0 for a circle.
    public var widthMeters = 0.0
    /// The route rule's circle: the route's direction is not published, so the circle holds
    /// more than the route does.
    public var approximate = false
    /// The radius the rule gave lay outside 5 m ..< `footprint.maxMeters` and was clamped.
    public var clamped = false
    /// The extent words said something the rule does not read (no distance, route or whole
    /// facility): the zone fell to its size or the default.
    public var wordsNotUnderstood = false
    /// The size column held something that is no size (text, zero, a negative, a length
    /// outside a route).
    public var sizeNotUnderstood = false

    public init(basis: FootprintBasis, shape: FootprintShape = .circle, radiusMeters: Double, approximate: Bool = false,
                clamped: Bool = false, wordsNotUnderstood: Bool = false, sizeNotUnderstood: Bool = false) {
        self.basis = basis
        self.shape = shape
        self.radiusMeters = radiusMeters
        self.approximate = approximate
        self.clamped = clamped
        self.wordsNotUnderstood = wordsNotUnderstood
        self.sizeNotUnderstood = sizeNotUnderstood
    }
}

extension ZoneFootprint {
    /// A footprint and the reference of its extent words in the table's arena, in one word
    /// per record: the index keeps one for every record (zero for a smoking area), so an
    /// answer gives a zone's footprint without reading its fields or the rule again.
    ///
    /// Bits 0–31 the words' reference, 32–55 the radius in centimeters (a shape's: the reach
    /// from its position to its farthest edge), 56–58 the basis (0 for none), 59–62 the flags,
    /// 63 a corridor (a shape's outline is kept by the shape index).
    public struct Packed: Sendable, Hashable, BitwiseCopyable {
        public var bits: UInt64

        public static let none = Packed(bits: 0)

        /// The widest radius a packed footprint holds.
        public static let maximumMeters = Double((1 << 24) - 1) / 100

        public init(bits: UInt64) { self.bits = bits }

        public init(_ footprint: ZoneFootprint, words: StringArena.Ref) {
            let centimeters = UInt64(Swift.min(Swift.max(footprint.radiusMeters, 0), Self.maximumMeters) * 100 + 0.5)
            var bits = UInt64(words) | centimeters << 32 | UInt64(footprint.basis.rawValue) << 56
            if footprint.approximate { bits |= 1 << 59 }
            if footprint.clamped { bits |= 1 << 60 }
            if footprint.wordsNotUnderstood { bits |= 1 << 61 }
            if footprint.sizeNotUnderstood { bits |= 1 << 62 }
            if footprint.shape == .corridor { bits |= 1 << 63 }
            self.bits = bits
        }

        public var isNone: Bool { bits == 0 }

        /// Whether the footprint is a shape the source gave (tested by the shape index, not by
        /// the distance to the zone's position).
        public var isShape: Bool { (bits >> 56) & 0x7 == UInt64(FootprintBasis.shape.rawValue) }

        /// The reference of the extent words (the empty string's when none were published).
        public var words: StringArena.Ref { StringArena.Ref(truncatingIfNeeded: bits) }

        /// The radius as the index tests it, in meters (to the centimeter).
        public var radiusMeters: Double { Double((bits >> 32) & 0xFF_FFFF) / 100 }

        /// The footprint, nil for a record that has none (a smoking area) or whose bits this
        /// build does not write (a hostile file: `AreaIndex` checks them on reading).
        public var footprint: ZoneFootprint? {
            guard let basis = FootprintBasis(rawValue: UInt8((bits >> 56) & 0x7)), bits >> 63 == 0 || basis == .shape else { return nil }
            let shape: FootprintShape = basis != .shape ? .circle : bits >> 63 == 1 ? .corridor : .polygon
            return ZoneFootprint(basis: basis, shape: shape, radiusMeters: radiusMeters,
                                 approximate: bits & (1 << 59) != 0, clamped: bits & (1 << 60) != 0,
                                 wordsNotUnderstood: bits & (1 << 61) != 0, sizeNotUnderstood: bits & (1 << 62) != 0)
        }
    }
}
