import AreasCore

/// The columns discovery chose for each role, and why: the `fields` of the source it prints.
struct DiscoveredColumns: Sendable {
    struct Choice: Sendable {
        var column: String
        var why: String
    }

    var name: Choice?
    /// A column that tells apart rows whose names repeat (booths at one address: `옥상`,
    /// `1층 정자`), joined to the name.
    var nameDetail: Choice?
    /// The place a name that only says where within it (`청사 뒤`) is at (`한국전력`), put
    /// before the name.
    var namePlace: Choice?
    /// Runners-up for the name, best first, each with its reasons.
    var nameRunnersUp: [Choice] = []
    var latitude: Choice?
    var longitude: Choice?
    /// One column holding both numbers (then `latitude` and `longitude` are nil).
    var pair: Choice?
    var address: Choice?
    var lotAddress: Choice?
    var province: Choice?
    var district: Choice?
    var referenceDate: Choice?
    /// A zone's extent words, type and size (see `FootprintPolicy`).
    var extent: Choice?
    var zoneType: Choice?
    var size: Choice?

    /// Chooses from the profiles of a file's `rows` columns, in the file's order.
    init(_ profiles: [ColumnProfile], rows: Int) {

        // Coordinates, by their values first: a column's name only breaks ties, since files
        // swap 위도 and 경도 or call them X and Y.
        func coordinateScore(_ p: ColumnProfile, latitude: Bool) -> Double {
            let inRange = latitude ? p.latitudes : p.longitudes
            let other = latitude ? p.longitudes : p.latitudes
            guard p.numbers > 0, inRange > 0, Double(inRange) >= 0.3 * Double(p.numbers), inRange > other / 4 else { return 0 }
            let named = latitude ? ColumnNameWords.isLatitude(p.name) : ColumnNameWords.isLongitude(p.name)
            return p.share(inRange) + (named ? 0.25 : 0)
        }
        func coordinateWhy(_ p: ColumnProfile, latitude: Bool) -> String {
            let inRange = latitude ? p.latitudes : p.longitudes
            let word = latitude ? "latitudes" : "longitudes"
            var why = "\(inRange) of \(p.filled) values are \(word) in Korea"
            let namedSo = latitude ? ColumnNameWords.isLatitude(p.name) : ColumnNameWords.isLongitude(p.name)
            let namedOtherwise = latitude ? ColumnNameWords.isLongitude(p.name) : ColumnNameWords.isLatitude(p.name)
            if namedSo { why += "; named so" } else if namedOtherwise { why += "; though named for the other, the values decide" }
            return why
        }
        let lat = profiles.map { ($0, coordinateScore($0, latitude: true)) }.filter { $0.1 > 0 }.max { $0.1 < $1.1 }
        let lon = profiles.map { ($0, coordinateScore($0, latitude: false)) }.filter { $0.1 > 0 && $0.0.name != lat?.0.name }.max { $0.1 < $1.1 }
        let pairColumn = profiles.filter { $0.pairs > 0 && $0.share($0.pairs) >= 0.5 }.max { $0.pairs < $1.pairs }
        if let pairColumn, pairColumn.pairs > min(lat?.0.latitudes ?? 0, lon?.0.longitudes ?? 0) {
            pair = Choice(column: pairColumn.name, why: "\(pairColumn.pairs) of \(pairColumn.filled) cells hold a latitude and a longitude together")
        } else if let lat, let lon {
            latitude = Choice(column: lat.0.name, why: coordinateWhy(lat.0, latitude: true))
            longitude = Choice(column: lon.0.name, why: coordinateWhy(lon.0, latitude: false))
        }
        let coordinateColumns: Set<String> = Set([latitude?.column, longitude?.column, pair?.column].compactMap { $0 })
        let texts = profiles.filter { !coordinateColumns.contains($0.name) && $0.filled > 0 }

        // Province and district columns: most of their values are region names.
        if let p = texts.filter({ $0.share($0.provinces) >= 0.8 }).max(by: { $0.provinces < $1.provinces }) {
            province = Choice(column: p.name, why: "\(percent(p.share(p.provinces))) of values are provinces (\(p.provinceValues.keys.sorted().prefix(3).joined(separator: ", ")))")
        }
        if let d = texts.filter({ $0.share($0.districts) >= 0.8 && $0.name != province?.column }).max(by: { $0.districts < $1.districts }) {
            district = Choice(column: d.name, why: "\(percent(d.share(d.districts))) of values are districts (\(d.districtValues.keys.sorted().prefix(3).joined(separator: ", ")))")
        }
        if let r = texts.filter({ ColumnNameWords.isReferenceDate($0.name) && $0.share($0.dates + $0.numbers) >= 0.5 }).first {
            referenceDate = Choice(column: r.name, why: "named for the data's date, \(percent(r.share(r.dates + r.numbers))) of values dates")
        }
        if let e = texts.first(where: { ColumnNameWords.isZoneExtent($0.name) && $0.share($0.numbers) < 0.5 }) {
            extent = Choice(column: e.name, why: "named for a zone's extent: its words draw the zone's footprint")
        }
        if let t = texts.first(where: { ColumnNameWords.isZoneType($0.name) }) {
            zoneType = Choice(column: t.name, why: "named for a zone's type: a school route's size is its length")
        }
        if let s = texts.first(where: { ColumnNameWords.isZoneSize($0.name) && $0.share($0.numbers) >= 0.5 }) {
            size = Choice(column: s.name, why: "named for a zone's size, \(percent(s.share(s.numbers))) of values numbers (m²)")
        }
        let regionColumns: Set<String> = Set([province?.column, district?.column, referenceDate?.column].compactMap { $0 })

        // Addresses: a column named for one, or whose values read as one.
        func addressScore(_ p: ColumnProfile, lot: Bool) -> Double {
            let shaped = p.share(lot ? p.lotAddresses : p.roadAddresses)
            let named = lot ? ColumnNameWords.isLotAddress(p.name) : ColumnNameWords.isRoadAddress(p.name)
            guard named || shaped >= 0.5 else { return 0 }
            return shaped + (named ? 1 : 0)
        }
        let addressCandidates = texts.filter { !regionColumns.contains($0.name) && $0.share($0.numbers) < 0.5 }
        if let road = addressCandidates.map({ ($0, addressScore($0, lot: false)) }).filter({ $0.1 > 0 }).max(by: { $0.1 < $1.1 })?.0 {
            address = Choice(column: road.name, why: (ColumnNameWords.isRoadAddress(road.name) ? "named for an address; " : "") + "\(percent(road.share(road.roadAddresses))) of values read as road addresses")
        }
        if let lot = addressCandidates.map({ ($0, addressScore($0, lot: true)) }).filter({ $0.1 > 0 && $0.0.name != address?.column }).max(by: { $0.1 < $1.1 })?.0 {
            lotAddress = Choice(column: lot.name, why: (ColumnNameWords.isLotAddress(lot.name) ? "named for a lot address; " : "") + "\(percent(lot.share(lot.lotAddresses))) of values read as lot addresses")
        }

        // The name: the column people would call the area by. Not an address, a number, a
        // region or a category repeated on every row, unless nothing else is left.
        var scored: [(Choice, Double)] = []
        for p in texts where !regionColumns.contains(p.name) && p.share(p.numbers) < 0.5 {
            var score = 0.0
            var why: [String] = []
            let (weight, word) = ColumnNameWords.placeNameWeight(p.name)
            score += weight
            if let word { why.append(word) }
            score += 2 * p.distinctShare
            why.append("\(percent(p.distinctShare)) distinct")
            // A column filled on a few rows (a remark) names no area.
            let filledShare = rows == 0 ? 0 : Double(p.filled) / Double(rows)
            score += 2 * filledShare
            if filledShare < 0.9 { why.append("filled on \(percent(filledShare)) of rows") }
            let addressLike = p.share(p.roadAddresses + p.lotAddresses)
            if addressLike >= 0.5 { score -= 2 * addressLike; why.append("reads as addresses") }
            if p.name == address?.column || p.name == lotAddress?.column { score -= 1; why.append("the address column") }
            if p.distinctCount <= 3 && p.filled >= 10 {
                score -= 4
                why.append("repeats \(p.distinctCount == 1 ? "one value" : "\(p.distinctCount) values") (\(p.sample.prefix(2).joined(separator: ", ")))")
            }
            if p.share(p.dates) >= 0.5 { score -= 3; why.append("dates") }
            if p.share(p.codes) >= 0.5 { score -= 3 * p.share(p.codes); why.append("reads as codes (\(p.sample.first ?? ""))") }
            scored.append((Choice(column: p.name, why: why.joined(separator: "; ")), score))
        }
        // One value on every row names no place when another column tells rows apart: it is
        // said (a warning in the report), never chosen.
        let singleValued = Set(texts.filter { $0.distinctCount == 1 && $0.filled >= 10 }.map(\.name))
        if texts.contains(where: { !singleValued.contains($0.name) && !regionColumns.contains($0.name) && $0.distinctShare >= 0.5 && $0.share($0.numbers) < 0.5 }) {
            for i in scored.indices where singleValued.contains(scored[i].0.column) { scored[i].1 = -.infinity }
        }
        scored.sort { $0.1 > $1.1 }
        name = scored.first?.0
        nameRunnersUp = scored.dropFirst().prefix(3).map(\.0)
    }
}

