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

    /// A whole country at a street's zoom over two hundred thousand areas would cost seconds of
    /// CPU for an answer no map shows: it is refused, naming what to narrow, while the same
    /// zoom over a map's view answers.
    @Test func theCountryAtAStreetsZoomIsTooExpensive() throws {
        let points = SyntheticPoints.uniform(count: 200_000, seed: 17)
        let index = AreaIndex(areas: points.enumerated().map { i, point in
            Area(id: "u:\(String(i, radix: 16))", kind: i % 5 == 0 ? .smoking : .nonsmoking, name: "구역 \(i)", coordinate: point, source: "u")
        })
        do {
            _ = try index.clusters(in: .korea, zoom: 17)
            Issue.record("the country at zoom 17 was grouped")
        } catch {
            guard case .tooExpensive(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("smaller box") && reason.contains("lower zoom"))
        }
        let view = try GeoBox(south: 37.55, west: 126.96, north: 37.56, east: 126.98)
        let clustering = try index.clusters(in: view, zoom: 17)
        #expect(clustering.count == (try index.areas(in: view).count))
        // The country at the zooms that show it still answers.
        #expect(try index.clusters(in: .korea, zoom: 7).count == points.filter(GeoBox.korea.contains).count)
    }

    /// From zoom 18 a tile shows areas one by one, but forty thousand rows at one position are
    /// one entry with their count, not forty thousand features.
    @Test func areasOnOnePixelOfADeepTileAreOneEntry() throws {
        let seoulStation = try GeoPoint(latitude: 37.5547, longitude: 126.9707)
        let pixel = WebMercator.pixel(seoulStation, zoom: 18)
        let tile = WebMercator.tileBox(zoom: 18, x: Int(pixel.x) / WebMercator.tilePixels, y: Int(pixel.y) / WebMercator.tilePixels)
        // The tile's middle, so the neighbours below stay in it.
        let spot = try GeoPoint(latitude: (tile.south + tile.north) / 2, longitude: (tile.west + tile.east) / 2)
        var areas = (0..<40_000).map { i in Area(id: "p:\(i)", kind: .smoking, name: "흡연구역 \(i)", coordinate: spot, source: "p") }
        // A few more a few meters apart: each its own pixel at zoom 18 (about 0.6 m).
        for i in 0..<5 {
            areas.append(Area(id: "q:\(i)", kind: .smoking, name: "부스 \(i)", coordinate: try GeoPoint(latitude: spot.latitude + Double(i + 1) * 0.00003, longitude: spot.longitude), source: "q"))
        }
        let index = AreaIndex(areas: areas)
        let fine = try index.tileClustering(in: tile, zoom: 18, kind: .smoking, coarse: false)
        #expect(fine.clusters.count == 1 && fine.clusters.first?.count == 40_000)
        #expect(Set(fine.areas.map { index.areas.id(at: $0) }) == Set((0..<5).map { "q:\($0)" }))
        #expect(fine.count == 40_005)
        let coarse = try index.tileClustering(in: tile, zoom: 18, kind: .smoking, coarse: true)
        #expect(coarse.count == 40_005 && coarse.clusters.count + coarse.areas.count <= 16)
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
