import AreasCore

/// What a refresh would make of every row of a discovered file: served with their published
/// position, sent to the geocoder, or rejected, by reason.
struct DiscoveryTally: Sendable {
    var rows = 0
    var withPositions = 0
    var repaired = 0
    var toGeocode = 0
    /// Rows the geocoder would be asked about with an empty question: found by no geocoder.
    var nothingToAsk = 0
    var duplicates = 0
    var rejected: [RecordValidator.Rejection: Int] = [:]
    /// Why the rows sent to the geocoder have no usable position.
    var unplacedReasons: [RecordValidator.Rejection: Int] = [:]
    /// The first rows as they would be served (or asked about).
    var firstAreas: [String] = []
    /// The rows to place, each with its name and its address question, in the file's order
    /// (at most `maximumToPlace`): what a positions file filled in by hand places offline.
    var toPlace: [(name: String, query: String)] = []
    static let maximumToPlace = 1_000_000
    private var rowsSeen = RecordValidator.Rows(footprint: .standard)
    /// The ids met, numbered for `rowsSeen`.
    private var ids = StringArena.Builder()
    /// The keys of the rows admitted, for `rowsSeen` to look back at.
    private var admitted: [(place: UInt64, row: UInt64)] = []

    /// The counts of a source that asks the geocoder nothing: the rows it would have asked
    /// about are rejected, each for its position's fault.
    mutating func withoutGeocoding() {
        for (reason, count) in unplacedReasons { rejected[reason, default: 0] += count }
        unplacedReasons = [:]
        toGeocode = 0
        nothingToAsk = 0
        toPlace = []
        firstAreas.removeAll { $0.contains("(to geocode: ") }
    }

    mutating func count(_ outcome: RecordValidator.Outcome) {
        rows += 1
        switch outcome {
        case .accepted(let area, let wasRepaired):
            guard let kept = rowsSeen.admit(area, idNumber: ids.number(of: area.id), firstRow: { admitted[$0] }) else {
                duplicates += 1
                return
            }
            admitted.append(RecordValidator.Rows.keys(of: kept, footprint: .standard))
            withPositions += 1
            if wasRepaired { repaired += 1 }
            if firstAreas.count < 3 {
                let region = [area.province, area.district].filter { !$0.isEmpty }.joined(separator: " ")
                firstAreas.append("\(area.name)  \(area.coordinate.latitude), \(area.coordinate.longitude)" + (region.isEmpty ? "" : "  \(region)")
                                  + (area.roadAddress.isEmpty || area.roadAddress == area.name ? "" : "  \(area.roadAddress)"))
            }
        case .rejected(let reason):
            rejected[reason, default: 0] += 1
        case .unplaced(let row):
            toGeocode += 1
            if toPlace.count < Self.maximumToPlace { toPlace.append((row.name, row.query)) }
            unplacedReasons[row.reason, default: 0] += 1
            if row.query.isEmpty && (row.keyword ?? "").isEmpty { nothingToAsk += 1 }
            if firstAreas.count < 3 { firstAreas.append("\(row.name)  (to geocode: \"\(row.query.isEmpty ? row.keyword ?? "" : row.query)\")") }
        }
    }
}
