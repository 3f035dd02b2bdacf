import Foundation

/// What the bundled samples hold, as `samples/generate.py` writes them: the one place tests take
/// these numbers from.
package enum SampleCounts {
    /// Pages of the recorded non-smoking-zone answer (1,000 rows a page, 750 on the last).
    package static let nonSmokingZonePages = 3
    /// Rows in those pages, before validation.
    package static let nonSmokingZoneRows = 2750
    /// Zones left after validation: rows without a usable position and exact repeats go.
    package static let nonSmokingZones = 2643
    /// Smoking areas per sample source (Anyang publishes one row without a position).
    package static let yongsan = 57
    package static let anyang = 129
    package static let ulsanBukgu = 24
    /// What a correct reader makes of each district file, as the generator counted the rows it
    /// planted (`samples/district-files/expected.json`), by source name; empty when the file
    /// cannot be read, which `districtFileCount` then shows.
    package static let districtFiles: [String: DistrictFile] = {
        guard let data = FileManager.default.contents(atPath: Fixtures.path("samples/district-files/expected.json")),
              let decoded = try? JSONDecoder().decode([String: DistrictFile].self, from: data) else { return [:] }
        return decoded
    }()

    /// The district files the samples hold (the sample config's CSV, JSON-rows and GeoJSON sources).
    package static let districtFileCount = 6

    package struct DistrictFile: Decodable, Sendable {
        package var accepted: Int
        package var duplicates: Int
        package var rejected: [String: Int]
        package var published: Int
        package var geocoded: Int
        package var positionsFile: Int
        package var repaired: Int?
    }

    /// The sample config's sources, in its order.
    package static let sourceNames = ["nonsmoking-zones", "yongsan", "anyang", "ulsan-bukgu", "seocho", "gangbuk", "eunpyeong", "daegu-standard", "dongjak", "seoul-parks"]

    /// Areas the sample config serves.
    package static let total = nonSmokingZones + yongsan + anyang + ulsanBukgu + districtFiles.values.reduce(0) { $0 + $1.accepted }
}
