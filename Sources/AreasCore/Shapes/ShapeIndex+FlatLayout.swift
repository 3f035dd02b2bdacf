extension ShapeIndex {
    /// Lays the index out: its tree, then each column.
    package func write(to writer: inout some FlatLayoutWriter) {
        writer.column(owners)
        writer.column(kinds)
        writer.column(widths)
        writer.column(shapeRings)
        writer.column(ringStarts)
        writer.column(ringChunks)
        writer.column(chunkBoxes)
        writer.column(vertices)
        tree.write(to: &writer)
    }

    /// Reads an index laid out by `write(to:)`, in place, checking every part a test reads: the
    /// owners (each one `owner` admits, in ascending order; side by side when `ownersRepeat`), kinds and widths, that rings
    /// partition the vertices and runs the rings as this build cuts them, that every vertex is
    /// on the globe and every run's box is the box of its vertices, and the tree.
    package init(reading reader: inout some FlatLayoutReader, maximumWidth: Double, ownersRepeat: Bool = false, owner admits: (Int) -> Bool) throws(FlatLayoutError) {
        let owners = try reader.column(of: UInt32.self)
        let count = owners.count
        let kinds = try reader.column("the shapes' kinds", of: UInt8.self, count: count)
        let widths = try reader.column("the shapes' widths", of: Double.self, count: count)
        let shapeRings = try reader.column("the shapes' rings", of: UInt32.self, count: count + 1)
        let ringStarts = try reader.column(of: UInt32.self)
        let ringChunks = try reader.column("the rings' runs", of: UInt32.self, count: ringStarts.count)
        let chunkBoxes = try reader.column(of: ChunkBox.self)
        let vertices = try reader.column(of: ShapeVertex.self)
        for (i, owner) in owners.enumerated() where !admits(Int(owner)) || (i > 0 && (ownersRepeat ? owners[i - 1] > owner : owners[i - 1] >= owner)) {
            throw FlatLayoutError("shape \(i)'s owner (\(owner)) is not one the file has, in order")
        }
        for (i, kind) in kinds.enumerated() where Shape.Kind(rawValue: kind) == nil { throw FlatLayoutError("shape \(i)'s kind \(kind) is no kind this build writes") }
        for (i, width) in widths.enumerated() where !(0...maximumWidth).contains(width) { throw FlatLayoutError("shape \(i)'s width \(width) m") }
        guard ringStarts.count >= 1, shapeRings.first == 0, Int(shapeRings[count]) == ringStarts.count - 1,
              ringStarts.first == 0, Int(ringStarts[ringStarts.count - 1]) == vertices.count,
              ringChunks.first == 0, Int(ringChunks[ringChunks.count - 1]) == chunkBoxes.count else {
            throw FlatLayoutError("the shapes' rings, vertices and runs do not cover one another")
        }
        for shape in 0..<count {
            guard shapeRings[shape] < shapeRings[shape + 1] else { throw FlatLayoutError("shape \(shape) has no ring") }
            let least = kinds[shape] == Shape.Kind.polygon.rawValue ? 3 : 2
            for ring in Int(shapeRings[shape])..<Int(shapeRings[shape + 1]) {
                let (first, end) = (Int(ringStarts[ring]), Int(ringStarts[ring + 1]))
                guard end - first >= least, ringChunks[ring] <= ringChunks[ring + 1] else { throw FlatLayoutError("ring \(ring) of shape \(shape) is cut short") }
                let segments = least == 3 ? end - first : end - first - 1
                let chunks = Int(ringChunks[ring])..<Int(ringChunks[ring + 1])
                guard chunks.count == (segments + Self.chunkLength - 1) / Self.chunkLength else {
                    throw FlatLayoutError("ring \(ring) of shape \(shape) has \(chunks.count) runs for \(segments) edges")
                }
                for chunk in chunks {
                    let start = (chunk - chunks.lowerBound) * Self.chunkLength
                    var box = ChunkBox(south: .max, west: .max, north: .min, east: .min)
                    for i in start...Swift.min(start + Self.chunkLength, segments) {
                        let v = vertices[first + i % (end - first)]
                        guard abs(v.latitude) <= 900_000_000, abs(v.longitude) <= 1_800_000_000 else { throw FlatLayoutError("a vertex off the globe in shape \(shape)") }
                        box.south = Swift.min(box.south, v.latitude); box.north = Swift.max(box.north, v.latitude)
                        box.west = Swift.min(box.west, v.longitude); box.east = Swift.max(box.east, v.longitude)
                    }
                    guard box == chunkBoxes[chunk] else { throw FlatLayoutError("run \(chunk) of shape \(shape) has a box that is not its edges'") }
                }
            }
        }
        let tree = try PackedRTree(reading: &reader, count: count, payloadLimit: count)
        self.init(tree: tree, owners: owners, kinds: kinds, widths: widths, shapeRings: shapeRings, ringStarts: ringStarts,
                  ringChunks: ringChunks, chunkBoxes: chunkBoxes, vertices: vertices)
    }
}
