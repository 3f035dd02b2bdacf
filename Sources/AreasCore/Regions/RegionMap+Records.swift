/// A record's stated district against the district its position lies in: what each refresh
/// tells a publisher about rows in the wrong district, and how a row without a district gets one.
extension RegionMap {
    /// What the map says of one record's district.
    public enum DistrictFinding: Sendable, Equatable {
        /// The position lies in the stated district, or within the tolerance of it.
        case agrees
        /// The stated name is no district the map knows (nor any way of writing one).
        case unknownName
        /// The position lies nowhere on the map (at sea, abroad): nothing to fill or compare.
        case nowhere
        /// The record states no district: the one its position lies in, with its province.
        case fromPosition(province: String, district: String)
        /// The position lies `meters` outside the stated district, in `found` (nil: at sea).
        case elsewhere(found: String?, meters: Double)
    }

    /// Judges a record's stated province and district against its position; `toleranceMeters`
    /// forgives a position just across a border.
    public func judge(province: String, district: String, at point: GeoPoint, toleranceMeters: Double) -> DistrictFinding {
        let districtRow = self[.district].row(holding: point) ?? place(of: point).row(.district)
        guard !district.isEmpty else {
            guard let districtRow else { return .nowhere }
            let code = Level.district.code(self[.district].codes[districtRow], at: .province)
            let provinceName = self[.province].row(ofCode: code).map { self[.province].names[$0] } ?? province
            return .fromPosition(province: provinceName, district: self[.district].names[districtRow])
        }
        let stated = districtRows(named: district, province: province)
        guard !stated.isEmpty else { return .unknownName }
        if let districtRow, stated.contains(districtRow) { return .agrees }
        let meters = stated.map { self[.district].shapes.meters(from: point, toShapesOf: $0) }.min() ?? .infinity
        guard meters > toleranceMeters else { return .agrees }
        return .elsewhere(found: districtRow.map { self[.district].names[$0] }, meters: meters)
    }
}
