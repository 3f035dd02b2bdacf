import AreasCore
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Synchronization

/// One question of the benchmark mix, in a form both servers can be asked.
enum BenchQuery: Sendable {
    case near(GeoPoint, k: Int, redisRadius: Double)
    case radius(GeoPoint, meters: Double)
    /// A box given by its centre and size, as Redis takes it.
    case bbox(GeoPoint, widthMeters: Double, heightMeters: Double)
    case get(String)

    var kind: String {
        switch self {
        case .near: return "near"
        case .radius: return "radius"
        case .bbox: return "bbox"
        case .get: return "get"
        }
    }

    /// The box a centre and size stand for, in degrees (as Redis computes it, on a sphere).
    static func box(center: GeoPoint, widthMeters: Double, heightMeters: Double) -> GeoBox? {
        let latDelta = heightMeters / 2 / Geodesy.earthRadiusMeters * 180 / .pi
        let lonDelta = widthMeters / 2 / (Geodesy.earthRadiusMeters * cos(center.latitude * .pi / 180)) * 180 / .pi
        return try? GeoBox(south: center.latitude - latDelta, west: center.longitude - lonDelta,
                           north: center.latitude + latDelta, east: center.longitude + lonDelta)
    }
}

/// How requests are written and answers are framed, per server.
protocol BenchWire: Sendable {
    func encode(_ query: BenchQuery, into bytes: inout [UInt8])
    /// The byte length of the first complete answer in `buffer`, and whether it was an error;
    /// nil while incomplete.
    func frame(_ buffer: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)?
}

/// areasd's line protocol.
struct AreasWire: BenchWire {
    var output: String
    var bboxLimit: Int

    func encode(_ query: BenchQuery, into bytes: inout [UInt8]) {
        var line: String
        switch query {
        case .near(let p, let k, _):
            line = #"{"op":"near","lat":\#(p.latitude),"lon":\#(p.longitude),"k":\#(k),"output":"\#(output)"}"#
        case .radius(let p, let meters):
            line = #"{"op":"radius","lat":\#(p.latitude),"lon":\#(p.longitude),"meters":\#(meters),"output":"\#(output)"}"#
        case .bbox(let c, let w, let h):
            let box = BenchQuery.box(center: c, widthMeters: w, heightMeters: h) ?? SyntheticPoints.korea
            line = #"{"op":"bbox","south":\#(box.south),"west":\#(box.west),"north":\#(box.north),"east":\#(box.east),"limit":\#(bboxLimit),"output":"\#(output)"}"#
        case .get(let id):
            line = #"{"op":"get","id":"\#(id)"}"#
        }
        bytes.append(contentsOf: line.utf8)
        bytes.append(10)
    }

    func frame(_ buffer: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)? {
        guard let newline = buffer.firstIndex(of: 10) else { return nil }
        // `{"ok":true` or `{"ok":false`: byte 6 tells.
        return (newline + 1, newline < 7 || buffer[6] != UInt8(ascii: "t"))
    }
}

/// Redis's RESP, with each query in its GEOSEARCH form.
struct RedisWire: BenchWire {
    var key = "areas"
    var bboxLimit: Int

    static func command(_ words: [String], into bytes: inout [UInt8]) {
        bytes.append(contentsOf: "*\(words.count)\r\n".utf8)
        for word in words {
            bytes.append(contentsOf: "$\(word.utf8.count)\r\n".utf8)
            bytes.append(contentsOf: word.utf8)
            bytes.append(contentsOf: [13, 10])
        }
    }

