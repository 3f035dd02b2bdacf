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
    /// with what to narrow.
    public static let searchCandidateLimit = 50_000

    /// Areas whose name or address holds every word of `query` (as `SearchText` folds them),
    /// best rank first, then nearest `point` when given, then in id order; at most `limit`,
    /// and whether more matched.
    public func search(_ query: String, near point: GeoPoint? = nil, kind: KindFilter = .all, region: Region = .anywhere,
                       limit: Int) throws(GeoError) -> (matches: [SearchMatch], truncated: Bool) {
        guard limit >= 0 else { throw .invalidCount(limit) }
        let words = SearchText.words(of: query)
        let resolved = regionNames.resolve(region)
        guard !words.isEmpty, !resolved.isEmpty else { return ([], false) }
        let candidates = try searchCandidates(words, query: query)
        let whole = words.flatMap { $0 }
        let records = areas.records
        let mask = Self.classMask(of: kind)
        var found: [SearchMatch] = []
        var name: [SearchText.Letter] = [], road: [SearchText.Letter] = [], lot: [SearchText.Letter] = []
        areas.withBuffers { table in
            for position in candidates {
                let record = records[position]
                guard mask & Self.classMask(of: record.kind) != 0, isServed(position), resolved.isAnywhere || resolved.admits(record) else { continue }
                name.removeAll(keepingCapacity: true)
                SearchText.fold(table.utf8(record.name), into: &name)
                var inName = true
                var everyWord = true
                for word in words where !SearchText.contains(name, word) {
                    if inName {
                        // The addresses are read only for a word the name lacks.
                        inName = false
                        road.removeAll(keepingCapacity: true)
                        lot.removeAll(keepingCapacity: true)
                        SearchText.fold(table.utf8(record.roadAddress), into: &road)
                        SearchText.fold(table.utf8(record.lotAddress), into: &lot)
                    }
                    if !SearchText.contains(road, word) && !SearchText.contains(lot, word) {
                        everyWord = false
                        break
                    }
                }
                guard everyWord else { continue }
                let rank: SearchMatch.Rank = !inName ? .address : name == whole ? .exactName
                    : name.starts(with: whole) ? .namePrefix : .name
                found.append(SearchMatch(position: position, rank: rank, distanceMeters: point.map { Geodesy.distance($0, record.coordinate) }))
            }
        }
        found.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if let da = a.distanceMeters, let db = b.distanceMeters, da != db { return da < db }
            return a.position < b.position
        }
        let truncated = found.count > limit
        if truncated { found.removeSubrange(limit...) }
        return (found, truncated)
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
