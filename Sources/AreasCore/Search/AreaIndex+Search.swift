extension AreaIndex {
    /// An area a search found: where, how well its text matched, and how far it is from the
    /// question's point.
    public struct SearchMatch: Sendable, Equatable {
        /// How an area's text matched, best first: ranks order the answer before distance.
        public enum Rank: Int, Sendable, Comparable {
            /// The name is the query, letter for letter.
            case exactName
            /// The name begins with the query.
            case namePrefix
            /// Every word is in the name.
            case name
            /// Every word is in the name or an address, not all in the name.
            case address

            public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
        }

        public var position: Int
        public var rank: Rank
        public var distanceMeters: Double?

        /// `matched` in the answer: `name` or `address`.
        public var matchedField: String { rank == .address ? "address" : "name" }
    }

    /// The most candidate areas a search reads; a question that would read more is refused
    /// with what to narrow, or, given a position, answered from the areas nearest it.
    public static let searchCandidateLimit = 20_000
    /// The most areas a search answered from the nearest reads before it stops.
    public static let nearestSearchLimit = 5_000

    /// What a search found: the matches in order, whether more matched, and whether the
    /// question was too broad to rank among all its areas, so that these are the nearest of
    /// them (`truncated` too).
    public struct SearchResult: Sendable, Equatable {
        public var matches: [SearchMatch]
        public var truncated: Bool
        public var nearestOnly = false
    }

    /// Areas whose name or address holds every word of `query` (as `SearchText` folds them),
    /// best rank first, then nearest `point` when given, then in id order; at most `limit`,
    /// and whether more matched. A question whose words are in more areas than a search reads
    /// is `too_expensive`; given a position, it is answered instead from the nearest areas that
    /// hold them (reading at most `nearestSearchLimit`), ranked the same way.
    public func search(_ query: String, near point: GeoPoint? = nil, kind: KindFilter = .all, region: Region = .anywhere,
                       limit: Int) throws(GeoError) -> SearchResult {
        guard limit >= 0 else { throw .invalidCount(limit) }
        let words = SearchText.words(of: query)
        let resolved = regionNames.resolve(region)
        guard !words.isEmpty, !resolved.isEmpty else { return SearchResult(matches: [], truncated: false) }
        let candidates: [Int]
        do throws(GeoError) {
            candidates = try searchCandidates(words, query: query)
        } catch {
            guard let point else { throw error }
            return nearestMatches(words, from: point, kind: kind, region: resolved, limit: limit)
        }
        let records = areas.records
        let mask = Self.classMask(of: kind)
        var verifier = SearchVerifier(words)
        var found: [SearchMatch] = []
        areas.withBuffers { table in
            for position in candidates {
                let record = records[position]
                guard mask & Self.classMask(of: record.kind) != 0, isServed(position), resolved.isAnywhere || resolved.admits(record),
                      let rank = verifier.rank(of: record, in: table) else { continue }
                found.append(SearchMatch(position: position, rank: rank, distanceMeters: point.map { Geodesy.distance($0, record.coordinate) }))
            }
        }
        Self.order(&found)
        let truncated = found.count > limit
        if truncated { found.removeSubrange(limit...) }
        return SearchResult(matches: found, truncated: truncated)
    }

    /// Rank, then distance, then id order.
    private static func order(_ found: inout [SearchMatch]) {
        found.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if let da = a.distanceMeters, let db = b.distanceMeters, da != db { return da < db }
            return a.position < b.position
        }
    }

    /// The `limit` areas nearest `point` that hold every word, read nearest first through the
    /// tree; past `nearestSearchLimit` areas read the walk ends with what it found.
    private func nearestMatches(_ words: [[SearchText.Letter]], from point: GeoPoint, kind: KindFilter, region: ResolvedRegion, limit: Int) -> SearchResult {
        final class Walk {
            var verifier: SearchVerifier
            var read = 0
            var ranks: [UInt32: SearchMatch.Rank] = [:]
            init(_ words: [[SearchText.Letter]]) { verifier = SearchVerifier(words) }
        }
        let walk = Walk(words)
        let records = areas.records
        let found = areas.withBuffers { table in
            // Once the walk has read its share, every area admits, so the tree's search ends
            // within `limit` more; those were not read and are dropped below.
            tree.nearest(to: point, k: limit, classMask: Self.classMask(of: kind), filter: AdmitWhere { payload in
                guard walk.read < Self.nearestSearchLimit else { return true }
                walk.read += 1
                let record = records[Int(payload)]
                guard region.isAnywhere || region.admits(record), let rank = walk.verifier.rank(of: record, in: table) else { return false }
                walk.ranks[payload] = rank
                return true
            })
        }
        var matches = found.compactMap { neighbor in
            walk.ranks[neighbor.payload].map { SearchMatch(position: Int(neighbor.payload), rank: $0, distanceMeters: neighbor.distanceMeters) }
        }
        Self.order(&matches)
        return SearchResult(matches: matches, truncated: true, nearestOnly: true)
    }

    /// The areas that may hold every word: those holding every pair of letters of the longer
    /// words (a run of the index each, intersected from the shortest), or, when every word is
    /// one letter, those holding the rarest of them. Ascending positions.
    private func searchCandidates(_ words: [[SearchText.Letter]], query: String) throws(GeoError) -> [Int] {
        let index = search
        var runs: [Range<Int>] = []
        for word in words where word.count >= 2 {
            for i in 0..<(word.count - 1) {
                let run = index.run(of: SearchIndex.key(word[i], word[i + 1]))
                if run.isEmpty { return [] }
                if !runs.contains(run) { runs.append(run) }
            }
        }
        let postings = index.postings
        if runs.isEmpty {
            // Every word is a single letter: the areas holding the rarest, by the keys it begins.
            var rarest: (keys: Range<Int>, total: Int)?
            for word in words {
                let keys = index.keys(beginningWith: word[0])
                let total = keys.isEmpty ? 0 : Int(index.starts[keys.upperBound]) - Int(index.starts[keys.lowerBound])
                if rarest.map({ total < $0.total }) ?? true { rarest = (keys, total) }
            }
            guard let rarest, rarest.total > 0 else { return [] }
            guard rarest.total <= Self.searchCandidateLimit else { throw Self.tooBroad(query, rarest.total) }
            var positions: [Int] = []
            positions.reserveCapacity(rarest.total)
            for at in Int(index.starts[rarest.keys.lowerBound])..<Int(index.starts[rarest.keys.upperBound]) { positions.append(Int(postings[at])) }
            positions.sort()
            var kept = 0
            for position in positions where kept == 0 || positions[kept - 1] != position {
                positions[kept] = position
                kept += 1
            }
            return Array(positions[..<kept])
        }
        runs.sort { $0.count < $1.count }
        let driver = runs[0]
        guard driver.count <= Self.searchCandidateLimit else { throw Self.tooBroad(query, driver.count) }
        // Each other run is walked once, forward, by galloping from where the last area was
        // found: a short run against a long one costs its length times a logarithm.
        var cursors = runs.dropFirst().map(\.lowerBound)
        var candidates: [Int] = []
        next: for at in driver {
            let position = postings[at]
            for (r, run) in runs.dropFirst().enumerated() {
                var low = cursors[r]
                var step = 1
                var high = low
                while high < run.upperBound && postings[high] < position {
                    low = high + 1
                    high = Swift.min(run.upperBound, high + step)
                    step *= 2
                }
                while low < high {
                    let middle = (low + high) / 2
                    if postings[middle] < position { low = middle + 1 } else { high = middle }
                }
                cursors[r] = low
                if low == run.upperBound { break next }
                if postings[low] != position { continue next }
            }
            candidates.append(Int(position))
        }
        return candidates
    }

    private static func tooBroad(_ query: String, _ count: Int) -> GeoError {
        .tooExpensive("'\(query.prefix(40))' is in the text of \(count) areas, more than a search reads (\(searchCandidateLimit)): "
            + "add a word or a longer one, or narrow by kind, province or district")
    }
}