extension DiscoveredColumns {
    /// The columns given a role, besides the name's detail.
    var chosenColumns: Set<String> {
        Set([name, namePlace, latitude, longitude, pair, address, lotAddress, province, district, referenceDate].compactMap { $0?.column })
    }

    /// `fields.name`: the name's column, or it and its detail joined.
    var nameField: String {
        guard let name else { return "" }
        guard nameDetail != nil || namePlace != nil else { return name.column }
        return [namePlace, name, nameDetail].compactMap { $0.map { "{\($0.column)}" } }.joined(separator: " ")
    }

    /// When most names only say where within a place the area is (`청사 뒤`, `정문 옆`), the
    /// column that names the place (`시설 구분`: `한국전력`): words, not numbers, dates, codes,
    /// addresses or regions, not who manages it, with the most distinct values.
    mutating func chooseNamePlace(_ profiles: [ColumnProfile]) {
        guard let name, let profile = profiles.first(where: { $0.name == name.column }), profile.share(profile.spots) >= 0.5 else { return }
        let taken = chosenColumns
        let place = profiles.filter { p in
            !taken.contains(p.name) && p.filled * 2 >= profile.filled && p.distinctCount >= 2
                && p.share(p.numbers) < 0.5 && p.share(p.dates) < 0.5 && p.share(p.codes) < 0.5 && p.share(p.spots) < 0.2
                && p.share(p.roadAddresses + p.lotAddresses) < 0.5 && p.share(p.provinces + p.districts) < 0.5
                && ColumnNameWords.placeNameWeight(p.name).weight > -6
        }.max { $0.distinctCount < $1.distinctCount }
        guard let place else { return }
        namePlace = Choice(column: place.name, why: "\(percent(profile.share(profile.spots))) of \(name.column) say only where within a place (\(profile.sample.first ?? "")); \(place.name) names the place (\(place.sample.first ?? "")), so it comes first")
    }

