import AreasCore
import AreasIngest
import AreasProtocol
import AreasServer
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// `areas-bench maps`: what a map costs the daemon, through its request path on one thread.
/// `clusters` for all of Korea at zoom 7 and for Seoul at zoom 11, beside `bbox` of the same
/// view with `output: count` (the reference) and the tree's search for the view alone; tiles at zooms 8, 12 and 16
/// over Seoul, their CPU (median and p99 over the tiles of a 3 by 3 block) and bytes beside the
/// GeoJSON of the same areas.
struct MapBenchmark {
    var scales = [80_000, 1_000_000]

    init(arguments: inout ArgumentList) throws {
        if let points = try arguments.value("--points") {
            scales = points.split(separator: ",").compactMap { Int($0) }
            guard !scales.isEmpty else { throw UsageError.invalidValue("--points", points) }
        }
        _ = try arguments.positionals()
    }

    func run() {
        var summary: [String: Double] = [:]
        for points in scales {
            let data = SyntheticPoints.clustered(count: points, seed: 11)
            let areas = data.enumerated().map { i, p in
                Area(id: String(i, radix: 36), kind: i % 16 == 0 ? .smoking : .nonsmoking, name: "금연구역 \(i)", coordinate: p,
                     roadAddress: "서울특별시 용산구 한강대로 \(i % 500)", province: "서울특별시", district: "용산구", source: "bench")
            }
            let state = ServingState(.indexing(Catalog(areas: areas, fetchedAt: ["bench": Date().timeIntervalSince1970])), hasData: true,
                                     lastReport: nil, snapshotPath: "/nonexistent", builtAt: 0)
            guard let service = BenchData.service(serving: state) else { return }
            let view = service.view()
            var writer = JSONWriter(capacity: 1 << 16)
            func cpu(_ line: String, rounds: Int = 5) -> (seconds: Double, bytes: Int) {
                let bytes = Array(line.utf8)
                var best = Double.infinity
                for _ in 0..<rounds {
                    writer.reset()
                    let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
                    bytes.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                    best = min(best, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
                }
                return (best, writer.count)
            }
            print("\(points) areas")
            for (name, box, zoom) in [("Korea", "\"south\":33,\"west\":124,\"north\":39,\"east\":132", 7),
                                      ("Seoul", "\"south\":37.42,\"west\":126.76,\"north\":37.70,\"east\":127.18", 11)] {
                let clusters = cpu(#"{"op":"clusters",\#(box),"zoom":\#(zoom)}"#)
                let entries = writer.withBytes { bytes in
                    (try? JSONParser.parse(Array(bytes.prefix(while: { $0 != 10 })))).map { ($0["clusters"]?.array.count ?? 0) + ($0["areas"]?.array.count ?? 0) } ?? 0
                }
                let count = cpu(#"{"op":"bbox",\#(box),"output":"count","limit":100000000}"#)
                let ratio = clusters.seconds / count.seconds
                // And the tree's search for the view's areas, without the request path around it.
                let geo = try? JSONParser.parse(Array("{\(box)}".utf8))
                let view = GeoBox(uncheckedSouth: geo?["south"]?.double ?? 0, west: geo?["west"]?.double ?? 0,
                                  north: geo?["north"]?.double ?? 0, east: geo?["east"]?.double ?? 0)
                var every = Double.infinity
                var found = 0
                for _ in 0..<5 {
                    let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
                    found = (try? state.index.areas(in: view).count) ?? 0
                    every = min(every, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
                }
                print("  clusters, \(name) at zoom \(zoom): \(Measure.format(clusters.seconds * 1e6, 0)) µs CPU, \(entries) entries, \(clusters.bytes) bytes; "
                      + "bbox count of the view \(Measure.format(count.seconds * 1e6, 0)) µs: \(Measure.format(ratio))x; "
                      + "all \(found) areas of the view found by the tree \(Measure.format(every * 1e6, 0)) µs: \(Measure.format(clusters.seconds / every))x")
                summary["n\(points)_clusters_\(name.lowercased())_vs_whole_search"] = clusters.seconds / every
                summary["n\(points)_clusters_\(name.lowercased())_us"] = clusters.seconds * 1e6
                summary["n\(points)_clusters_\(name.lowercased())_vs_bbox_count"] = ratio
                summary["n\(points)_clusters_\(name.lowercased())_entries"] = Double(entries)
            }
            for zoom in [8, 12, 16] {
                let n = Double(1 << zoom)
                let center = (x: Int((126.978 + 180) / 360 * n), y: Int((1 - asinh(tan(37.5665 * .pi / 180)) / .pi) / 2 * n))
                var times: [Double] = []
                var tileBytes = 0, geoJSONBytes = 0, tiles = 0
                for dx in -1...1 {
                    for dy in -1...1 {
                        let (x, y) = (center.x + dx, center.y + dy)
                        var best = Double.infinity
                        var bytes: [UInt8]?
                        for _ in 0..<5 {
                            let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
                            bytes = VectorTiles.tile(z: zoom, x: x, y: y, index: state.index)
                            best = min(best, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
                        }
                        times.append(best)
                        tileBytes += bytes?.count ?? 0
                        tiles += 1
                        // The same areas as GeoJSON: the tile's box asked as bbox, written as a FeatureCollection.
                        let box = WebMercator.tileBox(zoom: zoom, x: x, y: y)
                        writer.reset()
                        let line = Array(#"{"op":"bbox","south":\#(box.south),"west":\#(box.west),"north":\#(box.north),"east":\#(box.east),"limit":100000000}"#.utf8)
                        line.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                        if let answer = writer.withBytes({ try? JSONParser.parse(Array($0.prefix(while: { $0 != 10 }))) }) {
                            var collection = JSONWriter(capacity: 1 << 16)
                            GeoJSONCollection.write(answer, idsOnly: false, into: &collection)
                            geoJSONBytes += collection.count
                        }
                    }
                }
                times.sort()
                let median = times[times.count / 2], p99 = times[times.count - 1]
                print("  tiles at zoom \(zoom), 3 by 3 over Seoul: CPU median \(Measure.format(median * 1e6, 0)) µs, p99 (the costliest of 9) \(Measure.format(p99 * 1e6, 0)) µs; "
                      + "\(tileBytes / tiles) bytes a tile against \(geoJSONBytes / tiles) bytes of GeoJSON for the same areas (\(Measure.format(Double(geoJSONBytes) / Double(max(tileBytes, 1))))x)")
                summary["n\(points)_tile_z\(zoom)_p99_us"] = p99 * 1e6
                summary["n\(points)_tile_z\(zoom)_bytes"] = Double(tileBytes / tiles)
                summary["n\(points)_tile_z\(zoom)_geojson_bytes"] = Double(geoJSONBytes / tiles)
            }
        }
        vanished(into: &summary)
        crowded(into: &summary)
        let country = Self.countryAtStreetZoom(points: 200_000)
        print("clusters of the whole country at zoom 17 over 200,000 spread areas: \(country.refused ? "refused (too_expensive)" : "answered") after \(Measure.format(country.milliseconds)) ms of CPU")
        summary["country_z17_200k_ms"] = country.milliseconds
        print(Measure.json(summary))
    }

    /// `clusters` of Seoul at zoom 11 over 1,000,000 areas, of which the version before held
    /// 10,000 more (one in a hundred removed since, listed as gone where they lie in the view),
    /// beside the same areas served with no change log (the reference): the first answer of the
    /// version (which finds the removed areas and the first version's time) and the next.
    func vanished(into summary: inout [String: Double]) {
        let now = Date().timeIntervalSince1970
        let data = SyntheticPoints.clustered(count: 1_010_000, seed: 12)
        let before = data.enumerated().map { i, p in
            Area(id: String(i, radix: 36), kind: i % 16 == 0 ? .smoking : .nonsmoking, name: "금연구역 \(i)", coordinate: p,
                 roadAddress: "서울특별시 용산구 한강대로 \(i % 500)", province: "서울특별시", district: "용산구", source: "bench")
        }.sorted { $0.id < $1.id }
        let after = before.enumerated().filter { $0.offset % 101 != 0 }.map(\.element)
        let old = DataSet.indexing(Catalog(areas: before, fetchedAt: ["bench": now - 86_400]))
        let plain = DataSet.indexing(Catalog(areas: after, fetchedAt: ["bench": now]))
        var logged = plain
        logged.changes = ChangeLog.first(records: before.count, at: now - 2 * 86_400)
            .next(from: (old.catalog.table, old.index, "v1", now - 86_400), to: (plain.catalog.table, plain.index), version: "v2", at: now)
        let line = Array(#"{"op":"clusters","south":37.42,"west":126.76,"north":37.70,"east":127.18,"zoom":11}"#.utf8)
        var results: [(first: Double, next: Double, gone: Int)] = []
        for dataSet in [plain, logged] {
            let state = ServingState(dataSet, hasData: true, lastReport: nil, snapshotPath: "/nonexistent", builtAt: now)
            guard let service = BenchData.service(serving: state) else { return }
            let view = service.view()
            var writer = JSONWriter(capacity: 1 << 16)
            var times: [Double] = []
            for _ in 0..<6 {
                writer.reset()
                let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
                line.withUnsafeBufferPointer { service.respond(to: $0, peerUID: nil, view: view, into: &writer) }
                times.append(ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
            }
            let gone = writer.withBytes { (try? JSONParser.parse(Array($0.prefix(while: { $0 != 10 }))))?["vanished"]?.array.count } ?? 0
            results.append((times[0], times.dropFirst().min() ?? 0, gone))
        }
        let (plainRun, loggedRun) = (results[0], results[1])
        print("clusters of Seoul at zoom 11, 1,000,000 areas, 10,000 removed since the version before (\(loggedRun.gone) listed as gone): "
              + "first answer \(Measure.format(loggedRun.first * 1e3, 1)) ms against \(Measure.format(plainRun.first * 1e3, 1)) ms with no change log, "
              + "then \(Measure.format(loggedRun.next * 1e3, 2)) ms against \(Measure.format(plainRun.next * 1e3, 2)) ms (\(Measure.format(loggedRun.next / plainRun.next))x)")
        summary["vanished_clusters_first_ms"] = loggedRun.first * 1e3
        summary["vanished_clusters_reference_first_ms"] = plainRun.first * 1e3
        summary["vanished_clusters_ms"] = loggedRun.next * 1e3
        summary["vanished_clusters_reference_ms"] = plainRun.next * 1e3
    }

    /// A zoom-18 tile over 40,000 areas at one position and 30,000 on pixels of their own:
    /// its bytes and the CPU of making it, beside taking it again from the data set's tiles.
    func crowded(into summary: inout [String: Double]) {
        let pixel = WebMercator.pixel(GeoPoint(uncheckedLatitude: 37.5547, longitude: 126.9707), zoom: 18)
        let (x, y) = (Int(pixel.x) / WebMercator.tilePixels, Int(pixel.y) / WebMercator.tilePixels)
        let box = WebMercator.tileBox(zoom: 18, x: x, y: y)
        func point(_ column: Int, _ row: Int) -> GeoPoint {
            GeoPoint(uncheckedLatitude: box.north - (Double(row) + 0.5) / 256 * (box.north - box.south),
                     longitude: box.west + (Double(column) + 0.5) / 256 * (box.east - box.west))
        }
        var areas = (0..<40_000).map { Area(id: "one:\($0)", kind: .smoking, name: "서울역 광장 흡연구역 \($0)", coordinate: point(128, 128), source: "one") }
        areas += (0..<30_000).map { i in
            Area(id: "grid:\(i)", kind: .nonsmoking, name: "서울특별시 중구 통일로 \(i) 버스정류장 금연구역", coordinate: point(i % 200, i / 200 + 1), source: "grid")
        }
        let index = AreaIndex(areas: areas)
        let cache = TileCache()
        var made = Double.infinity, kept = Double.infinity
        var bytes = 0
        for round in 0..<5 {
            let fresh = TileCache()
            var start = ExpensiveRequestsBenchmark.threadCPUSeconds()
            bytes = fresh.tile(z: 18, x: x, y: y) { VectorTiles.tile(z: 18, x: x, y: y, index: index) }?.count ?? 0
            made = min(made, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
            if round == 0 { _ = cache.tile(z: 18, x: x, y: y) { VectorTiles.tile(z: 18, x: x, y: y, index: index) } }
            start = ExpensiveRequestsBenchmark.threadCPUSeconds()
            _ = cache.tile(z: 18, x: x, y: y) { nil }
            kept = min(kept, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
        }
        print("70,000 areas in one zoom-18 tile (40,000 at one position): the tile \(bytes) bytes, made in \(Measure.format(made * 1e3)) ms of CPU, taken again in \(Measure.format(kept * 1e6)) µs")
        summary["crowded_tile_bytes"] = Double(bytes)
        summary["crowded_tile_made_ms"] = made * 1e3
        summary["crowded_tile_kept_us"] = kept * 1e6
    }
}

extension MapBenchmark {
    /// `clusters` of the whole country at zoom 17 over `points` spread areas: refused, and the
    /// CPU that took.
    static func countryAtStreetZoom(points: Int) -> (refused: Bool, milliseconds: Double) {
        let areas = SyntheticPoints.uniform(count: points, seed: 17).enumerated().map { i, p in
            Area(id: String(i, radix: 36), kind: .nonsmoking, name: "금연구역 \(i)", coordinate: p, source: "bench")
        }
        let index = AreaIndex(areas: areas)
        var best = Double.infinity
        var refused = false
        for _ in 0..<3 {
            let start = ExpensiveRequestsBenchmark.threadCPUSeconds()
            do { _ = try index.clusters(in: .korea, zoom: 17) } catch { refused = true }
            best = min(best, ExpensiveRequestsBenchmark.threadCPUSeconds() - start)
        }
        return (refused, best * 1e3)
    }
}
