import AreasCore
import AreasSystem

extension SnapshotFile {
    /// Where the body of versions 5 to 7 starts: the header, padded to a cache line.
    static let bodyOffset = 64

    /// Version 6 (5 without the merge section): the creation time; each source's name, fetch time and run of the table; then
    /// the whole index laid out flat (`AreaIndex.write(to:)`): the table's arena, records and
    /// field lists, and the trees, each column as it lies in memory. `index` must be the index
    /// of `catalog`'s table.
    package static func encode(_ catalog: Catalog, index: AreaIndex, createdAt: Double, changes: ChangeLog? = nil) -> [UInt8] {
        var writer = SnapshotLayoutWriter(reservingCapacity: catalog.table.recordByteCount + catalog.table.strings.byteCount
                                          + 2 * index.indexByteCount + index.search.byteCount + 4096)
        layOut(catalog, index: index, createdAt: createdAt, changes: changes, into: &writer)
        return writer.seal()
    }

    /// The same file written to `file` as it is laid out, never held whole.
    static func write(_ catalog: Catalog, index: AreaIndex, createdAt: Double, changes: ChangeLog? = nil, counts: ServedCounts? = nil,
                      to file: FileDescriptor) throws(SystemError) {
        var writer = SnapshotLayoutWriter(writingTo: file)
        layOut(catalog, index: index, createdAt: createdAt, changes: changes, counts: counts, into: &writer)
        try writer.finish()
    }

    /// Version 9 adds, after the index, the change log (`ChangeLog`): its steps as one JSON
    /// text, then each record's first-seen and changed-at times. Without a log, the data is
    /// its first version: every record first seen when the file is written. Version 10 adds
    /// the served areas' counts (`ServedCounts`) as one JSON text.
    private static func layOut(_ catalog: Catalog, index: AreaIndex, createdAt: Double, changes: ChangeLog?, counts: ServedCounts? = nil,
                               into writer: inout SnapshotLayoutWriter) {
        writer.number(createdAt)
        // In the table's order (by id); sources without areas first.
        let sources = catalog.sources.sorted { ($0.value.range.lowerBound, $0.value.range.count, $0.key) < ($1.value.range.lowerBound, $1.value.range.count, $1.key) }
        writer.number(sources.count)
        for (name, span) in sources {
            writer.column(Column(Array(name.utf8)))
            writer.number(span.fetchedAt)
            writer.number(span.range.lowerBound)
            writer.number(span.range.count)
        }
        index.write(to: &writer)
        let log = changes.flatMap { $0.firstSeen.count == catalog.table.count ? $0 : nil } ?? .first(records: catalog.table.count, at: createdAt)
        writer.column(Column(log.stepsText))
        writer.column(log.firstSeen)
        writer.column(log.changedAt)
        writer.column(Column((counts ?? ServedCounts(catalog, index: index)).text))
    }