/// Reads an area's text and says whether, and how well, it holds a search's words: the name
/// first, the addresses only for a word the name lacks.
struct SearchVerifier {
    let words: [[SearchText.Letter]]
    let whole: [SearchText.Letter]
    private var name: [SearchText.Letter] = [], road: [SearchText.Letter] = [], lot: [SearchText.Letter] = []

    init(_ words: [[SearchText.Letter]]) {
        self.words = words
        whole = words.flatMap { $0 }
    }

    mutating func rank(of record: AreaTable.Record, in table: AreaTable.Buffers) -> AreaIndex.SearchMatch.Rank? {
        name.removeAll(keepingCapacity: true)
        SearchText.fold(table.utf8(record.name), into: &name)
        var inName = true
        for word in words where !SearchText.contains(name, word) {
            if inName {
                inName = false
                road.removeAll(keepingCapacity: true)
                lot.removeAll(keepingCapacity: true)
                SearchText.fold(table.utf8(record.roadAddress), into: &road)
                SearchText.fold(table.utf8(record.lotAddress), into: &lot)
            }
            if !SearchText.contains(road, word) && !SearchText.contains(lot, word) { return nil }
        }
        return !inName ? .address : name == whole ? .exactName : name.starts(with: whole) ? .namePrefix : .name
    }
}
