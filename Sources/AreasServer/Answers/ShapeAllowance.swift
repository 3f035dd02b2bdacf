import AreasCore

/// How much of zones' shapes one listed answer carries (`near`, `bbox`, `check`, `along`,
/// `clusters`): each drawn with at most `perShape` vertices, and all of them together with at
/// most `perAnswer`; past that, a shape's geometry is null. A shape drawn with fewer vertices
/// than it has says `"simplified": true`; `get` gives it whole. So a phone's `check` among
/// parks of 100,000 vertices each is kilobytes, never megabytes, and `check` still tests the
/// whole shape.
struct ShapeAllowance {
    static let perShape = 1_000
    static let perAnswer = 8_000

    private(set) var left = Self.perAnswer
    /// The runs of edges an answer's zone outlines may read (OGC's `zones`): four shapes at
    /// the most one may read, then the rest drawn as the circles of their reach.
    private(set) var outlineWork = 4 * ShapeOutline.workLimit

    /// A new answer's allowance.
    static var listed: ShapeAllowance { ShapeAllowance() }

    /// What to draw of `shape`, and whether it is less than the whole.
    mutating func take(_ shape: Shape) -> (drawn: Shape?, simplified: Bool) {
        let count = shape.vertexCount
        let allowed = Swift.min(Self.perShape, left)
        if count <= allowed {
            left -= count
            return (shape, false)
        }
        guard let drawn = shape.decimated(toAtMost: allowed) else {
            left = 0
            return (nil, true)
        }
        left -= drawn.vertexCount
        return (drawn, true)
    }

    /// The outline of a zone's footprint (`ShapeOutline.zone`), from this answer's work.
    mutating func outline(_ footprint: ZoneFootprint, center: GeoPoint, shape: Shape?) -> (outline: Shape, drawing: ShapeOutline.Drawing)? {
        ShapeOutline.zone(footprint, center: center, shape: shape, work: &outlineWork)
    }
}
