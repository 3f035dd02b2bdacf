import AreasCore
import AreasSystem

/// Zones' traced outlines, kept for one data version: a GIS asks for the same zones at every
/// pan, and tracing a park's widened outline takes milliseconds where a circle takes one. Only
/// traced outlines are kept (not circles, nor the circles of reach drawn when an answer's work
/// ran out), up to `maximumVertices` in all.
package final class OutlineCache: Sendable {
    private struct Contents {
        var outlines: [Int: Shape] = [:]
        var vertices = 0
    }

    private let contents = LockedValue(Contents())
    package static let maximumVertices = 1_000_000

    package init() {}

    /// The outline of the zone at `position`, drawn with `draw` unless kept.
    func outline(of position: Int, draw: () -> (Shape, ShapeOutline.Drawing)?) -> (Shape, ShapeOutline.Drawing)? {
        if let kept = contents.withLock({ $0.outlines[position] }) { return (kept, .traced) }
        guard let drawn = draw() else { return nil }
        if drawn.1 == .traced {
            contents.withLock { contents in
                guard contents.outlines[position] == nil, contents.vertices + drawn.0.vertexCount <= Self.maximumVertices else { return }
                contents.outlines[position] = drawn.0
                contents.vertices += drawn.0.vertexCount
            }
        }
        return drawn
    }
}
