import AreasControl
import AreasCore
import AreasIngest
import AreasProtocol
import AreasSystem
import AreasTestSupport
import Foundation
import Glibc

/// A blocking RESP connection for loading points and reading INFO.
final class RedisConnection {
    let fd: FileDescriptor
    var buffer: [UInt8] = []

    init(path: String) throws { fd = try Sockets.connectUnix(path: path) }
    deinit { fd.close() }

    func send(_ commands: [[String]]) throws -> [[UInt8]] {
        var out: [UInt8] = []
        for command in commands { RedisWire.command(command, into: &out) }
        try fd.writeAll(out)
        var replies: [[UInt8]] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while replies.count < commands.count {
            var offset = 0
            let complete = buffer.withUnsafeBytes { RedisWire.skip($0, &offset) } != nil
            if complete {
                replies.append(Array(buffer[0..<offset]))
                buffer.removeSubrange(0..<offset)
                continue
            }
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            guard n > 0 else { throw UsageError.wrongArguments("redis closed the connection") }
            buffer.append(contentsOf: chunk[0..<n])
        }
        return replies
    }

    /// The redis-server this machine has.
    static func program() throws -> String {
        guard let redis = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw UsageError.wrongArguments("redis-server is not installed; install it with: apt-get install redis-server")
        }
        return redis
    }

    /// A redis-server on a socket in `directory` holding `points` (GEOADD, 1,000 a command),
    /// and a connection to it.
    static func serving(_ points: [(id: String, coordinate: GeoPoint)], program: String, directory: String) throws -> (Child, RedisConnection) {
        let socket = directory + "/redis.sock"
        let server = try Child(program, ["--port", "0", "--unixsocket", socket, "--save", "", "--appendonly", "no", "--daemonize", "no"])
        let deadline = Measure.clock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Measure.clock.now < deadline else { throw UsageError.wrongArguments("redis-server did not open \(socket) in 30 s") }
            usleep(10_000)
        }
        let connection = try RedisConnection(path: socket)
        var batch: [[String]] = []
        for chunk in stride(from: 0, to: points.count, by: 1000) {
            var command = ["GEOADD", "areas"]
            for point in points[chunk..<min(chunk + 1000, points.count)] {
                command += ["\(point.coordinate.longitude)", "\(point.coordinate.latitude)", point.id]
            }
            batch.append(command)
            if batch.count == 50 { _ = try connection.send(batch); batch = [] }
        }
        if !batch.isEmpty { _ = try connection.send(batch) }
        return (server, connection)
    }

    /// Member names of a GEOSEARCH ... WITHDIST reply, in order.
    static func members(_ reply: [UInt8]) -> [String] {
        let text = String(decoding: reply, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let head = lines.popFirst(), head.hasPrefix("*") else { return [] }
        var members: [String] = []
        while let line = lines.popFirst() {
            if line.hasPrefix("*2") {
                _ = lines.popFirst()  // $len
                if let member = lines.popFirst() { members.append(String(member)) }
                _ = lines.popFirst(); _ = lines.popFirst()  // distance
            }
        }
        return members
    }
}

extension SocketBenchmark {
    /// Redis's Earth radius (geohashGetDistance), in meters.
    static let redisEarthRadius = 6_372_797.560856

