/// What a discovered source asks the geocoder for a row without a usable position: the
/// address, with the province and district in front when the addresses leave them out (they
/// sit in columns of their own, or are the file's constants), and the name for place search.
struct GeocodeQuestions: Sendable {
    var queries: GeocodeQueries?

    init(_ chosen: DiscoveredColumns, region: RegionConstants, profiles: [ColumnProfile]) {
        guard let name = chosen.name?.column else { return }
        func placeholder(_ column: String) -> String { "{\(column)}" }
        let addressColumn = chosen.address?.column ?? chosen.lotAddress?.column
        // The column asked about: its values may already begin with the region.
        let address = profiles.first { $0.name == (addressColumn ?? name) }
        let provinceCount = address.map { $0.leadingProvinces.values.reduce(0, +) } ?? 0
        let districtCount = address.map { $0.leadingDistricts.values.reduce(0, +) } ?? 0
        let filled = address?.filled ?? 0
        var prefix: [String] = []
        if filled == 0 || 2 * provinceCount < filled {
            if let column = chosen.province?.column { prefix.append(placeholder(column)) } else if let value = region.province?.value { prefix.append(value) }
            if 2 * districtCount < filled || filled == 0 {
                if let column = chosen.district?.column { prefix.append(placeholder(column)) } else if let value = region.district?.value { prefix.append(value) }
            }
        }
        let asked = addressColumn ?? name
        guard let query = try? GeocodeTemplate((prefix + [placeholder(asked)]).joined(separator: " ")),
              let keyword = try? GeocodeTemplate(placeholder(name)) else { return }
        queries = GeocodeQueries(query: query, keyword: keyword)
    }
}