    func encode(_ query: BenchQuery, into bytes: inout [UInt8]) {
        switch query {
        case .near(let p, let k, let radius):
            Self.command(["GEOSEARCH", key, "FROMLONLAT", "\(p.longitude)", "\(p.latitude)", "BYRADIUS", "\(radius)", "m", "ASC", "COUNT", "\(k)", "WITHDIST"], into: &bytes)
        case .radius(let p, let meters):
            Self.command(["GEOSEARCH", key, "FROMLONLAT", "\(p.longitude)", "\(p.latitude)", "BYRADIUS", "\(meters)", "m", "ASC", "WITHDIST"], into: &bytes)
        case .bbox(let c, let w, let h):
            Self.command(["GEOSEARCH", key, "FROMLONLAT", "\(c.longitude)", "\(c.latitude)", "BYBOX", "\(w)", "\(h)", "m", "ASC", "COUNT", "\(bboxLimit)", "WITHDIST"], into: &bytes)
        case .get(let id):
            Self.command(["GEOPOS", key, id], into: &bytes)
        }
    }

    func frame(_ buffer: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)? {
        var offset = 0
        guard let failed = Self.skip(buffer, &offset) else { return nil }
        return (offset, failed)
    }

    /// Skips one RESP value; nil when incomplete, else whether it was an error.
    static func skip(_ b: UnsafeRawBufferPointer, _ offset: inout Int) -> Bool? {
        guard offset < b.count else { return nil }
        let type = b[offset]
        guard let lineEnd = lineEnd(b, from: offset) else { return nil }
        let number = Int(String(decoding: UnsafeRawBufferPointer(rebasing: b[(offset + 1)..<lineEnd]), as: UTF8.self)) ?? 0
        offset = lineEnd + 2
        switch type {
        case UInt8(ascii: "$"):
            if number < 0 { return false }
            guard b.count >= offset + number + 2 else { return nil }
            offset += number + 2
            return false
        case UInt8(ascii: "*"):
            for _ in 0..<max(number, 0) { guard skip(b, &offset) != nil else { return nil } }
            return false
        case UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func lineEnd(_ b: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i + 1 < b.count {
            if b[i] == 13 && b[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }
}

/// HTTP/1.1 keep-alive: each query a GET of the front door's endpoint (or of one `path` for
/// every request, for a static file), each answer framed by its Content-Length.
struct HTTPWire: BenchWire {
    var path: String?

    func encode(_ query: BenchQuery, into bytes: inout [UInt8]) {
        var target = path ?? ""
        if path == nil {
            switch query {
            case .near(let p, let k, _): target = "/v1/near?lat=\(p.latitude)&lon=\(p.longitude)&k=\(k)"
            case .radius(let p, let meters): target = "/v1/radius?lat=\(p.latitude)&lon=\(p.longitude)&meters=\(meters)"
            case .bbox(let c, let w, let h):
                let box = BenchQuery.box(center: c, widthMeters: w, heightMeters: h) ?? SyntheticPoints.korea
                target = "/v1/bbox?south=\(box.south)&west=\(box.west)&north=\(box.north)&east=\(box.east)"
            case .get(let id): target = "/v1/areas/\(id)"
            }
        }
        bytes.append(contentsOf: "GET \(target) HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)
    }

    func frame(_ buffer: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)? {
        // The head's end, and Content-Length read in place: the client must cost little
        // beside the servers it measures.
        var end = 3
        while end < buffer.count && !(buffer[end] == 10 && buffer[end - 1] == 13 && buffer[end - 2] == 10 && buffer[end - 3] == 13) { end += 1 }
        guard end < buffer.count else { return nil }
        let name = Array("content-length:".utf8)
        var length = 0
        var i = 0
        while i + name.count < end {
            if buffer[i] == 10 && (0..<name.count).allSatisfy({ buffer[i + 1 + $0] | 0x20 == name[$0] | 0x20 }) {
                var j = i + 1 + name.count
                while buffer[j] == 32 { j += 1 }
                while buffer[j] >= 48 && buffer[j] <= 57 { length = length * 10 + Int(buffer[j] - 48); j += 1 }
                break
            }
            i += 1
        }
        guard buffer.count >= end + 1 + length else { return nil }
        let ok = buffer.count > 12 && buffer[9] == UInt8(ascii: "2") && buffer[10] == UInt8(ascii: "0") && buffer[11] == UInt8(ascii: "0")
        return (end + 1 + length, !ok)
    }
}

/// Drives a server over a Unix socket (or TCP, for "HOST:PORT"): C connections, each keeping
/// P requests in flight.
struct LoadGenerator {
    struct Result {
        var answered = 0
        var failed = 0
        var seconds = 0.0
        var latencies: [Double] = []  // microseconds
        var byKind: [String: (count: Int, micros: Double)] = [:]

        var throughput: Double { Double(answered) / seconds }
        func percentile(_ p: Double) -> Double { Measure.percentile(latencies, p) }
    }

    let socket: String
    let wire: any BenchWire
    let connections: Int
    let pipeline: Int
    let seconds: Double

    func run(_ queries: [BenchQuery]) -> Result {
        final class Shared: Sendable { let results = LockedValue<[Result]>([]) }
        let shared = Shared()
        let group = DispatchGroup()
        let start = Measure.clock.now
        for c in 0..<connections {
            group.enter()
            let thread = Thread { [socket, wire, pipeline, seconds] in
                let result = Self.drive(socket: socket, wire: wire, pipeline: pipeline, seconds: seconds, queries: queries, offset: c * 7919)
                shared.results.withLock { $0.append(result) }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        var total = Result()
        total.seconds = (Measure.clock.now - start).milliseconds / 1000
        for r in shared.results.withLock({ $0 }) {
            total.answered += r.answered
            total.failed += r.failed
            total.latencies += r.latencies
            for (k, v) in r.byKind {
                let old = total.byKind[k] ?? (0, 0)
                total.byKind[k] = (old.count + v.count, old.micros + v.micros)
            }
        }
        return total
    }

    private static func drive(socket: String, wire: any BenchWire, pipeline: Int, seconds: Double, queries: [BenchQuery], offset: Int) -> Result {
        var result = Result()
        guard let fd = try? (socket.hasPrefix("/") ? Sockets.connectUnix(path: socket) : Sockets.connectTCP(socket)) else { result.failed = 1; return result }
        defer { fd.close() }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Measure.clock.now + .milliseconds(Int(seconds * 1000))
        var next = offset % queries.count
        var sentAt: [ContinuousClock.Instant] = []
        var kinds: [String] = []
        var head = 0
        var out: [UInt8] = []
        func send() {
            let query = queries[next]
            next = (next + 1) % queries.count
            wire.encode(query, into: &out)
            sentAt.append(Measure.clock.now)
            kinds.append(query.kind)
        }
        for _ in 0..<pipeline { send() }
        try? fd.writeAll(out)
        out.removeAll(keepingCapacity: true)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var stopping = false
        while head < sentAt.count {
            let n = (try? chunk.withUnsafeMutableBytes { try fd.read(into: $0) }) ?? 0
            if n <= 0 { result.failed += sentAt.count - head; break }
            buffer.append(contentsOf: chunk[0..<n])
            var consumed = 0
            let now = Measure.clock.now
            if !stopping && now >= deadline { stopping = true }
            buffer.withUnsafeBytes { raw in
                while let (length, failed) = wire.frame(UnsafeRawBufferPointer(rebasing: raw[consumed...])) {
                    consumed += length
                    let micros = (now - sentAt[head]).milliseconds * 1000
                    result.latencies.append(micros)
                    let kind = kinds[head]
                    let old = result.byKind[kind] ?? (0, 0)
                    result.byKind[kind] = (old.count + 1, old.micros + micros)
                    head += 1
                    if failed { result.failed += 1 } else { result.answered += 1 }
                    if !stopping { send() }
                }
            }
            buffer.removeSubrange(0..<consumed)
            if !out.isEmpty {
                try? fd.writeAll(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        return result
    }
}
