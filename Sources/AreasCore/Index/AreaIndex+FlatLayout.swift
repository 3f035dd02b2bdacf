extension AreaIndex {
    /// The children per node of the index's trees.
    public var nodeSize: Int { tree.nodeSize }

    /// Whether the index is the one `init(table:nodeSize:footprint:)` would build with these
    /// settings (a snapshot's, laid out by a build configured otherwise, is not).
    public func isBuilt(nodeSize: Int, footprint: FootprintPolicy) -> Bool {
        (self.nodeSize == nodeSize || count == 0) && footprintPolicy == footprint
    }

    /// Lays the whole index out: the footprint policy it was built with, the table, the area
    /// tree, the smoking areas and their tree, and the zones' footprint bands, so a reader
    /// serves it without sorting, tiling or decoding anything.
    package func write(to writer: inout some FlatLayoutWriter) {
        writer.number(footprintPolicy.minimumMeters)
        writer.number(footprintPolicy.maximumMeters)
        writer.column(Column(Array(footprintPolicy.sizeField.utf8)))
        areas.write(to: &writer)
        tree.write(to: &writer)
        writer.column(smokingPositions)
        smokingTree.write(to: &writer)
        writer.number(footprints.bands.count)
        for band in footprints.bands {
            writer.number(band.widestMeters)
            writer.column(band.radii)
            writer.column(band.positions)
            band.tree.write(to: &writer)
        }
    }

    /// Reads an index laid out by `write(to:)`, in place, checking every part (see
    /// `AreaTable.init(reading:)` and `PackedRTree.init(reading:count:payloadLimit:)`), and that
    /// the smoking areas and the zones are what their kinds say.
    package init(reading reader: inout some FlatLayoutReader) throws(FlatLayoutError) {
        let minimum = try reader.double("the footprint minimum", in: 0...100_000)
        let maximum = try reader.double("the footprint maximum", in: minimum...100_000)
        let sizeFieldBytes = try reader.column(of: UInt8.self)
        guard sizeFieldBytes.count <= 256, let sizeField = String(validating: sizeFieldBytes, as: UTF8.self) else {
            throw FlatLayoutError("the footprint size field is not a short UTF-8 name")
        }
        let table = try AreaTable(reading: &reader)
        let records = table.records
        let tree = try PackedRTree(reading: &reader, count: table.count, payloadLimit: table.count)
        let smokingPositions = try reader.column(of: UInt32.self)
        for position in smokingPositions where Int(position) >= table.count || records[Int(position)].kind != .smoking {
            throw FlatLayoutError("smoking area \(position) is not a smoking area of the table")
        }
        let smokingTree = try PackedRTree(reading: &reader, count: smokingPositions.count, payloadLimit: smokingPositions.count)
        let bandCount = try reader.integer("the footprint band count", atMost: 2)
        var bands: [ZoneFootprints.Band] = []
        for _ in 0..<bandCount {
            let widest = try reader.double("a band's widest footprint", in: 0...maximum)
            let radii = try reader.column(of: Double.self)
            let positions = try reader.column("a band's zone positions", of: UInt32.self, count: radii.count)
            for radius in radii where !(0...widest).contains(radius) { throw FlatLayoutError("a footprint of \(radius) m in a band of \(widest) m") }
            for position in positions where Int(position) >= table.count || records[Int(position)].kind != .nonsmoking {
                throw FlatLayoutError("zone \(position) is not a non-smoking zone of the table")
            }
            let bandTree = try PackedRTree(reading: &reader, count: radii.count, payloadLimit: radii.count)
            bands.append(ZoneFootprints.Band(tree: bandTree, radii: radii, positions: positions, widestMeters: widest))
        }
        self.init(areas: table, tree: tree, smokingTree: smokingTree, smokingPositions: smokingPositions,
                  footprints: ZoneFootprints(bands: bands),
                  footprintPolicy: FootprintPolicy(minimumMeters: minimum, maximumMeters: maximum, sizeField: sizeField))
    }
}