    /// Puts the checksum of the payload of `file` in its header.
    package static func seal(_ file: inout [UInt8]) {
        let sum = file[headerSize...].withUnsafeBytes(checksum)
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<8 { file[20 + i] = $0[i] } }
    }

    /// Reads a version 5 or later file in place (its header and checksum already checked): every
    /// part of the index is checked as `AreaIndex.init(reading:)` says, and every source's run
    /// must cover the table in order, its areas naming it.
    /// `letGo`: see `SnapshotLayoutReader`.
    static func decodeLayout(_ file: UnsafeRawBufferPointer, owner: AnyObject, path: String, version: UInt32,
                             lettingGo letGo: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(Failure) -> Contents {
        func corrupt(_ reason: String) -> Failure { .corrupt(path: path, reason: reason) }
        var reader = SnapshotLayoutReader(file: file, owner: owner, lettingGo: letGo)
        do {
            let createdAt = Double(bitPattern: try reader.number())
            guard plausibleTime(createdAt) else { throw corrupt("created at \(createdAt), not a time this file can have") }
            let sourceCount = try reader.integer("the source count", atMost: 100_000)
            var runs: [(name: String, fetchedAt: Double, start: Int, count: Int)] = []
            for _ in 0..<sourceCount {
                let nameBytes = try reader.column(of: UInt8.self)
                guard nameBytes.count <= 4096, let name = String(validating: nameBytes, as: UTF8.self) else { throw corrupt("a source name that is not UTF-8") }
                let fetchedAt = Double(bitPattern: try reader.number())
                guard plausibleTime(fetchedAt) else { throw corrupt("source \(name) fetched at \(fetchedAt), not a time this file can have") }
                let start = try reader.integer("source \(name)'s first area", atMost: Int(UInt32.max))
                let count = try reader.integer("source \(name)'s area count", atMost: Int(UInt32.max))
                runs.append((name, fetchedAt, start, count))
            }
            let index = try AreaIndex(reading: &reader, merged: version >= 6, worded: version >= 7, searchable: version >= 8, keyedFields: version >= 11,
                                         answersTogether: version >= 12)
            let table = index.areas
            var changes = ChangeLog.first(records: table.count, at: createdAt)
            if version >= 9 {
                let text = try reader.column(of: UInt8.self)
                let firstSeen = try reader.column(of: Double.self)
                let changedAt = try reader.column(of: Double.self)
                guard firstSeen.count == table.count, changedAt.count == table.count else {
                    throw corrupt("its change log has times for \(firstSeen.count) and \(changedAt.count) of the \(table.count) records")
                }
                changes = ChangeLog(stepsText: text, firstSeen: firstSeen, changedAt: changedAt)
            }
            let countsText = version >= 10 ? Array(try reader.column(of: UInt8.self)) : nil
            guard reader.offset == file.count else {
                throw corrupt("\(file.count - reader.offset) unexpected bytes after the \(version >= 10 ? "counts" : version >= 9 ? "change log" : "index")")
            }
            var spans: [String: Catalog.SourceSpan] = [:]
            var next = 0
            for run in runs {
                guard spans[run.name] == nil else { throw corrupt("source \(run.name) is named twice") }
                guard run.count == 0 || run.start == next else { throw corrupt("source \(run.name)'s areas start at \(run.start), not \(next)") }
                let range = run.count == 0 ? 0..<0 : run.start..<run.start + run.count
                guard range.upperBound <= table.count else { throw corrupt("source \(run.name)'s areas run past the \(table.count) the table holds") }
                let nameBytes = Array(run.name.utf8)
                let named: Bool = table.withBuffers { areas in
                    nameBytes.withUnsafeBufferPointer { nameBytes in
                        var checked = StringArena.Ref?.none
                        for position in range where areas.records[position].source != checked {
                            guard areas.utf8(areas.records[position].source).sameBytes(as: nameBytes) else { return false }
                            checked = areas.records[position].source
                        }
                        return true
                    }
                }
                guard named else { throw corrupt("source \(run.name)'s areas name another source") }
                spans[run.name] = Catalog.SourceSpan(range: range, fetchedAt: run.fetchedAt)
                if run.count > 0 { next = range.upperBound }
            }
            guard next == table.count else { throw corrupt("the sources' runs cover \(next) of the \(table.count) areas") }
            let catalog = Catalog(sortedTable: table, spans: spans)
            // Counted here for an older file, while its pages are still resident from the checks.
            let counts = try countsText.map { text throws(Failure) in
                guard let counts = ServedCounts.read(text, catalog: catalog, served: index.count) else { throw corrupt("its counts do not fit its areas") }
                return counts
            } ?? ServedCounts(catalog, index: index)
            return Contents(catalog: catalog, index: index, createdAt: createdAt, version: version, changes: changes, counts: counts)
        } catch let failure as Failure {
            throw failure
        } catch let error as FlatLayoutError {
            throw corrupt(error.reason)
        } catch {
            throw corrupt("\(error)")
        }
    }
}
