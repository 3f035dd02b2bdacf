extension AreaIndex {
    /// The children per node of the index's trees.
    public var nodeSize: Int { tree.nodeSize }

    /// Whether the index is the one `init(table:nodeSize:footprint:)` would build with these
    /// settings (a snapshot's, laid out by a build configured otherwise, is not).
    /// A `merge` of nil takes whatever merging the index was built with (a follower serves its
    /// leader's areas as they are).
    /// An `overrides` fingerprint of nil takes whatever corrections the index has; a
    /// `footprint` of nil whatever footprints it has.
    public func isBuilt(nodeSize: Int, footprint: FootprintPolicy?, merge: MergePolicy? = nil, overrides: UInt64? = nil) -> Bool {
        (self.nodeSize == nodeSize || areas.isEmpty) && footprint.map { $0 == footprintPolicy } ?? true
            && merge.map { $0 == mergePolicy || (groups.isEmpty && hasOneSource) } ?? true
            && overrides.map { $0 == self.overrides.fingerprint } ?? true
    }

    /// Whether every record comes from one source, so that no merging could change anything.
    /// Ids begin with their source's name and the table is in id order, so a source's records
    /// are one run: the first and the last record tell.
    var hasOneSource: Bool {
        guard let first = areas.records.first, let last = areas.records.last else { return true }
        return areas.strings.equals(first.source, last.source)
    }

    /// Lays the whole index out: the footprint policy it was built with, the table, the merge
    /// policy and each record's area, the area tree, the zones' footprints, the smoking areas
    /// and their tree, and the zones' footprint bands, so a reader serves it without sorting,
    /// tiling, merging or decoding anything. The footprints follow the area tree because
    /// `near`, `radius` and `bbox` answers read both, and neither of the trees after them.
    package func write(to writer: inout some FlatLayoutWriter) {
        writer.begin(.settings)
        writer.number(footprintPolicy.minimumMeters)
        writer.number(footprintPolicy.maximumMeters)
        writer.column(Column(Array(footprintPolicy.sizeField.utf8)))
        let columned = footprintPolicy.columns.sorted { $0.key < $1.key }
        writer.number(columned.count)
        for (source, columns) in columned {
            for name in [source, columns.extent ?? "", columns.zoneType ?? "", columns.size ?? ""] { writer.column(Column(Array(name.utf8))) }
        }
        areas.write(to: &writer)
        writer.begin(.settings)
        writer.number(mergePolicy.meters)
        writer.number(mergePolicy.priority.count)
        for name in mergePolicy.priority { writer.column(Column(Array(name.utf8))) }
        writer.begin(.mergeGroups)
        writer.column(groups.leaders)
        writer.number(overrides.fingerprint)
        writer.column(overrides.positions)
        writer.column(overrides.flags)
        writer.column(overrides.noteStarts)
        writer.column(overrides.noteBytes)
        writer.begin(.index)
        tree.write(to: &writer)
        writer.column(footprints.packed)
        writer.column(smokingPositions)
        smokingTree.write(to: &writer)
        writer.number(footprints.bands.count)
        for band in footprints.bands {
            writer.number(band.widestMeters)
            writer.column(band.radii)
            writer.column(band.positions)
            band.tree.write(to: &writer)
        }
        writer.begin(.shapes)
        footprints.shapes.write(to: &writer)
        writer.begin(.search)
        search.write(to: &writer)
    }

    /// Reads an index laid out by `write(to:)`, in place, checking every part (see
    /// `AreaTable.init(reading:)` and `PackedRTree.init(reading:count:payloadLimit:)`), and that
    /// the smoking areas and the zones are what their kinds say. A layout without the merge
    /// section (`merged` false: snapshot format 5) is one whose records are all their own areas.
    /// A layout without the footprints as drawn from the zones' words (`worded` false: formats 5
    /// and 6) has them drawn here, from its table. A layout without the search index
    /// (`searchable` false: formats 5 to 7) has it built here.
    /// A layout with its fields as key and value pairs (`keyedFields` false: formats 5 to 10)
    /// has them read into key lists. A layout with the answers' columns apart (`answersTogether`
    /// false: formats 5 to 11) has its arena before its records and its footprints after the
    /// bands.
    package init(reading reader: inout some FlatLayoutReader, merged: Bool = true, worded: Bool = true, searchable: Bool = true,
                 keyedFields: Bool = true, answersTogether: Bool = true) throws(FlatLayoutError) {
        let minimum = try reader.double("the footprint minimum", in: 0...100_000)
        let maximum = try reader.double("the footprint maximum", in: minimum...100_000)
        func name(_ what: String) throws(FlatLayoutError) -> String {
            let bytes = try reader.column(of: UInt8.self)
            guard bytes.count <= 4096, let name = String(validating: bytes, as: UTF8.self) else { throw FlatLayoutError("\(what) is not short UTF-8") }
            return name
        }
        let sizeField = try name("the footprint size field")
        var columns: [String: ZoneColumns] = [:]
        if worded {
            for _ in 0..<(try reader.integer("the count of sources' zone columns", atMost: 100_000)) {
                let source = try name("a source's name")
                let (extent, zoneType, size) = (try name("an extent column"), try name("a zone type column"), try name("a size column"))
                columns[source] = ZoneColumns(extent: extent.isEmpty ? nil : extent, zoneType: zoneType.isEmpty ? nil : zoneType, size: size.isEmpty ? nil : size)
            }
        }
        let policy = FootprintPolicy(minimumMeters: minimum, maximumMeters: maximum, sizeField: sizeField, columns: columns)
        let table = try AreaTable(reading: &reader, keyedFields: keyedFields, recordsFirst: answersTogether)
        let records = table.records
        var mergePolicy = MergePolicy.off
        var groups = AreaGroups.none
        var applied = AppliedOverrides.none
        if merged {
            let meters = try reader.double("the merge distance", in: 0...100_000)
            let sourceCount = try reader.integer("the merge priority's length", atMost: 100_000)
            var priority: [String] = []
            for _ in 0..<sourceCount {
                let bytes = try reader.column(of: UInt8.self)
                guard bytes.count <= 4096, let name = String(validating: bytes, as: UTF8.self) else {
                    throw FlatLayoutError("a source name of the merge priority is not short UTF-8")
                }
                priority.append(name)
            }
            mergePolicy = MergePolicy(meters: meters, priority: priority)
            let leaders = try reader.column(of: UInt32.self)
            guard leaders.isEmpty || leaders.count == table.count else {
                throw FlatLayoutError("\(leaders.count) area leaders for \(table.count) records")
            }
            for (i, leader) in leaders.enumerated() where Int(leader) >= table.count || leaders[Int(leader)] != leader || records[Int(leader)].kind != records[i].kind {
                throw FlatLayoutError("record \(i)'s area leader (\(leader)) is not a record of its kind leading its own area")
            }
            groups = AreaGroups(leaders: leaders, table: table, priority: priority)
            applied = try AppliedOverrides(reading: &reader, count: table.count)
        }
        let tree = try PackedRTree(reading: &reader, count: table.count, payloadLimit: table.count)
        func footprintColumn() throws(FlatLayoutError) -> Column<ZoneFootprint.Packed> {
            try reader.column("the zones' footprints", of: ZoneFootprint.Packed.self, count: table.count)
        }
        let packedBeforeBands = worded && answersTogether ? try footprintColumn() : nil
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
        let footprints: ZoneFootprints
        if worded {
            let packed: Column<ZoneFootprint.Packed>
            if let packedBeforeBands { packed = packedBeforeBands } else { packed = try footprintColumn() }
            try Self.check(packed, of: table, maximum: maximum, bands: bands)
            let shapes = try ShapeIndex(reading: &reader, maximumWidth: maximum) { owner in
                owner < table.count && packed[owner].footprint?.basis == .shape
            }
            footprints = ZoneFootprints(bands: bands, shapes: shapes, packed: packed)
        } else {
            footprints = ZoneFootprints(table, policy: policy, served: { !groups.isMerged($0) && (applied.isEmpty || !applied.hides($0)) },
                                        nodeSize: tree.nodeSize)
        }
        let (readGroups, readOverrides) = (groups, applied)
        let search = searchable ? try SearchIndex(reading: &reader, count: table.count)
            : SearchIndex(table) { !readGroups.isMerged($0) && (readOverrides.isEmpty || !readOverrides.hides($0)) }
        self.init(areas: table, tree: tree, smokingTree: smokingTree, smokingPositions: smokingPositions,
                  footprints: footprints, footprintPolicy: policy, groups: groups, mergePolicy: mergePolicy, overrides: applied, search: search)
    }

    /// Checks that each zone, and no smoking area, has a footprint this build writes, within
    /// the widest radius, whose words are one of its own fields (or none); and that the bands test the
    /// radii the footprints state.
    private static func check(_ packed: Column<ZoneFootprint.Packed>, of table: AreaTable, maximum: Double, bands: [ZoneFootprints.Band]) throws(FlatLayoutError) {
        let records = table.records
        for (i, code) in packed.enumerated() {
            guard records[i].kind == .nonsmoking else {
                if !code.isNone { throw FlatLayoutError("smoking area \(i) has a zone footprint") }
                continue
            }
            guard let footprint = code.footprint, footprint.radiusMeters <= (footprint.basis == .shape ? ZoneFootprint.Packed.maximumMeters : maximum),
                  code.words == 0 || table.hasFieldValue(code.words, at: i) else {
                throw FlatLayoutError("zone \(i)'s footprint (\(code.bits)) is not one this build writes")
            }
        }
        for band in bands {
            for (radius, position) in zip(band.radii, band.positions) where radius != packed[Int(position)].radiusMeters {
                throw FlatLayoutError("zone \(position) is tested with \(radius) m but its footprint is \(packed[Int(position)].radiusMeters) m")
            }
        }
    }
}
