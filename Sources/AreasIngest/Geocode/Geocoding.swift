import AreasCore

/// Places the rows of one refresh that were published without a usable position: from the
/// operator's positions file first, then from what the geocoder said before, then by asking it.
/// Rows that share a question share one answer, and a source's distinct questions are asked
/// four at a time once the first has been answered (the client paces them).
package actor Geocoding {
    package private(set) var memory: GeocodeMemory
    /// Why the geocoder could not be asked, when it could not (its last reason).
    package private(set) var whyUnavailable: String?
    private let positions: OperatorPositions
    private let client: GeocoderClient?
    private let now: Double

    package init(memory: GeocodeMemory, positions: OperatorPositions, client: GeocoderClient?, now: Double) {
        self.memory = memory
        self.positions = positions
        self.client = client
        self.now = now
    }

    /// How a row was placed, or why it was not.
    package enum Placement: Sendable, Equatable {
        case placed(GeoPoint, Source)
        case rejected(RecordValidator.Rejection)

        package enum Source: Sendable, Equatable {
            /// The operator's positions file.
            case operatorFile
            /// The geocoder's answer from an earlier refresh.
            case remembered
            /// Asked in this refresh.
            case asked
        }
    }

    /// One placement per row of `rows`, in order.
    package func place(_ rows: [RecordValidator.Unplaced], source: String) async -> [Placement] {
        var placements = [Placement?](repeating: nil, count: rows.count)
        var pending: [Pair: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            if let point = positions.position(source: source, name: row.name, query: row.query) {
                placements[i] = .placed(point, .operatorFile)
            } else {
                pending[Pair(query: row.query, keyword: row.keyword ?? ""), default: []].append(i)
            }
        }
        let questions = Array(pending.keys)
        await withTaskGroup(of: (Pair, Placement).self) { group in
            var next = 0
            func start() {
                guard next < questions.count else { return }
                let pair = questions[next]
                next += 1
                group.addTask { (pair, await self.resolve(pair)) }
            }
            // The first question alone: a refused key then costs one request, not four.
            start()
            var first = true
            for await (pair, placement) in group {
                for i in pending[pair] ?? [] { placements[i] = placement }
                for _ in 0..<(first ? 4 : 1) { start() }
                first = false
            }
        }
        return placements.map { $0 ?? .rejected(.geocoderUnavailable) }
    }

    /// A row's two questions: its address, and the place name to try when that finds nothing.
    struct Pair: Hashable, Sendable {
        var query: String
        var keyword: String
    }

    private func resolve(_ pair: Pair) async -> Placement {
        var unavailable = false
        for question in [GeocodeQuestion(.address, pair.query), GeocodeQuestion(.place, pair.keyword)] where !question.text.isEmpty {
            switch memory.recall(question, now: now) {
            case .found(let point)?: return .placed(point, .remembered)
            case .notFound?: continue
            case nil: break
            }
            guard let client else {
                unavailable = true
                continue
            }
            switch await client.locate(question) {
            case .found(let point):
                memory.remember(question, .found(point), now: now)
                return .placed(point, .asked)
            case .notFound:
                memory.remember(question, .notFound, now: now)
            case .unavailable(let why):
                whyUnavailable = why
                unavailable = true
            }
        }
        guard client != nil else { return .rejected(.notInPositionsFile) }
        return .rejected(unavailable ? .geocoderUnavailable : .notFound)
    }
}
