/// South Korea's administrative map: its provinces (시도), districts (시군구) and towns (읍면동),
/// each a row with its code, its name as published and its polygons in one `ShapeIndex` per
/// level, so "which region holds this point" is the same test a zone's polygon gets.
///
/// Codes nest (a town's code begins with its district's, a district's with its province's), and
/// where the levels' polygons disagree the finest level holding a point decides. Names as
/// published have quirks (`서울시성북구`, `수원시장안구`, `전라북도` after its renaming): answers
/// show the proper name, and a stated name is matched against every way it is written.
public struct RegionMap: Sendable {
    public enum Level: Int, CaseIterable, Sendable {
        case province, district, town

        /// The digits of this level's codes.
        public var codeDigits: Int { [2, 5, 8][rawValue] }
        /// The level's name in answers and requests.
        public var name: String { [ "province", "district", "town"][rawValue] }
        /// The code of the `coarser` region that holds this level's region `code`: its leading digits.
        public func code(_ code: UInt32, at coarser: Level) -> UInt32 {
            code / RegionName.powerOfTen(codeDigits - coarser.codeDigits)
        }
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = level
        }
    }

    /// One level's regions, in ascending order of code. A class, so that a query reaching a
    /// layer through the map holds one reference, not a copy of each of its columns.
    public final class Layer: Sendable {
        public let codes: Column<UInt32>
        /// Each region's name as published: `nameBytes[nameStarts[i]..<nameStarts[i + 1]]`.
        let nameBytes: Column<UInt8>
        let nameStarts: Column<UInt32>
        /// The regions' polygons, each owned by its row (a region of many parts, side by side).
        public let shapes: ShapeIndex
        /// The names answers show, worked out from the published ones.
        public let names: [String]

        public init(codes: Column<UInt32>, nameBytes: Column<UInt8>, nameStarts: Column<UInt32>, shapes: ShapeIndex, level: Level) {
            self.codes = codes
            self.nameBytes = nameBytes
            self.nameStarts = nameStarts
            self.shapes = shapes
            self.names = (0..<codes.count).map { row in
                let published = String(decoding: nameBytes[Int(nameStarts[row])..<Int(nameStarts[row + 1])], as: UTF8.self)
                return RegionName.proper(published, level: level)
            }
        }

        public var count: Int { codes.count }

        /// The name of row `row` as the boundary data publishes it.
        public func publishedName(_ row: Int) -> String {
            String(decoding: nameBytes[Int(nameStarts[row])..<Int(nameStarts[row + 1])], as: UTF8.self)
        }

        /// The row with code `code`.
        public func row(ofCode code: UInt32) -> Int? {
            var (low, high) = (0, codes.count)
            while low < high {
                let middle = (low + high) / 2
                if codes[middle] < code { low = middle + 1 } else { high = middle }
            }
            return low < codes.count && codes[low] == code ? low : nil
        }

        /// The row whose polygons hold `point` (the least code where they overlap on a border).
        public func row(holding point: GeoPoint) -> Int? {
            var found: Int?
            shapes.forEach(holding: point, measuringEdge: false) { hit in
                if found.map({ codes[hit.owner] < codes[$0] }) ?? true { found = hit.owner }
            }
            return found
        }

        public var byteCount: Int { codes.byteCount + nameBytes.byteCount + nameStarts.byteCount + shapes.byteCount }
    }

    /// The layers, one per level, in `Level` order.
    public let layers: [Layer]
    /// Every way a province is written (its published and proper names, the gazetteer's short
    /// and romanised names) to its row.
    let provinceRows: [String: Int]
    /// Every way a district is written, without white space, to the rows it may mean:
    /// `성북구` and `서울시성북구` to 11290, `수원시` to each of its four 구, `중구` to six.
    let districtRows: [String: [Int]]

    /// Where no edge crosses, the place of every point of a cell.
    public private(set) var grid = RegionGrid.empty
    /// The names folded for search.
    let searchNames: RegionSearchNames

    /// The map of `layers`, with its grid built (a fraction of a second for Korea).
    public init(layers: [Layer]) {
        self.init(layers: layers, grid: .empty)
        let map = self
        grid = RegionGrid(over: layers) { map.testedPlace(of: $0) }
    }

    /// The map of `layers` with a grid built before.
    init(layers: [Layer], grid: RegionGrid) {
        precondition(layers.count == Level.allCases.count, "a region map has one layer per level")
        self.layers = layers
        self.grid = grid
        var provinces: [String: Int] = [:]
        let province = layers[Level.province.rawValue]
        for row in 0..<province.count {
            for name in [province.publishedName(row), province.names[row]] { provinces[name] = row }
        }
        for (alias, official) in KoreanGazetteer.provinceAliases {
            if let row = provinces[official] { provinces[alias] = row }
        }
        for province in KoreanGazetteer.provinces {
            guard let row = provinces[province.name] else { continue }
            for name in province.otherNames where provinces[name] == nil { provinces[name] = row }
        }
        provinceRows = provinces
        var districts: [String: [Int]] = [:]
        let district = layers[Level.district.rawValue]
        for row in 0..<district.count {
            for writing in RegionName.writings(ofDistrict: district.names[row], published: district.publishedName(row)) where !(districts[writing]?.contains(row) ?? false) {
                districts[writing, default: []].append(row)
            }
        }
        districtRows = districts
        searchNames = RegionSearchNames(layers)
    }

    public subscript(level: Level) -> Layer { layers[level.rawValue] }

    public var byteCount: Int { layers.reduce(0) { $0 + $1.byteCount } + grid.byteCount }

    /// A region found for a point: its row and level.
    public struct Found: Sendable, Equatable {
        public var level: Level
        public var row: Int
    }

    /// Where `point` lies: per level, the region holding it, or nil (at sea, outside Korea). The
    /// finest level holding the point decides the coarser ones by its code.
    public func place(of point: GeoPoint) -> Place {
        grid.place(at: point) ?? testedPlace(of: point)
    }

    /// Where `point` lies, by testing the polygons of each level, finest first.
    func testedPlace(of point: GeoPoint) -> Place {
        var place = Place()
        for level in Level.allCases.reversed() {
            guard place.row(level) == nil, let row = layers[level.rawValue].row(holding: point) else { continue }
            place.set(level, row)
            let code = layers[level.rawValue].codes[row]
            for coarser in Level.allCases where coarser.rawValue < level.rawValue {
                let prefix = level.code(code, at: coarser)
                place.set(coarser, layers[coarser.rawValue].row(ofCode: prefix))
            }
        }
        return place
    }

    /// Per level, the row of the region a point lies in.
    public struct Place: Sendable, Hashable {
        /// Rows by level, -1 for none.
        var province: Int32 = -1, district: Int32 = -1, town: Int32 = -1

        public init() {}

        init(province: Int32, district: Int32, town: Int32) {
            (self.province, self.district, self.town) = (province, district, town)
        }

        public func row(_ level: Level) -> Int? {
            let row = switch level {
            case .province: province
            case .district: district
            case .town: town
            }
            return row < 0 ? nil : Int(row)
        }

        mutating func set(_ level: Level, _ row: Int?) {
            let value = Int32(row ?? -1)
            switch level {
            case .province: province = value
            case .district: district = value
            case .town: town = value
            }
        }

        public var isEmpty: Bool { province < 0 && district < 0 && town < 0 }
    }

    /// The province row a stated province name means, however it is written.
    public func provinceRow(named name: String) -> Int? {
        provinceRows[RegionName.compact(name)] ?? provinceRows[name]
    }

    /// The district rows a stated district name may mean, within the stated province when one
    /// is given and known.
    public func districtRows(named name: String, province: String?) -> [Int] {
        let rows = districtRows[RegionName.compact(name)] ?? []
        guard let province, !province.isEmpty, let provinceRow = provinceRow(named: province) else { return rows }
        let code = self[.province].codes[provinceRow]
        return rows.filter { Level.district.code(self[.district].codes[$0], at: .province) == code }
    }

    /// The code of row `row` of `level`, as answers write it.
    public func code(_ level: Level, _ row: Int) -> String {
        let code = String(self[level].codes[row])
        return String(repeating: "0", count: Swift.max(0, level.codeDigits - code.count)) + code
    }
}
