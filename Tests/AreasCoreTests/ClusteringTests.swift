import AreasCore
import Foundation
import AreasProtocol
import AreasTestSupport
import Testing
import AreasTestTraits

/// `clusters` and the vector tiles against brute force over clustered points: for every view,
/// kind and zoom, every area of the view in exactly one entry, each cluster the cell's areas,
/// the entries within the limit; each tile exactly the areas whose pixel lies in it, clustered
/// alike, read back with a decoder written apart from the encoder.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ClusteringTests {
    static let index: AreaIndex = {
        let points = SyntheticPoints.clustered(count: 20_000, seed: 3)
        return AreaIndex(areas: points.enumerated().map { i, point in
            Area(id: "t:\(String(i, radix: 16))", kind: i % 7 == 0 ? .smoking : .nonsmoking, name: "구역 \(i)", coordinate: point, source: "t")
        })
    }()

    static let views: [GeoBox] = [.korea, GeoBox(uncheckedSouth: 37.42, west: 126.76, north: 37.70, east: 127.18), GeoBox(uncheckedSouth: 37.55, west: 126.96, north: 37.57, east: 126.99)]

    @Test(arguments: [0, 5, 7, 11, 14, 17, 18])
    func everyAreaOfTheViewIsCountedOnce(zoom: Int) throws {
        let index = Self.index
        for view in Self.views {
            for kind in [KindFilter.all, .smoking, .nonsmoking] {
                let clustering = try index.clusters(in: view, zoom: zoom, kind: kind)
                let inView = try index.areas(in: view, kind: kind).map(\.position)
                #expect(clustering.count == inView.count)
                #expect(clustering.clusters.reduce(0) { $0 + $1.count } + clustering.areas.count == inView.count)
                #expect(clustering.clusters.count + clustering.areas.count <= 2_000)
                if zoom >= 18 && inView.count <= 2_000 {
                    #expect(clustering.clusters.isEmpty && clustering.areas == inView.sorted())
                    continue
                }
                // The oracle: every area of the view in its cell, by pixel, at the cell size used.
                let size = Double(clustering.cellPixels)
                var cells: [String: [Int]] = [:]
                for position in inView {
                    let pixel = WebMercator.pixel(index.areas[position].coordinate, zoom: zoom)
                    cells["\(Int64((pixel.y / size).rounded(.down)))/\(Int64((pixel.x / size).rounded(.down)))", default: []].append(position)
                }
                #expect(Set(clustering.areas) == Set(cells.values.filter { $0.count == 1 }.map { $0[0] }))
                for cluster in clustering.clusters {
                    let members = try #require(cells["\(cluster.cell.y)/\(cluster.cell.x)"])
                    #expect(members.count == cluster.count)
                    #expect(members.filter { index.areas[$0].kind == .smoking }.count == cluster.smoking)
                    #expect(members.allSatisfy { cluster.bounds.contains(index.areas[$0].coordinate) })
                }
                #expect(clustering.clusters.count == cells.values.filter { $0.count > 1 }.count)
                // One view always gives the same answer (caches rely on it).
                let again = try index.clusters(in: view, zoom: zoom, kind: kind)
                #expect(again.clusters == clustering.clusters && again.areas == clustering.areas)
            }
        }
    }

    /// What the tile fuzzer found the decoder trapping on (a length of 2^64 - 1 bytes): now a
    /// malformed tile, as is any cut or overlong input.
    @Test(arguments: ["Gh14AgoGcG9pbnRzEgwS////////////MyIaBGphbWU=", "Gv8=", "GgMKAWEaBBIC"])
    func aMalformedTileIsAnErrorNotATrap(base64: String) throws {
        let bytes = try #require(Data(base64Encoded: base64))
        #expect(throws: (any Error).self) { try VectorTileDecoder.decode(Array(bytes)) }
    }

    /// The specification's own example (4.3.5.1): a point at (25, 17) is `[9, 50, 34]`.
    @Test func thePointOfTheSpecificationsExample() throws {
        var encoder = VectorTileEncoder()
        encoder.layer("points", [.init(x: 25, y: 17, properties: [("name", .string("하나")), ("count", .count(3))])])
        let layers = try VectorTileDecoder.decode(encoder.bytes)
        #expect(layers.count == 1 && layers[0].name == "points" && layers[0].version == 2 && layers[0].extent == 4096)
        let feature = try #require(layers.first?.features.first)
        #expect(feature.type == 1 && feature.points.map(\.x) == [25] && feature.points.map(\.y) == [17])
        #expect(feature.properties == ["name": .string("하나"), "count": .integer(3)])
        // The geometry's bytes as the specification writes them: field 4, length 3, 9 50 34.
        let bytes = encoder.bytes
        #expect(bytes.indices.dropLast(4).contains { bytes[$0] == 0x22 && bytes[$0 + 1] == 3 && bytes[$0 + 2] == 9 && bytes[$0 + 3] == 50 && bytes[$0 + 4] == 34 })
    }
}
