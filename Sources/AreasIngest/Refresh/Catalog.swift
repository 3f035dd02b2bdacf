import AreasCore
import AreasSystem

/// The merged data set: one table of every source's last good areas, each source a run of it.
///
/// This is the one shape a data set has from validation to serving: a refresh merges new
/// per-source tables into a new catalog, the snapshot is written from its table, and the index
/// is built over that same table. Ids are `source:hash` and each source's run is in id order,
/// so ordering the sources by `name:` puts the whole table in id order and the index need not
/// sort it.
package struct Catalog: Sendable, Equatable {
    /// Every area, sources in the order of their ids' prefixes.
    package let table: AreaTable
    /// Every source the catalog knows, including any with no areas: its run and fetch time.
    package let sources: [String: SourceSpan]

    package struct SourceSpan: Sendable, Equatable {
        /// The source's areas: `table[range]`.
        package var range: Range<Int>
        /// When these areas were fetched (seconds since 1970).
        package var fetchedAt: Double
    }

    /// The empty catalog.
    package init() {
        self.table = AreaTable()
        self.sources = [:]
    }

    /// A catalog over `table`, whose areas come source by source; `fetchedAt` names every
    /// source, including any that has no areas. A table out of id order (a snapshot written by
    /// hand, say) is put in order first, keeping the first of any repeated id, so the catalog's
    /// table is the one the index serves.
    package init(table: AreaTable, fetchedAt: [String: Double]) {
        let table = table.sortedByID()
        var sources: [String: SourceSpan] = [:]
        var start = 0
        let records = table.records
        let strings = table.strings
        while start < records.count {
            var end = start + 1
            while end < records.count && strings.equals(records[end].source, records[start].source) { end += 1 }
            let name = strings.string(records[start].source)
            sources[name] = SourceSpan(range: start..<end, fetchedAt: fetchedAt[name] ?? 0)
            start = end
        }
        for (name, fetched) in fetchedAt where sources[name] == nil {
            sources[name] = SourceSpan(range: 0..<0, fetchedAt: fetched)
        }
        self.table = table
        self.sources = sources
    }

    /// The same areas with newer fetch times for the sources named (sources it lacks are
    /// ignored): a refresh that fetched them again and found nothing changed.
    package func with(fetchedAt newer: [String: Double]) -> Catalog {
        var sources = self.sources
        for (name, fetched) in newer where sources[name] != nil { sources[name]?.fetchedAt = fetched }
        return Catalog(sortedTable: table, spans: sources)
    }

    /// A catalog whose table is in id order and whose runs were checked (a snapshot's).
    init(sortedTable table: AreaTable, spans: [String: SourceSpan]) {
        self.table = table
        self.sources = spans
    }

    /// A catalog of `areas` (made into a table, for tests and benchmarks that start from values).
    package init(areas: [Area], fetchedAt: [String: Double]) {
        self.init(table: AreaTable(areas: areas), fetchedAt: fetchedAt)
    }

    /// One source's new areas, in id order, replacing its run.
    package struct Replacement: Sendable {
        package var table: AreaTable
        package var fetchedAt: Double

        package init(table: AreaTable, fetchedAt: Double) {
            self.table = table
            self.fetchedAt = fetchedAt
        }
    }

    /// The catalog of the sources in `names`: each replaced source's new areas, every other
    /// source's run of this catalog as it is. Sources not named are dropped. With nothing
    /// replaced and nothing dropped, the catalog itself comes back, uncopied. Each new table
    /// is let go once copied (when the caller holds it no more), so the merge never holds
    /// every source twice.
    package func merging(_ replacements: consuming [String: Replacement], keeping names: [String]) -> Catalog {
        let kept = Set(names)
        if replacements.isEmpty && Set(sources.keys).isSubset(of: kept) { return self }
        // Byte order, the order the table keeps its ids in.
        let ordered = kept.sorted { ($0 + ":").utf8.lexicographicallyPrecedes(($1 + ":").utf8) }
        var fetchedAt: [String: Double] = [:]
        if ordered.allSatisfy({ replacements[$0] != nil || sources[$0] == nil }) {
            // Only new tables (a first refresh, or every source changed): laid end to end whole,
            // with no string looked up again.
            var parts: [AreaTable] = []
            for name in ordered {
                guard let replacement = replacements.removeValue(forKey: name) else { continue }
                parts.append(replacement.table)
                fetchedAt[name] = replacement.fetchedAt
            }
            return Catalog(table: AreaTable(concatenating: consume parts), fetchedAt: fetchedAt)
        }
        // Each source's rows, new or kept, in the catalog's order.
        var runs: [(table: AreaTable, rows: Range<Int>)] = []
        for name in ordered {
            if let replacement = replacements.removeValue(forKey: name) {
                runs.append((replacement.table, replacement.table.indices))
                fetchedAt[name] = replacement.fetchedAt
            } else if let span = sources[name] {
                runs.append((table, span.range))
                fetchedAt[name] = span.fetchedAt
            }
        }
        var builder = AreaTable.Builder(capacity: runs.reduce(0) { $0 + $1.rows.count })
        // The text answers read first, every row's, then the rows with their fields' text.
        for run in runs { for position in run.rows { builder.storeAnswerText(of: position, of: run.table) } }
        runs.reverse()
        while let run = runs.popLast() {  // each new table let go once copied
            for position in run.rows { builder.append(position, of: run.table) }
        }
        return Catalog(table: builder.build(), fetchedAt: fetchedAt)
    }

    package var areaCount: Int { table.count }

    /// The areas of `source`, each made whole (for code that wants `Area` values, not for
    /// serving).
    package func areas(of source: String) -> [Area] {
        sources[source].map { $0.range.map { table[$0] } } ?? []
    }

    /// Takes the pages of the snapshot this catalog is read from (and its index with it) out
    /// of the process's resident set; they stay in the kernel's cache and come back as
    /// questions touch them. A refresh that has just read the whole served set (to compare and
    /// merge) lets them go, so that they do not add to its peak. Nothing for a catalog in memory.
    package func releaseMappedPages() {
        (table.records.storage as? MappedFile)?.releaseResidentPages()
    }

    /// The index over this catalog's table, its records merged into areas as `merge` says
    /// (`keepingSearch`: see `AreaIndex.init(sortedTable:)`).
    package func index(nodeSize: Int = PackedRTree.defaultNodeSize, footprint: FootprintPolicy = .standard, merge: MergePolicy = .off,
                       overrides: [AreaOverride] = [], keepingSearch: (SearchIndex) -> SearchIndex = { $0 }) -> AreaIndex {
        AreaIndex(sortedTable: table, nodeSize: nodeSize, footprint: footprint, merge: merge, overrides: overrides, keepingSearch: keepingSearch)
    }
}