    func runCompare() throws {
        let redis = try RedisConnection.program()
        let areasd = try BuiltBeside.program("areasd")
        var summary: [String: Double] = [:]
        for n in points {
            print("== \(n) points, \(connections) connections x \(pipeline) in flight, \(Int(seconds)) s per run ==")
            let directory = "/tmp/areas-compare-\(getpid())-\(n)"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }

            // The same points for both: areas with names and addresses, Redis with ids.
            let areas = BenchData.areas(count: n)
            let coordinates = SyntheticPoints.clustered(count: n, seed: 7)
            try _ = BenchData.writeDaemonFiles(areas: areas, directory: directory)
            let areasSocket = directory + "/areasd.sock"
            let started = Measure.clock.now
            let daemon = try Child(areasd, ["--config", directory + "/areasd.json", "--socket", areasSocket, "--log-level", "error"])
            var startup = Double.nan
            while (Measure.clock.now - started) < .seconds(60) {
                if let client = try? AreasClient(path: areasSocket), let line = try? client.send(Request.health.line),
                   String(decoding: line, as: UTF8.self).contains(#""loaded":true"#) {
                    startup = (Measure.clock.now - started).milliseconds
                    break
                }
                usleep(2_000)
            }
            let loaded = daemon.residentByBacking
            print("areasd: answering \(Measure.format(startup, 0)) ms after start, \(daemon.residentBytes / 1_048_576) MiB resident (\(loaded.anonymous / 1_048_576) MiB anonymous, \(loaded.file / 1_048_576) MiB mapped files)")

            let (server, connection) = try RedisConnection.serving(areas.map { ($0.id, $0.coordinate) }, program: redis, directory: directory)
            let info = String(decoding: try connection.send([["INFO", "memory"]])[0], as: UTF8.self)
            let usedMemory = Int(info.split(separator: "\r\n").first { $0.hasPrefix("used_memory:") }?.split(separator: ":").last ?? "") ?? 0
            let resident = daemon.residentBytes
            let memory = Self.memoryParts(socket: areasSocket)
            print("memory: areasd \(resident / 1_048_576) MiB resident (of it \(memory["textBytes", default: 0] / 1_048_576) MiB text: ids, names, addresses, fields; \(memory["recordBytes", default: 0] / 1_048_576) MiB records; \(memory["indexBytes", default: 0] / 1_048_576) MiB trees); redis used_memory \(usedMemory / 1_048_576) MiB (ids and positions only), \(server.residentBytes / 1_048_576) MiB resident; resident ratio \(Measure.format(Double(resident) / Double(max(server.residentBytes, 1))))")
            summary["n\(n)_resident_ratio"] = Double(resident) / Double(max(server.residentBytes, 1))

            let tree = PackedRTree(entries: areas.map { GeoBox($0.coordinate) })
            let queries = Self.queries(count: 20_000, mix: mix, points: coordinates, ids: areas.map(\.id), tree: tree, seed: 11)

            // Agreement with brute force, outside the timed runs.
            let agreement = try checkAgreement(areas: areas, areasSocket: areasSocket, redis: connection, seed: UInt64(n))
            for (kind, value) in agreement.sorted(by: { $0.key < $1.key }) {
                print("agreement with brute force, \(kind): areas \(Measure.format(value.areas * 100, 1))%, redis \(Measure.format(value.redis * 100, 1))% (of \(value.compared) compared)")
            }

            func load(_ wire: any BenchWire, _ socket: String, _ queries: [BenchQuery], seconds: Double? = nil) -> LoadGenerator.Result {
                LoadGenerator(socket: socket, wire: wire, connections: connections, pipeline: pipeline, seconds: seconds ?? self.seconds).run(queries)
            }
            let idsRun = load(AreasWire(output: "ids", bboxLimit: bboxLimit), areasSocket, queries)
            report("areas ids ", idsRun)
            let fullRun = load(AreasWire(output: "full", bboxLimit: bboxLimit), areasSocket, queries)
            report("areas full", fullRun)
            let redisRun = load(RedisWire(bboxLimit: bboxLimit), directory + "/redis.sock", queries)
            report("redis     ", redisRun)
            print("mixed: areas ids / redis \(Measure.format(idsRun.throughput / redisRun.throughput))x, areas full / redis \(Measure.format(fullRun.throughput / redisRun.throughput))x; p99 areas \(Measure.format(idsRun.percentile(0.99), 0)) µs vs redis \(Measure.format(redisRun.percentile(0.99), 0)) µs")
            summary["n\(n)_mixed_ratio"] = idsRun.throughput / redisRun.throughput
            summary["n\(n)_mixed_full_ratio"] = fullRun.throughput / redisRun.throughput
            summary["n\(n)_p99_areas_us"] = idsRun.percentile(0.99)
            summary["n\(n)_p99_redis_us"] = redisRun.percentile(0.99)

            for kind in ["near", "radius", "bbox", "get"] {
                let only = queries.filter { $0.kind == kind }
                guard !only.isEmpty else { continue }
                let a = load(AreasWire(output: "ids", bboxLimit: bboxLimit), areasSocket, only, seconds: seconds / 2)
                let r = load(RedisWire(bboxLimit: bboxLimit), directory + "/redis.sock", only, seconds: seconds / 2)
                print("\(kind): areas \(Int(a.throughput))/s, redis \(Int(r.throughput))/s, ratio \(Measure.format(a.throughput / r.throughput))x; p99 \(Measure.format(a.percentile(0.99), 0)) vs \(Measure.format(r.percentile(0.99), 0)) µs")
                summary["n\(n)_\(kind)_ratio"] = a.throughput / r.throughput
            }

            // Server-side cost of a near query: one connection, 64 in flight, areasd's CPU time per answer.
            let nearOnly = queries.filter { $0.kind == "near" }
            let cpuBefore = daemon.cpuSeconds
            let single = LoadGenerator(socket: areasSocket, wire: AreasWire(output: "ids", bboxLimit: bboxLimit), connections: 1, pipeline: 64, seconds: seconds / 2).run(nearOnly)
            let cost = (daemon.cpuSeconds - cpuBefore) / Double(max(single.answered, 1)) * 1e6
            print("near k=10 server-side: \(Measure.format(cost)) µs of areasd CPU per answer (\(single.answered) answers, 1 connection x 64)")
            summary["n\(n)_near_server_us"] = cost
            summary["n\(n)_startup_ms"] = startup
            summary["n\(n)_areasd_rss_mib"] = Double(resident) / 1_048_576
            // Both after the same load: what each holds once the clients have gone.
            let afterLoad = daemon.residentBytes, redisAfterLoad = server.residentBytes
            summary["n\(n)_areasd_rss_after_load_mib"] = Double(afterLoad) / 1_048_576
            summary["n\(n)_redis_rss_after_load_mib"] = Double(redisAfterLoad) / 1_048_576
            summary["n\(n)_resident_ratio_after_load"] = Double(afterLoad) / Double(max(redisAfterLoad, 1))
            let backing = daemon.residentByBacking
            print("after the runs: areasd \(afterLoad / 1_048_576) MiB resident (\(backing.anonymous / 1_048_576) MiB anonymous, \(backing.file / 1_048_576) MiB mapped files), redis-server \(redisAfterLoad / 1_048_576) MiB; ratio \(Measure.format(Double(afterLoad) / Double(max(redisAfterLoad, 1))))")
            summary["n\(n)_redis_used_memory_mib"] = Double(usedMemory) / 1_048_576
            daemon.stop()
            server.stop()
        }
        print(Measure.json(summary))
    }

    /// The byte counts areasd's `stats` gives under `memory`.
    static func memoryParts(socket: String) -> [String: Int] {
        guard let client = try? AreasClient(path: socket), let line = try? client.send(Request.stats.line),
              let stats = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              let memory = stats["memory"] as? [String: Any] else { return [:] }
        var parts = memory.compactMapValues { ($0 as? NSNumber)?.intValue }
        for (name, value) in memory["residentParts"] as? [String: Any] ?? [:] {
            parts["residentParts." + name] = (value as? NSNumber)?.intValue
        }
        return parts
    }

    struct Agreement { var areas = 0.0; var redis = 0.0; var compared = 0 }

    /// Asks both servers a sample of questions and compares each answer with brute force.
    func checkAgreement(areas: [Area], areasSocket: String, redis: RedisConnection, seed: UInt64) throws -> [String: Agreement] {
        let scan = LinearScan(points: areas.map(\.coordinate))
        let client = try AreasClient(path: areasSocket)
        let scale = Self.redisEarthRadius / Geodesy.earthRadiusMeters
        var random = SplitMix64(seed: seed)
        var result: [String: Agreement] = [:]
        func idsOf(_ line: [UInt8]) -> [String] {
            guard case .object(let m)? = try? JSONParser.parse(line), case .array(let list)? = m.first(where: { $0.0 == "areas" })?.1 else { return [] }
            return list.compactMap { if case .object(let a) = $0, case .string(let id)? = a.first(where: { $0.0 == "id" })?.1 { return id }; return nil }
        }
        for kind in ["near", "radius"] {
            var agreement = Agreement()
            let samples = 40
            for _ in 0..<samples {
                let p = SyntheticPoints.point(in: SyntheticPoints.box(around: areas[Int.random(in: 0..<areas.count, using: &random)].coordinate, fraction: 1e-6), using: &random)
                let query: BenchQuery
                let expected: [PackedRTree.Neighbor]
                if kind == "near" {
                    expected = scan.nearest(to: p, k: 10)
                    query = .near(p, k: 10, redisRadius: ((expected.last?.distanceMeters ?? 1000) * 1.001 + 1).rounded(.up))
                } else {
                    expected = scan.search(within: 500, of: p)
                    query = .radius(p, meters: 500)
                }
                var line: [UInt8] = []
                AreasWire(output: "ids", bboxLimit: bboxLimit).encode(query, into: &line)
                let ours = idsOf(try client.send(Array(line.dropLast())))
                if ours == expected.map({ areas[Int($0.payload)].id }) { agreement.areas += 1 }
                var command: [UInt8] = []
                RedisWire(bboxLimit: bboxLimit).encode(query, into: &command)
                let theirs = Set(RedisConnection.members(try redis.sendRaw(command)))
                // Brute force in Redis's radius; points within a meter of the edge may go either way.
                let limit = kind == "near" ? (expected.last?.distanceMeters ?? 0) * scale : 500
                let all = kind == "near" ? scan.search(within: (expected.last?.distanceMeters ?? 0) + 5, of: p) : scan.search(within: 510 / scale, of: p)
                let sure = Set(all.filter { $0.distanceMeters * scale < limit - 1 }.map { areas[Int($0.payload)].id })
                let maybe = Set(all.filter { abs($0.distanceMeters * scale - limit) <= 1 }.map { areas[Int($0.payload)].id })
                if sure.isSubset(of: theirs) && theirs.subtracting(sure).isSubset(of: maybe) { agreement.redis += 1 }
                agreement.compared += 1
            }
            agreement.areas /= Double(samples)
            agreement.redis /= Double(samples)
            result[kind] = agreement
        }
        return result
    }
}

extension RedisConnection {
    func sendRaw(_ bytes: [UInt8]) throws -> [UInt8] {
        try fd.writeAll(bytes)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var offset = 0
            if buffer.withUnsafeBytes({ RedisWire.skip($0, &offset) }) != nil {
                let reply = Array(buffer[0..<offset])
                buffer.removeSubrange(0..<offset)
                return reply
            }
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            guard n > 0 else { throw UsageError.wrongArguments("redis closed the connection") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
