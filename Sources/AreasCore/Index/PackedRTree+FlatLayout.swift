extension PackedRTree {
    /// Lays the tree out: its node size and entry count, then every column as the searches read it.
    package func write(to writer: inout some FlatLayoutWriter) {
        writer.number(nodeSize)
        writer.number(count)
        for column in [entryLatitudes, entryLongitudes] { writer.column(column) }
        for column in [entryBoxes, nodeBoxes] { writer.column(column) }
        writer.column(classes)
        writer.column(payloads)
        nodeBounds.write(to: &writer)
    }

    /// Reads a tree laid out by `write(to:)`, in place, after checking what the searches index
    /// by without bounds checks: every column's length against the entry count and node size,
    /// every payload below `payloadLimit`, every coordinate and edge finite and in range. The
    /// levels are computed again, never read.
    package init(reading reader: inout some FlatLayoutReader, count expected: Int, payloadLimit: Int) throws(FlatLayoutError) {
        let nodeSize = try reader.integer("a tree's node size", atMost: 4096)
        guard nodeSize >= 2 else { throw FlatLayoutError("a tree's node size is \(nodeSize)") }
        let count = try reader.integer("a tree's entry count", atMost: Int(UInt32.max) - 1)
        guard count == expected else { throw FlatLayoutError("a tree holds \(count) entries, not \(expected)") }
        let (ends, spans) = Self.levels(count: count, nodeSize: nodeSize)
        let nodeCount = (ends.last ?? 0) - count
        let latitudes = try reader.column(of: Double.self)
        let longitudes = try reader.column(of: Double.self)
        let boxes = try reader.column(of: GeoBox.self)
        let nodeBoxes = try reader.column("a tree's nodes", of: GeoBox.self, count: nodeCount)
        let classes = try reader.column("a tree's classes", of: UInt8.self, count: count + nodeCount)
        let payloads = try reader.column("a tree's payloads", of: UInt32.self, count: count)
        let padded = count == 0 ? 0 : count + DistanceOrigin.haversineLanes - 1
        let asPoints = latitudes.count == padded && longitudes.count == padded && boxes.isEmpty
        let asBoxes = latitudes.isEmpty && longitudes.isEmpty && boxes.count == count
        guard asPoints || asBoxes else {
            throw FlatLayoutError("a tree of \(count) entries has \(latitudes.count) latitudes, \(longitudes.count) longitudes and \(boxes.count) boxes")
        }
        try latitudes.withUnsafeBufferPointer { (values) throws(FlatLayoutError) in
            for value in values where !(-90...90).contains(value) { throw FlatLayoutError("a tree entry at latitude \(value)") }
        }
        try longitudes.withUnsafeBufferPointer { (values) throws(FlatLayoutError) in
            for value in values where !(-180...180).contains(value) { throw FlatLayoutError("a tree entry at longitude \(value)") }
        }
        for column in [boxes, nodeBoxes] {
            try column.withUnsafeBufferPointer { (values) throws(FlatLayoutError) in
                for box in values where !box.isPlausible { throw FlatLayoutError("a tree box \(box)") }
            }
        }
        try payloads.withUnsafeBufferPointer { (values) throws(FlatLayoutError) in
            for payload in values where Int(payload) >= payloadLimit {
                throw FlatLayoutError("a tree payload \(payload) past the \(payloadLimit) it may index")
            }
        }
        let bounds = try NodeBounds(reading: &reader, count: nodeCount)
        self.init(nodeSize: nodeSize, count: count, entryLatitudes: latitudes, entryLongitudes: longitudes, entryBoxes: boxes,
                  nodeBoxes: nodeBoxes, classes: classes, payloads: payloads, levelEnds: ends, spans: spans, nodeBounds: bounds)
    }
}

extension GeoBox {
    /// Finite edges within the globe, south of north (a box a tree may hold).
    var isPlausible: Bool {
        (-90...90).contains(south) && (-90...90).contains(north) && south <= north
            && (-180...180).contains(west) && (-180...180).contains(east)
    }
}

extension NodeBounds {
    func write(to writer: inout some FlatLayoutWriter) {
        writer.number(referenceLatitude)
        writer.number(referenceLongitude)
        writer.number(Double(magnitude))
        for column in [south, north, west, east] { writer.column(column) }
    }

    /// Reads bounds laid out by `write(to:)` for `count` nodes; every edge must be finite and no
    /// larger than the recorded magnitude, which the searches' error terms are computed from.
    init(reading reader: inout some FlatLayoutReader, count: Int) throws(FlatLayoutError) {
        let latitude = try reader.double("the bounds' reference latitude", in: -90...90)
        let longitude = try reader.double("the bounds' reference longitude", in: -180...180)
        let magnitude = Float(try reader.double("the bounds' magnitude", in: 0...720))
        let padded = count + Self.lanes - 1  // as built: padded even when empty
        var edges: [Column<Float>] = []
        for name in ["south", "north", "west", "east"] {
            let column = try reader.column("the bounds' \(name) edges", of: Float.self, count: padded)
            try column.withUnsafeBufferPointer { (values) throws(FlatLayoutError) in
                for value in values where !(abs(value) <= magnitude) { throw FlatLayoutError("a node edge \(value) beyond the magnitude \(magnitude)") }
            }
            edges.append(column)
        }
        self.init(south: edges[0], north: edges[1], west: edges[2], east: edges[3],
                  reference: GeoPoint(uncheckedLatitude: latitude, longitude: longitude), magnitude: magnitude)
    }
}
