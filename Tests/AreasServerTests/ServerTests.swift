import Foundation
import Glibc
import Synchronization
import Testing
@testable import AreasCore
import AreasIngest
@testable import AreasProtocol
@testable import AreasServer
@testable import AreasSystem
@testable import AreasTestSupport
import AreasTestTraits

/// The daemon's protocol end to end over a real Unix socket, answers checked by brute force.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class ServerTests {
    @Test func queriesMatchBruteForce() async throws {
        let server = try await TestServer.samples()
        let areas = server.service.state.index.areas
        #expect(areas.count > 2_500)
        let client = try server.client()
        var random = SplitMix64(seed: 8)
        func byDistance(_ point: GeoPoint, _ kind: KindFilter) -> [(String, Double)] {
            areas.filter { kind.admits($0.kind) }
                .map { ($0.id, Geodesy.distance(point, $0.coordinate)) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        }
        for i in 0..<150 {
            let anchor = areas[Int.random(in: 0..<areas.count, using: &random)].coordinate
            let lat = anchor.latitude + Double.random(in: -0.01...0.01, using: &random)
            let lon = anchor.longitude + Double.random(in: -0.01...0.01, using: &random)
            let point = try GeoPoint(latitude: lat, longitude: lon)
            let kind = KindFilter.allCases[i % 3]
            let expected = byDistance(point, kind)

            let near = try server.ask(#"{"op":"near","lat":\#(lat),"lon":\#(lon),"k":7,"kind":"\#(kind.rawValue)"}"#, on: client)
            #expect(near.ids == expected.prefix(7).map(\.0))
            let distances = near["areas"]?.array.compactMap { $0["distanceMeters"]?.double } ?? []
            for (got, want) in zip(distances, expected.prefix(7).map(\.1)) { #expect(abs(got - want) <= 0.006) }

            let meters = [50.0, 400, 1500][i % 3]
            let radius = try server.ask(#"{"op":"radius","lat":\#(lat),"lon":\#(lon),"meters":\#(meters),"kind":"\#(kind.rawValue)"}"#, on: client)
            #expect(radius.ids == (expected.filter { $0.1 <= meters }.map(\.0)))

            let box = SyntheticPoints.box(around: point, fraction: 0.0002)
            let inBox = try server.ask(#"{"op":"bbox","south":\#(box.south),"west":\#(box.west),"north":\#(box.north),"east":\#(box.east),"kind":"\#(kind.rawValue)"}"#, on: client)
            #expect(Set(inBox.ids) == (Set(areas.filter { kind.admits($0.kind) && box.contains($0.coordinate) }.map(\.id))))
            #expect((inBox["count"]?.double) == Double(inBox.ids.count))
        }
        let one = areas[1234]
        let got = try server.ask(#"{"op":"get","id":"\#(one.id)"}"#, on: client)
        let fields = got["areas"]?.array.first?["fields"]
        #expect(got.ids == [one.id])
        // Every field, in the order its source gave them.
        guard case .object(let pairs)? = fields else { Issue.record("fields is not an object: \(String(describing: fields))"); return }
        #expect(pairs.map(\.0) == one.fields.map(\.key))
        #expect(pairs.map(\.1.string) == one.fields.map(\.value))
        #expect((try server.ask(#"{"op":"get","id":"nope"}"#, on: client).errorCode) == "not_found")
    }

    /// The initial bearing from `a` to `b` in degrees from north, by vectors: `b`'s position
    /// on the unit sphere projected on `a`'s east and north directions.
    static func initialBearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        let (φ1, λ1) = (a.latitude * .pi / 180, a.longitude * .pi / 180)
        let (φ2, λ2) = (b.latitude * .pi / 180, b.longitude * .pi / 180)
        let target = (cos(φ2) * cos(λ2), cos(φ2) * sin(λ2), sin(φ2))
        let east = (-sin(λ1), cos(λ1), 0.0)
        let north = (-sin(φ1) * cos(λ1), -sin(φ1) * sin(λ1), cos(φ1))
        let e = target.0 * east.0 + target.1 * east.1 + target.2 * east.2
        let n = target.0 * north.0 + target.1 * north.1 + target.2 * north.2
        let degrees = atan2(e, n) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    @Test func checkAlongAndRegionsOverTheSocket() async throws {
        let server = try await TestServer.samples()
        let index = server.service.state.index
        // check at points in, near and between Seoul's zones, against every served area.
        let served = index.areas.indices.filter { index.isServed($0) }
        let zones = served.filter { index.areas[$0].kind == .nonsmoking && index.areas[$0].province == "서울특별시" }
        try #require(zones.count > 50)
        var random = SplitMix64(seed: 7)
        var insideSeen = 0
        for i in 0..<60 {
            let anchor = index.areas[zones[Int.random(in: 0..<zones.count, using: &random)]].coordinate
            let jitter = i % 3 == 0 ? 0.0 : i % 3 == 1 ? 0.0003 : 0.003
            let point = try GeoPoint(latitude: anchor.latitude + Double.random(in: -jitter...max(jitter, 1e-12), using: &random),
                                     longitude: anchor.longitude + Double.random(in: -jitter...max(jitter, 1e-12), using: &random))
            let answer = try server.ask(#"{"op":"check","lat":\#(point.latitude),"lon":\#(point.longitude)}"#)
            // Circles, by distance to their centres; zones' shapes are checked against shapely
            // (ZoneShapesTests).
            let inside = served.filter { p in
                index.areas[p].kind == .nonsmoking && index.areas[p].field(ShapeText.fieldKey) == nil
                    && Geodesy.distance(point, index.areas[p].coordinate) <= index.footprintPolicy.radius(of: index.areas[p])
            }.sorted { (Geodesy.distance(point, index.areas[$0].coordinate), $0) < (Geodesy.distance(point, index.areas[$1].coordinate), $1) }
            let listed = (answer["zones"]?.array ?? []).filter { $0["footprint"]?["basis"]?.string != "shape" }
            #expect(answer["inside"]?.bool == !inside.isEmpty || listed.count < (answer["zones"]?.array.count ?? 0), "inside at \(point)")
            #expect(listed.compactMap { $0["id"]?.string } == inside.map { index.areas[$0].id }, "zones at \(point)")
            for (zone, p) in zip(listed, inside) {
                let radius = index.footprintPolicy.radius(of: index.areas[p])
                #expect(abs((zone["footprintMeters"]?.double ?? -1) - radius) <= 0.005, "footprint of \(index.areas[p].id)")
                #expect((zone["distanceMeters"]?.double ?? .infinity) <= radius + 0.005)
            }
            if answer["inside"]?.bool == true {
                insideSeen += 1
                // Inside only zones drawn from a route's length, the sentence says "probably".
                let zonesThere = answer["zones"]?.array ?? []
                let allApproximate = !zonesThere.isEmpty && zonesThere.allSatisfy { $0["footprint"]?["approximate"]?.bool == true }
                let prefix = allApproximate ? "Probably no smoking here: inside" : "No smoking here: inside"
                #expect(answer["summary"]?.string?.hasPrefix(prefix) == true, Comment(rawValue: answer["summary"]?.string ?? ""))
            }
            let smoking = try #require(served.filter { index.areas[$0].kind == .smoking }
                .min { (Geodesy.distance(point, index.areas[$0].coordinate), index.areas[$0].id) < (Geodesy.distance(point, index.areas[$1].coordinate), index.areas[$1].id) })
            let nearest = try #require(answer["nearestSmoking"])
            #expect(nearest["id"]?.string == index.areas[smoking].id, "nearest smoking area to \(point)")
            #expect(abs((nearest["distanceMeters"]?.double ?? -1) - Geodesy.distance(point, index.areas[smoking].coordinate)) <= 0.005)
            let bearing = Self.initialBearing(from: point, to: index.areas[smoking].coordinate)
            let said = try #require(nearest["bearingDegrees"]?.double)
            #expect(min(abs(said - bearing), 360 - abs(said - bearing)) <= 0.051, "bearing \(said), by vectors \(bearing)")
            #expect(nearest["direction"]?.string == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Int((said + 22.5) / 45) % 8])
        }
        #expect(insideSeen >= 20, "the points reach inside zones (\(insideSeen) of 60)")

        // along: every served area within 100 m of the route, by its distance to points laid
        // every metre along it (what lies within a metre of the edge either way is not judged).
        let path = [[37.55, 126.97], [37.54, 126.975], [37.53, 126.97]]
        let route = try server.ask(#"{"op":"along","path":\#(path),"meters":100}"#)
        let points = try path.map { try GeoPoint(latitude: $0[0], longitude: $0[1]) }
        var samples: [GeoPoint] = []
        for (a, b) in zip(points, points.dropFirst()) {
            let steps = Int(Geodesy.distance(a, b).rounded(.up))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                samples.append(try GeoPoint(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude)))
            }
        }
        let answered = Set(route.ids)
        #expect(answered.count == route.ids.count && route.ids.count > 3)
        // Beyond 0.002° of the route's box (over 170 m here) an area is farther than 101 m.
        let latitudes = samples.map(\.latitude), longitudes = samples.map(\.longitude)
        let near = try GeoBox(south: try #require(latitudes.min()) - 0.002, west: try #require(longitudes.min()) - 0.002,
                              north: try #require(latitudes.max()) + 0.002, east: try #require(longitudes.max()) + 0.002)
        for p in served {
            guard near.contains(index.areas[p].coordinate) else {
                #expect(!answered.contains(index.areas[p].id), "\(index.areas[p].id) lies far from the route")
                continue
            }
            let distance = samples.lazy.map { Geodesy.distance($0, index.areas[p].coordinate) }.min() ?? .infinity
            if distance <= 99 { #expect(answered.contains(index.areas[p].id), "\(index.areas[p].id) lies \(distance) m from the route") }
            if distance > 101 { #expect(!answered.contains(index.areas[p].id), "\(index.areas[p].id) lies \(distance) m from the route") }
        }

        // "서울" is an alias of "서울특별시"; every answer then lies in Seoul.
        let seoul = try server.ask(#"{"op":"near","lat":37.4,"lon":126.95,"k":20,"province":"서울"}"#)
        #expect(seoul.ids.count == 20)
        #expect(seoul.ids.allSatisfy { index.area(id: $0)?.province == "서울특별시" })
        let stats = try server.ask(#"{"op":"stats"}"#)
        #expect((stats["byProvince"]?["서울특별시"]?.double) == (Double(index.areas.filter { $0.province == "서울특별시" }.count)))
        // The text is held once: each distinct string of the table once (and the few the refresh keeps
        // beside them); stored every time, the repeated province, district, source and field names alone would add hundreds of kilobytes.
        let textBytes = try #require(stats["memory"]?["textBytes"]?.double)
        let distinct = Double(LinearScan.distinctStringBytes(of: index.areas))
        #expect(textBytes >= distinct && textBytes < distinct * 1.01, "\(textBytes) bytes of text for \(distinct) of distinct strings")
        // The records, and their fields: each area's values, where they start and which key list
        // names them; each source's distinct key lists once.
        let keyLists = Dictionary(grouping: index.areas, by: \.source).values.map { Set($0.map { $0.fields.map(\.key) }) }
        #expect((stats["memory"]?["recordBytes"]?.double) == (Double(index.areas.count * 48 + (index.areas.count + 1) * 4 + index.areas.count * 4
            + index.areas.reduce(0) { $0 + $1.fields.count * 4 } + keyLists.reduce(1) { $0 + $1.count } * 4
            + keyLists.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } * 4)))
        #expect((try #require(stats["memory"]?["indexBytes"]?.double)) > (Double(index.areas.count * 16)))
        // The search index's size; the resident pages are the anonymous ones and the files', as /proc counts them.
        let memory = try #require(stats["memory"]), bytes = { (key: String) in memory[key]?.double ?? -1 }
        #expect(bytes("searchBytes") == Double(index.search.byteCount) && bytes("heapBytes") > 0 && bytes("heapFreeBytes") >= 0 && bytes("residentBytes") > 0 && bytes("residentBytes") == bytes("residentAnonymousBytes") + bytes("residentFileBytes"))

        for (request, message) in [
            (#"{"op":"along","meters":50}"#, "path is missing"),
            (#"{"op":"along","path":[],"meters":50}"#, "path must have 1 to 1000 points"),
            (#"{"op":"along","path":[[91,0]],"meters":50}"#, "path[0] must have lat between -90 and 90"),
            (#"{"op":"along","path":[[37,127],"x"],"meters":50}"#, "path[1] must be [lat, lon]"),
            (#"{"op":"along","path":[[37,127]],"meters":60000}"#, "meters must be at most 50000"),
            (#"{"op":"check","lat":37}"#, "lon is missing"),
            (#"{"op":"near","lat":37,"lon":127,"province":""}"#, "province must not be empty"),
        ] {
            let error = try server.ask(request)
            #expect(error.errorCode == "bad_request", Comment(rawValue: request))
            #expect(error["error"]?["message"]?.string?.contains(message) == true, "\(request): \(error["error"]?["message"]?.string ?? "")")
        }
    }

    @Test func outputModesAndLimits() async throws {
        let server = try await TestServer.samples()
        let full = try server.ask(#"{"op":"radius","lat":37.53,"lon":126.97,"meters":3000}"#)
        let ids = try server.ask(#"{"op":"radius","lat":37.53,"lon":126.97,"meters":3000,"output":"ids"}"#)
        let count = try server.ask(#"{"op":"radius","lat":37.53,"lon":126.97,"meters":3000,"output":"count"}"#)
        #expect(full.ids.count > 20)
        #expect(ids.ids == full.ids)
        #expect((ids["areas"]?.array.first?["name"]) == nil)
        #expect((count["count"]?.double) == Double(full.ids.count))
        #expect(count["areas"] == nil)
        let limited = try server.ask(#"{"op":"radius","lat":37.53,"lon":126.97,"meters":3000,"limit":5}"#)
        #expect(limited.ids == Array(full.ids.prefix(5)))
        #expect((limited["truncated"]?.bool) == true)
        #expect((full["truncated"]?.bool) == false)
        // A count is not cut at maxResults (it carries no areas), only at a limit given.
        var config = try AreasConfig.load(path: Fixtures.samplesConfig)
        config.maxResults = 1_000
        let small = try await TestServer(config: config)
        let listed = try small.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132}"#)
        #expect((listed["count"]?.double) == 1_000)
        #expect((listed["truncated"]?.bool) == true)
        let everything = try small.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"count"}"#)
        let capped = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"count","limit":100}"#)
        #expect((everything["count"]?.double) == Double(small.service.state.index.count))
        #expect((everything["truncated"]?.bool) == false)
        #expect((capped["count"]?.double) == 100)
        #expect((capped["truncated"]?.bool) == true)
    }

    @Test(.tags(.concurrent)) func pipelinedRequestsAnswerInOrder() async throws {
        let server = try await TestServer.samples()
        let areas = server.service.state.index.areas
        let client = try server.client()
        let picks = (0..<1000).map { areas[($0 * 37) % areas.count].id }
        let batch = picks.map { #"{"op":"get","id":"\#($0)"}"# }.joined(separator: "\n") + "\n"
        // One write holding all 1,000 requests, then read 1,000 answers.
        let fd = try Sockets.connectUnix(path: server.socketPath)
        defer { fd.close() }
        try fd.writeAll(Array(batch.utf8))
        let reader = LineReader(fd: fd)
        for id in picks {
            #expect((try JSONParser.parse(try reader.next()).ids) == [id])
        }
        _ = client
    }

    @Test func badInputGetsAnErrorAndTheConnectionStaysUsable() async throws {
        let server = try await TestServer.samples()
        let client = try server.client()
        let cases: [(String, String, String)] = [
            ("{", "bad_request", "invalid JSON"),
            ("[1,2]", "bad_request", "must be a JSON object"),
            ("{}", "bad_request", "op is missing"),
            (#"{"op":"fly"}"#, "unknown_op", "unknown op 'fly'"),
            (#"{"op":"near","lon":127}"#, "bad_request", "lat is missing"),
            (#"{"op":"near","lat":"37.5","lon":127}"#, "bad_request", "lat must be a number"),
            (#"{"op":"near","lat":91,"lon":127}"#, "bad_request", "lat must be a number between -90 and 90"),
            (#"{"op":"near","lat":NaN,"lon":127}"#, "bad_request", "invalid JSON"),
            (#"{"op":"near","lat":1e999,"lon":127}"#, "bad_request", "invalid JSON"),
            (#"{"op":"near","lat":37,"lon":127,"k":100001}"#, "bad_request", "k must be a whole number from 0 to 10000"),
            (#"{"op":"near","lat":37,"lon":127,"k":2.5}"#, "bad_request", "k must be a whole number"),
            (#"{"op":"radius","lat":37,"lon":127,"meters":-1}"#, "bad_request", "meters must be a number of meters"),
            (#"{"op":"radius","lat":37,"lon":127}"#, "bad_request", "meters is missing"),
            (#"{"op":"bbox","south":38,"west":126,"north":37,"east":127}"#, "bad_request", "south (38.0) must not be above north"),
            (#"{"op":"bbox","south":37,"west":126,"north":38}"#, "bad_request", "east is missing"),
            (#"{"op":"near","lat":37,"lon":127,"kind":"cigars"}"#, "bad_request", "kind must be smoking, nonsmoking or all"),
            (#"{"op":"near","lat":37,"lon":127,"output":"xml"}"#, "bad_request", "output must be full, ids or count"),
            (#"{"op":"get","id":5}"#, "bad_request", "id must be a string"),
            ("\u{00}\u{01}binary", "bad_request", "invalid JSON"),
            (String(repeating: "[", count: 5000), "bad_request", "nested deeper"),
            (#"{"op":"get","id":"\ud800"}"#, "bad_request", "unpaired surrogate"),
        ]
        for (request, code, message) in cases {
            let answer = try server.ask(request, on: client)
            #expect((answer["ok"]?.bool) == false, Comment(rawValue: request))
            #expect(answer.errorCode == code, Comment(rawValue: request))
            #expect(answer["error"]?["message"]?.string?.contains(message) == true, "\(request): \(answer["error"]?["message"]?.string ?? "")")
            // Still answering on the same connection.
            #expect((try server.ask(#"{"op":"health"}"#, on: client)["ok"]?.bool) == true)
        }
    }

    @Test func oversizedLineIsRefusedThenClosed() async throws {
        let server = try await TestServer.samples()
        // Every read waits at most 10 s: a connection left open after too_large fails the test
        // with a time-out instead of passing as "an error".
        let fd = try Sockets.connectUnix(path: server.socketPath, timeoutSeconds: 10)
        defer { fd.close() }
        try fd.writeAll(Array(#"{"op":"health"}"#.utf8) + [10] + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000))
        let reader = LineReader(fd: fd)
        #expect((try JSONParser.parse(try reader.next())["ok"]?.bool) == true)
        #expect((try JSONParser.parse(try reader.next()).errorCode) == "too_large")
        if let error = #expect(throws: (any Error).self, "closed after too_large", performing: { try reader.next() }) {
            #expect(error is LineReader.Closed, "the connection was not closed: \(error)")
        }
        #expect((try server.ask(#"{"op":"health"}"#)["ok"]?.bool) == true, "others unaffected")
    }

    @Test(.tags(.concurrent)) func stalledClientsDoNotStallOthers() async throws {
        var limits = ConnectionServer.Limits()
        limits.maxConnections = 40
        let server = try await TestServer.samples(limits: limits)
        // Half a line, and a client that floods requests and never reads.
        let half = try Sockets.connectUnix(path: server.socketPath)
        try half.writeAll(Array(#"{"op":"near","lat":37"#.utf8))
        let flooder = try Sockets.connectUnix(path: server.socketPath)
        let flood = Array(String(repeating: #"{"op":"radius","lat":37.53,"lon":126.97,"meters":5000}"# + "\n", count: 2000).utf8)
        try flooder.setNonBlocking()
        _ = flood.withUnsafeBytes { try? flooder.write($0) }
        // Disconnect mid-response.
        let quitter = try Sockets.connectUnix(path: server.socketPath)
        try quitter.writeAll(flood)
        quitter.close()
        for _ in 0..<20 {
            #expect((try server.ask(#"{"op":"near","lat":37.5,"lon":127}"#).ids.count) == 10)
        }
        // Over the connection cap: one error line, then closed.
        var extra: [FileDescriptor] = []
        for _ in 0..<45 { extra.append(try Sockets.connectUnix(path: server.socketPath)) }
        var busy = 0
        for fd in extra.suffix(5) {
            var pollfd = Glibc.pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            if poll(&pollfd, 1, 2000) > 0, let line = try? LineReader(fd: fd).next(), (try? JSONParser.parse(line))?.errorCode == "busy" { busy += 1 }
        }
        #expect(busy == 5, "the last five are over the cap")
        extra.forEach { $0.close() }
        half.close()
        flooder.close()
    }

    @Test(.tags(.concurrent)) func fiveHundredConnectionsAtOnce() async throws {
        let server = try await TestServer.samples()
        var connections: [FileDescriptor] = []
        defer { connections.forEach { $0.close() } }
        for _ in 0..<500 { connections.append(try Sockets.connectUnix(path: server.socketPath)) }
        // Every one asks before any reads: all 500 are open and served at the same time.
        for fd in connections { try fd.writeAll(Array(#"{"op":"near","lat":37.53,"lon":126.97,"k":3,"output":"ids"}"#.utf8) + [10]) }
        let expected = try server.ask(#"{"op":"near","lat":37.53,"lon":126.97,"k":3,"output":"ids"}"#).ids
        #expect(expected.count == 3)
        for fd in connections {
            #expect((try JSONParser.parse(try LineReader(fd: fd).next()).ids) == expected)
        }
        #expect(server.server.connectionCount >= 500)
    }

    @Test(.tags(.concurrent)) func concurrentClientsDuringRefreshSeeWholeDataSets() async throws {
        // An upstream that alternates between two different data sets on every refresh.
        let generation = Atomic<Int>(0)
        let pages = [try Fixtures.xmlPage(1), try Fixtures.xmlPage(2)]
        let upstream = try LoopbackHTTPServer { request in
            let page = Int(request.query["pageNo"] ?? "1") ?? 1
            guard page == 1 else { return .text(200, Fixtures.headerError("03", "NODATA_ERROR")) }
            let which = generation.add(1, ordering: .relaxed).newValue % 2
            let text = String(decoding: pages[which], as: UTF8.self).replacingOccurrences(of: "<totalCount>2750</totalCount>", with: "<totalCount>1000</totalCount>")
            return .text(200, text, contentType: "text/xml")
        }
        defer { upstream.stop() }
        var source = Fixtures.source(url: upstream.baseURL + "/zones")
        source.maxShrink = 1
        let server = try await TestServer(config: Fixtures.config([source]))
        let first = Set(server.service.state.index.areas.map(\.id))
        _ = await server.service.startRefresh(force: false).report()
        let second = Set(server.service.state.index.areas.map(\.id))
        #expect(first != second && !first.isEmpty && !second.isEmpty)

        final class Failures: Sendable {
            let list = LockedValue<[String]>([])
            /// How many answers held each data set: both must be seen while the swaps run.
            let seen = LockedValue<[Int]>([0, 0])
            let refreshing = Atomic<Bool>(true)
            let refreshes = Atomic<Int>(0)
            /// Four questions in flight at a time, of the 200 connections: enough to overlap
            /// every swap, and CPU left for the refreshes (slow under ThreadSanitizer).
            let turns = DispatchSemaphore(value: 4)
        }
        let failures = Failures()
        // Eight refreshes, or as many as 90 s allow once three (two swaps there and back) are done.
        let refresher = Thread {
            let started = Date()
            for done in 0..<8 {
                if done >= 3 && Date().timeIntervalSince(started) > 90 { break }
                _ = server.service.startRefresh(force: false).wait()
                failures.refreshes.add(1, ordering: .relaxed)
            }
            failures.refreshing.store(false, ordering: .releasing)
        }
        refresher.start()
        // The clients block on their sockets: on threads of their own, so the refreshes they
        // overlap (on the cooperative pool) are not starved of threads. All 200 stay connected
        // and take turns asking until the swaps are over.
        let deadline = Date().addingTimeInterval(150)
        let clientsFinished = await OffThePool.run(200, seconds: 180) { c in
            do {
                let client = try server.client()
                repeat {
                    failures.turns.wait()
                    defer { failures.turns.signal() }
                    let answer = try server.ask(#"{"op":"bbox","south":33,"west":124,"north":39,"east":132,"output":"ids"}"#, on: client)
                    let ids = Set(answer.ids)
                    if ids == first {
                        failures.seen.withLock { $0[0] += 1 }
                    } else if ids == second {
                        failures.seen.withLock { $0[1] += 1 }
                    } else {
                        failures.list.withLock { $0.append("client \(c): \(ids.count) ids, a mix or a partial set") }
                    }
                } while failures.refreshing.load(ordering: .acquiring) && Date() < deadline
            } catch {
                failures.list.withLock { $0.append("client \(c): \(error)") }
            }
        }
        #expect(clientsFinished, "the 200 clients did not finish in 180 s")
        let refreshesFinished = !failures.refreshing.load(ordering: .acquiring)
        let refreshes = failures.refreshes.load(ordering: .relaxed)
        #expect(refreshesFinished && refreshes >= 3, "\(refreshes) refreshes in 150 s")
        #expect((failures.list.withLock { $0 }) == [])
        let seen = failures.seen.withLock { $0 }
        #expect(seen[0] > 0 && seen[1] > 0, "queries overlapped the swaps: \(seen)")
        #expect((generation.load(ordering: .relaxed)) >= refreshes)
    }

    @Test func socketFilesThatAreInTheWay() async throws {
        let server = try await TestServer.samples()
        // A live daemon's socket: refused.
        if let error = #expect(throws: (any Error).self, performing: { try SocketPath.prepare(server.socketPath) }) { #expect("\(error)".contains("in use by a running areasd")) }
        // A stale socket (no listener): replaced.
        let stale = server.directory + "/stale.sock"
        let dead = try Sockets.listenUnix(path: stale)
        dead.close()
        #expect(throws: Never.self) { try SocketPath.prepare(stale) }
        #expect(!(FileManager.default.fileExists(atPath: stale)))
        // Not a socket: refused and left alone.
        let file = server.directory + "/precious.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        if let error = #expect(throws: (any Error).self, performing: { try SocketPath.prepare(file) }) { #expect("\(error)".contains("not a socket")) }
        #expect((FileManager.default.contents(atPath: file)) == (Data("keep me".utf8)))
        // Too long for sun_path.
        let long = "/tmp/" + String(repeating: "x", count: 120) + ".sock"
        if let error = #expect(throws: (any Error).self, performing: { try SocketPath.prepare(long) }) { #expect("\(error)".contains("longer than the 107")) }
    }
}

/// Reads newline-terminated lines from a descriptor.
final class LineReader {
    let fd: FileDescriptor
    var buffer: [UInt8] = []

    /// A read that waits longer than `seconds` fails the test rather than hanging it.
    init(fd: FileDescriptor, seconds: Int = 30) {
        self.fd = fd
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    struct Closed: Error {}

    func next() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { throw Closed() }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
