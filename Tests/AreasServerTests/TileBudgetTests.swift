import AreasCore
import AreasProtocol
import AreasTestSupport
import Testing
import AreasTestTraits
@testable import AreasServer

/// A vector tile is bounded whatever lies in it, and made once per data set.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct TileBudgetTests {
    /// A zoom-18 tile with forty thousand rows at one position and thirty thousand more, each
    /// on a pixel of its own, with names a district might write.
    static func crowdedTile() throws -> (index: AreaIndex, x: Int, y: Int) {
        let pixel = WebMercator.pixel(try GeoPoint(latitude: 37.5547, longitude: 126.9707), zoom: 18)
        let (x, y) = (Int(pixel.x) / WebMercator.tilePixels, Int(pixel.y) / WebMercator.tilePixels)
        let box = WebMercator.tileBox(zoom: 18, x: x, y: y)
        func point(_ column: Int, _ row: Int) throws -> GeoPoint {
            try GeoPoint(latitude: box.north - (Double(row) + 0.5) / 256 * (box.north - box.south),
                         longitude: box.west + (Double(column) + 0.5) / 256 * (box.east - box.west))
        }
        var areas: [Area] = []
        let spot = try point(128, 128)
        for i in 0..<40_000 { areas.append(Area(id: "one:\(i)", kind: .smoking, name: "서울역 광장 흡연구역 \(i)", coordinate: spot, source: "one")) }
        for i in 0..<30_000 {
            let (column, row) = (i % 200, i / 200)
            guard column != 128 || row != 128 else { continue }
            areas.append(Area(id: "grid:\(i)", kind: .nonsmoking, name: "서울특별시 중구 통일로 \(i) 버스정류장 금연구역", coordinate: try point(column, row), source: "grid"))
        }
        return (AreaIndex(areas: areas), x, y)
    }

    @Test func aDeepTileStaysWithinItsBytesAndCountsEveryArea() throws {
        let (index, x, y) = try Self.crowdedTile()
        let bytes = try #require(VectorTiles.tile(z: 18, x: x, y: y, index: index))
        #expect(bytes.count <= VectorTiles.maximumBytes, "\(bytes.count) bytes")
        let layers = try VectorTileDecoder.decode(bytes)
        var counted: [String: Int] = [:]
        for layer in layers {
            for feature in layer.features {
                if case .integer(let count)? = feature.properties["count"] { counted[layer.name, default: 0] += Int(count) } else { counted[layer.name, default: 0] += 1 }
            }
        }
        #expect(counted == ["smoking": 40_000, "nonsmoking": 29_999])
        #expect(layers.allSatisfy { $0.features.count <= 16 * 16 })
    }

    @Test func aShallowTileOfTheSameAreasIsItsClusters() throws {
        let (index, x, y) = try Self.crowdedTile()
        let bytes = try #require(VectorTiles.tile(z: 16, x: x / 4, y: y / 4, index: index))
        let layers = try VectorTileDecoder.decode(bytes)
        #expect(layers.allSatisfy { $0.features.count <= 16 })
    }

    @Test func aTileIsMadeOncePerDataSet() throws {
        let (index, x, y) = try Self.crowdedTile()
        let cache = TileCache()
        let first = cache.tile(z: 18, x: x, y: y) { VectorTiles.tile(z: 18, x: x, y: y, index: index) }
        let again = cache.tile(z: 18, x: x, y: y) { Issue.record("made again"); return nil }
        #expect(first != nil && again == first && cache.builds == 1)
        // An empty tile is kept too.
        #expect(cache.tile(z: 3, x: 0, y: 0) { VectorTiles.tile(z: 3, x: 0, y: 0, index: index) } == nil)
        #expect(cache.tile(z: 3, x: 0, y: 0) { Issue.record("made again"); return [1] } == nil)
        #expect(cache.builds == 2)
    }
}
