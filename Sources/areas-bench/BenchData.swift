import AreasCore
import AreasIngest
import AreasServer
import AreasTestSupport
import Foundation

/// The data set and daemon files the socket benchmarks share: clustered synthetic areas with
/// names and addresses, written as a snapshot, and a config that serves it and fetches nothing.
enum BenchData {
    static func areas(count: Int, seed: UInt64 = 7) -> [Area] {
        SyntheticPoints.clustered(count: count, seed: seed).enumerated().map { i, p in
            Area(id: "b:" + String(i, radix: 36), kind: i % 8 == 0 ? .smoking : .nonsmoking, name: "흡연구역 \(i)", coordinate: p,
                 roadAddress: "서울특별시 용산구 한강대로 \(i % 500)", province: "서울특별시", district: "용산구", source: "bench",
                 fields: [Field("prhsmkSe", "공공기관의청사")])
        }.sorted { $0.id < $1.id }
    }

    /// Writes `areas` as the snapshot in `directory` and a config serving it, with `extra`
    /// members added to the config; returns the config's path.
    static func writeDaemonFiles(areas: [Area], directory: String, maxConnections: Int = 4096, extra: String = "") throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        let config = """
            {"snapshot":"\(directory)/areas.snapshot","refreshIntervalSeconds":1e9,"maxConnections":\(maxConnections),\(extra.isEmpty ? "" : extra + ",")
             "sources":[{"name":"bench","kind":"nonsmoking","format":"data-go-kr-xml","pages":"\(directory)/empty"}]}
            """
        try config.write(toFile: directory + "/areasd.json", atomically: true, encoding: .utf8)
        // Indexed as the daemon is configured to index it, so that it serves the file in place
        // at once, as it serves a snapshot it wrote itself.
        let loaded = try AreasConfig.load(path: directory + "/areasd.json")
        let catalog = Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970])
        _ = try SnapshotFile.writeMapped(catalog, index: catalog.index(footprint: loaded.footprint), to: directory + "/areas.snapshot")
        return directory + "/areasd.json"
    }

    /// A service answering from `state` without a socket, logging nothing: for timing the
    /// request path alone.
    static func service(serving state: ServingState) -> AreaService? {
        let configText = #"{"sources":[{"name":"bench","kind":"nonsmoking","format":"data-go-kr-xml","pages":"/tmp"}]}"#
        guard let config = try? AreasConfig.parse(Data(configText.utf8), path: "bench.json") else { return nil }
        return AreaService(config: config, state: state, snapshotPath: "/nonexistent",
                           logger: Logger(threshold: .error, environment: [:], sink: { _ in }))
    }
}