    /// When the name repeats on rows a person would call different places, the column that
    /// tells the most of them apart: one whose words name a place (not a remark, a number, a
    /// date or a register's code), that makes at least half of the repeats distinct.
    /// `rows` gives each row's cells by column.
    mutating func chooseNameDetail<Failure: Error>(_ profiles: [ColumnProfile],
                                                   rows: (_ take: ([String: String]) -> Void) throws(Failure) -> Void) throws(Failure) {
        guard let name, let profile = profiles.first(where: { $0.name == name.column }),
              profile.distinctCount < ColumnProfile.distinctLimit, profile.distinctCount < profile.filled else { return }
        let taken = chosenColumns
        let candidates = profiles.filter { p in
            !taken.contains(p.name) && p.filled > 0 && p.share(p.numbers) < 0.5 && p.share(p.dates) < 0.5 && p.share(p.codes) < 0.5 && p.distinctCount > 1
                && ColumnNameWords.placeNameWeight(p.name).weight >= 0
        }.map(\.name)
        guard !candidates.isEmpty else { return }
        var names: Set<String> = []
        var pairs = [String: Set<String>]()
        try rows { cells in
            guard let value = cells[name.column], !value.isEmpty else { return }
            names.insert(value)
            for candidate in candidates { pairs[candidate, default: []].insert(value + "\u{1F}" + (cells[candidate] ?? "")) }
        }
        let repeats = profile.filled - names.count
        guard repeats > 0, let best = candidates.max(by: { (pairs[$0]?.count ?? 0) < (pairs[$1]?.count ?? 0) }),
              let told = pairs[best].map({ $0.count - names.count }), 2 * told >= repeats else { return }
        nameDetail = Choice(column: best, why: "\(repeats) rows repeat another's \(name.column); \(best) tells \(told) of them apart, so the name is both together")
    }
}

/// `0.934` as `93%`, for the report.
func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
