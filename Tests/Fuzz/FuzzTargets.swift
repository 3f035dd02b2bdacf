// libFuzzer entry point over the parsers, compiled with the library targets' sources into one
// module by Tests/Fuzz/run.sh. AREAS_FUZZ_TARGET picks what the bytes are fed to.
import Foundation

private let target = ProcessInfo.processInfo.environment["AREAS_FUZZ_TARGET"] ?? "request"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    switch target {
    case "request":
        // Any line must parse to a request or a typed error, and answering it must not trap.
        if let request = try? Request.parse(bytes) {
            var writer = JSONWriter()
            try? FuzzService.shared.execute(request, peerUID: 0, into: &writer)
        }
    case "xml":
        _ = try? DataGoKrXMLDecoder().decode(bytes)
    case "json":
        _ = try? OdcloudJSONDecoder().decode(bytes)
    case "csv":
        // Any bytes, in either encoding, headed or not: rows or a typed error.
        _ = try? CSVDecoder(encoding: .auto).decode(bytes)
        _ = try? CSVDecoder(encoding: .cp949, hasHeader: false, delimiter: UInt8(ascii: ";")).decode(bytes)
        _ = try? JSONRowsDecoder().decode(bytes)
    case "discover":
        // Any bytes: a source and its report, or a typed error; the block always prints.
        if let found = try? SourceDiscovery(origin: .file("fuzz.csv")).discover(bytes) {
            _ = found.block.indentedText
            _ = found.report
        }
    case "http":
        // Any bytes: heads in order, or a typed error with a status; each head routed and
        // answered like the front door does, without trapping.
        let parser = HTTPRequestParser()
        var rest = bytes
        while !rest.isEmpty, case .head(let head, let consumed)? = try? parser.parse(rest) {
            precondition(consumed > 0 && consumed <= rest.count, "a head must consume what it read")
            rest.removeFirst(consumed)
            var body = JSONWriter()
            var tally = RequestTally()
            let service = FuzzService.shared
            _ = HTTPAnswer.answer(head, service: service, view: service.view(), peer: nil, http: HTTPFrontDoor(), body: &body, tally: &tally)
        }
    case "tile":
        // Any bytes as points and properties: the tile the encoder makes reads back, with this
        // package's decoder, as exactly those features; and any bytes given to the decoder
        // are features or a typed error.
        var features: [VectorTileEncoder.Feature] = []
        var i = 0
        while i + 6 <= bytes.count && features.count < 200 {
            let x = Int(bytes[i]) << 4 | Int(bytes[i + 1] >> 4), y = Int(bytes[i + 2]) << 4 | Int(bytes[i + 3] >> 4)
            let length = Int(bytes[i + 4]) % 24
            let text = String(decoding: bytes[(i + 5)..<Swift.min(bytes.count, i + 5 + length)], as: UTF8.self)
            let value: VectorTileEncoder.Value = bytes[i + 5] & 1 == 0 ? .string(text) : .count(UInt64(bytes[i + 3]))
            features.append(.init(x: x, y: y, properties: bytes[i + 4] & 0x80 == 0 ? [("k\(bytes[i] % 4)", value)] : []))
            i += 5 + length
        }
        var encoder = VectorTileEncoder()
        encoder.layer("fuzz", features)
        let decoded = (try? VectorTileDecoder.decode(encoder.bytes)) ?? []
        precondition(decoded.first?.features.count ?? 0 == features.count, "the encoder's tile reads back whole")
        for (feature, read) in zip(features, decoded.first?.features ?? []) {
            precondition(read.points.count == 1 && read.points[0].x == feature.x && read.points[0].y == feature.y, "a point reads back where it was")
            precondition(read.properties.count == Set(feature.properties.map(\.0)).count, "its properties read back")
        }
        _ = try? VectorTileDecoder.decode(bytes)
    case "wkb":
        // Any bytes as a boundary geometry: polygons or a typed error, never a read past the
        // end or an allocation the counts alone ask for; and as gzip, bytes within the limit.
        _ = bytes.withUnsafeBytes { raw in try? WellKnownBinary.polygons(raw) }
        if let inflated = try? Gunzip.inflate(bytes, limit: 1 << 20) {
            precondition(inflated.count <= 1 << 20, "gzip stays within its limit")
        }
    case "snapshot":
        // Half the inputs get a valid header and checksum, so the payload parser is reached.
        _ = try? SnapshotFile.decode(bytes)
        _ = try? SnapshotFile.decode(FuzzService.sealed(bytes))
    default:
        fatalError("unknown AREAS_FUZZ_TARGET \(target)")
    }
    return 0
}

enum FuzzService {
    /// A service over a few areas so parsed requests run end to end, refresh excepted.
    static let shared: AreaService = {
        let areas = SyntheticPoints.clustered(count: 500, seed: 1).enumerated().map { i, p in
            Area(id: "f:\(i)", kind: i % 2 == 0 ? .smoking : .nonsmoking, name: "a\(i)", coordinate: p, source: "f",
                 fields: [Field("prhsmkAr", "\(i * 10)")])
        }
        let catalog = Catalog(areas: areas, fetchedAt: ["f": 0])
        let config = AreasConfig(path: "fuzz", socket: nil, socketMode: 0o660, socketGroup: nil, snapshot: nil,
                                 bounds: .korea, refreshIntervalSeconds: 1e9, maxResults: 1000,
                                 maxConnections: 10, idleTimeoutSeconds: 10, adminUids: [], logLevel: nil, sources: [])
        let state = ServingState(.indexing(catalog), hasData: true, lastReport: nil, snapshotPath: "/nonexistent", builtAt: 0)
        return AreaService(config: config, state: state, snapshotPath: "/nonexistent", logger: Logger(threshold: .error, environment: [:], sink: { _ in }))
    }()

    /// `bytes` as the payload of a snapshot with a correct header.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        var file = ByteWriter()
        file.bytes.append(contentsOf: SnapshotFile.magic)
        file.append(SnapshotFile.version)
        file.append(UInt64(bytes.count))
        file.append(UInt64(0))  // the checksum, written by `seal`
        var sealed = file.bytes + bytes
        SnapshotFile.seal(&sealed)
        return sealed
    }
}
