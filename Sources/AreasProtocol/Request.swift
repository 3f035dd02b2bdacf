import AreasCore

/// One request of the wire protocol (version 1), validated.
public enum Request: Sendable, Equatable {
    case near(point: GeoPoint, k: Int, maxMeters: Double?, kind: KindFilter, region: Region, output: OutputMode)
    case radius(point: GeoPoint, meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    case bbox(box: GeoBox, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    /// May I smoke here: the zones the point is in, and the nearest smoking area.
    case check(point: GeoPoint, region: Region)
    /// Areas within `meters` of a route, in route order.
    case along(path: [GeoPoint], meters: Double, kind: KindFilter, region: Region, limit: Int?, output: OutputMode)
    case get(id: String)
    case stats
    case health
    case refresh(wait: Bool, force: Bool)
    /// The daemon's counters and gauges in the Prometheus text format.
    case metrics

    /// The operations that cost upstream quota or change state: only admins may ask them.
    public var isPrivileged: Bool {
        if case .refresh = self { return true }
        return false
    }
}

/// How much of each area a query answer carries.
public enum OutputMode: String, Sendable, CaseIterable {
    /// Every shown field.
    case full
    /// Only the id and the distance, like Redis `WITHDIST`.
    case ids
    /// Only the count.
    case count
}

/// A request refused before it ran: the wire code and a message naming the field.
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case badRequest = "bad_request"
        case unknownOp = "unknown_op"
        case tooLarge = "too_large"
        case notFound = "not_found"
        case permissionDenied = "permission_denied"
        case unavailable
        case busy
        /// A valid request that would cost more than one request may; the message says what to narrow.
        case tooExpensive = "too_expensive"
        case `internal`
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension Request {
    /// The largest `k` a near query may ask for.
    public static let maximumK = 10_000
    /// The most points a route may have.
    public static let maximumPathPoints = 1_000
    /// The widest corridor along a route, in meters.
    public static let maximumCorridor = 50_000.0

    /// Parses one request line (without its newline).
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RequestError) -> Request {
        // Members go straight into their slots, on the stack: no tree of the request, no member
        // list, no allocation.
        let result: Result<Request, RequestError> = withUnsafeTemporaryAllocation(of: Fields.Slot.self, capacity: Fields.Key.count) { slots in
            slots.initialize(repeating: .absent)
            var fields = Fields(slots: slots)
            do throws(RequestError) { return .success(try parse(line, into: &fields)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func parse(_ line: UnsafeBufferPointer<UInt8>, into fields: inout Fields) throws(RequestError) -> Request {
        do {
            if let other = try JSONParser.forEachMember(of: line, { name, value in fields.set(name, value) }) {
                throw RequestError(.badRequest, "a request must be a JSON object, got \(other.typeName)")
            }
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError(.badRequest, "\(error)")
        }
        let unknown = { (op: String) in
            RequestError(.unknownOp, "unknown op '\(op)' (expected near, radius, bbox, check, along, get, stats, health, refresh or metrics)")
        }
        guard let op = try fields.word(.op, Operation.self, otherwise: unknown) else { throw RequestError(.badRequest, "op is missing") }
        let request: Request
        switch op {
        case .near:
            let point = try fields.point()
            let k = try fields.integer(.k, in: 0...maximumK) ?? 10
            let maxMeters = try fields.distance(.maxMeters)
            request = .near(point: point, k: k, maxMeters: maxMeters, kind: try fields.kind(), region: try fields.region(), output: try fields.output())
        case .radius:
            let point = try fields.point()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            request = .radius(point: point, meters: meters, kind: try fields.kind(), region: try fields.region(),
                              limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .bbox:
            let south = try fields.coordinate(.south, range: -90...90)
            let west = try fields.coordinate(.west, range: -180...180)
            let north = try fields.coordinate(.north, range: -90...90)
            let east = try fields.coordinate(.east, range: -180...180)
            guard south <= north else { throw RequestError(.badRequest, "south (\(south)) must not be above north (\(north))") }
            guard west <= east else { throw RequestError(.badRequest, "west (\(west)) must not be east of east (\(east))") }
            let box = GeoBox(uncheckedSouth: south, west: west, north: north, east: east)
            request = .bbox(box: box, kind: try fields.kind(), region: try fields.region(),
                            limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .check:
            request = .check(point: try fields.point(), region: try fields.region())
        case .along:
            let path = try fields.path()
            guard let meters = try fields.distance(.meters) else { throw RequestError(.badRequest, "meters is missing") }
            guard meters <= maximumCorridor else {
                throw RequestError(.badRequest, "meters must be at most \(Int(maximumCorridor)) for along, got \(meters)")
            }
            request = .along(path: path, meters: meters, kind: try fields.kind(), region: try fields.region(),
                             limit: try fields.integer(.limit, in: 0...Int(Int32.max)), output: try fields.output())
        case .get:
            guard let id = try fields.string(.id), !id.isEmpty else { throw RequestError(.badRequest, "id is missing") }
            request = .get(id: id)
        case .stats:
            request = .stats
        case .health:
            request = .health
        case .refresh:
            request = .refresh(wait: try fields.bool(.wait) ?? false, force: try fields.bool(.force) ?? false)
        case .metrics:
            request = .metrics
        }
        return request
    }

    public static func parse(_ line: [UInt8]) throws(RequestError) -> Request {
        let result: Result<Request, RequestError> = line.withUnsafeBufferPointer { buffer in
            do throws(RequestError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The `op` values.
    private enum Operation: String, CaseIterable {
        case near, radius, bbox, check, along, get, stats, health, refresh, metrics
    }

    /// Every operation's name, in the order `operationIndex` numbers them (for counting).
    public static let operationNames = Operation.allCases.map(\.rawValue)

    /// This request's operation, as a position in `operationNames`.
    public var operationIndex: Int {
        switch self {
        case .near: return 0
        case .radius: return 1
        case .bbox: return 2
        case .check: return 3
        case .along: return 4
        case .get: return 5
        case .stats: return 6
        case .health: return 7
        case .refresh: return 8
        case .metrics: return 9
        }
    }

    /// Typed access to a request's members, each error naming the field.
    private struct Fields {
        /// The members a request may have; any other is ignored.
        enum Key: Int, CaseIterable {
            case op, lat, lon, k, maxMeters, kind, province, district, output, meters, limit
            case south, west, north, east, path, id, wait, force

            var name: String { String(describing: self) }

            static let count = allCases.count

            /// Names as bytes, to match member names without making strings.
            static let names: [[UInt8]] = allCases.map { Array($0.name.utf8) }

            init?(_ bytes: UnsafeBufferPointer<UInt8>) {
                for (index, name) in Key.names.enumerated() where name.count == bytes.count {
                    guard name.withUnsafeBufferPointer({ $0.sameBytes(as: bytes) }) else { continue }
                    self.init(rawValue: index)
                    return
                }
                return nil
            }
        }

        /// A member's value as read: plain text and numbers in place, anything else parsed
        /// into `others`. Plain data, so the slots need no clean-up.
        enum Slot {
            case absent
            case text(UnsafeBufferPointer<UInt8>)
            case number(Double)
            case other(Int)
        }

        /// One slot per key, in `Key` order, in memory the caller lends (an `InlineArray` member
        /// was copied whole, 456 bytes, on every read of one element).
        private let values: UnsafeMutableBufferPointer<Slot>
        /// Values other than plain text and numbers: true, false, null, arrays, objects, escaped text.
        private var others: [JSONValue] = []

        init(slots: UnsafeMutableBufferPointer<Slot>) {
            precondition(slots.count == Key.count, "one slot per key")
            values = slots
        }

        /// Keeps the member if it is one a request may have; a repeated one replaces the earlier.
        mutating func set(_ name: UnsafeBufferPointer<UInt8>, _ member: JSONParser.Member) {
            guard let key = Key(name) else { return }
            switch member {
            case .text(let bytes):
                values[key.rawValue] = .text(bytes)
            case .value(.number(let number)):
                values[key.rawValue] = .number(number)
            case .value(let value):
                values[key.rawValue] = .other(others.count)
                others.append(value)
            }
        }

        func find(_ key: Key) -> JSONValue? {
            switch values[key.rawValue] {
            case .absent: return nil
            case .text(let bytes): return .string(String(decoding: bytes, as: UTF8.self))
            case .number(let number): return .number(number)
            case .other(let index): return others[index]
            }
        }

        func string(_ key: Key) throws(RequestError) -> String? {
            var name: String { key.name }
            switch find(key) {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let other?: throw RequestError(.badRequest, "\(name) must be a string, got \(other.typeName)")
            }
        }

        /// A string member that must be one of `T`'s raw values, matched in place: the common
        /// words of a request (op, output, kind) make no `String`.
        func word<T: CaseIterable & RawRepresentable<String>>(_ key: Key, _ type: T.Type, otherwise: (String) -> RequestError) throws(RequestError) -> T? {
            if case .text(let bytes) = values[key.rawValue] {
                if let match = T.allCases.first(where: { word in
                    var raw = word.rawValue
                    return raw.withUTF8 { $0.sameBytes(as: bytes) }
                }) {
                    return match
                }
                throw otherwise(String(decoding: bytes, as: UTF8.self))
            }
            guard let text = try string(key) else { return nil }
            guard let match = T(rawValue: text) else { throw otherwise(text) }
            return match
        }

        func number(_ key: Key) throws(RequestError) -> Double? {
            var name: String { key.name }
            switch find(key) {
            case nil, .null?: return nil
            case .number(let n)?:
                guard n.isFinite else { throw RequestError(.badRequest, "\(name) must be a finite number") }
                return n
            case let other?: throw RequestError(.badRequest, "\(name) must be a number, got \(other.typeName)")
            }
        }

        func bool(_ key: Key) throws(RequestError) -> Bool? {
            var name: String { key.name }
            switch find(key) {
            case nil, .null?: return nil
            case .bool(let b)?: return b
            case let other?: throw RequestError(.badRequest, "\(name) must be true or false, got \(other.typeName)")
            }
        }

        func coordinate(_ key: Key, range: ClosedRange<Double>) throws(RequestError) -> Double {
            var name: String { key.name }
            // Spelled out only for an error: formatting it on every request cost a tenth of parsing one.
            var bounds: String { "a number between \(Int(range.lowerBound)) and \(Int(range.upperBound))" }
            let value: Double?
            do throws(RequestError) {
                value = try number(key)
            } catch {
                throw RequestError(.badRequest, "\(name) must be \(bounds)")
            }
            guard let value else { throw RequestError(.badRequest, "\(name) is missing: it must be \(bounds)") }
            guard range.contains(value) else { throw RequestError(.badRequest, "\(name) must be \(bounds), got \(value)") }
            return value
        }

        func point() throws(RequestError) -> GeoPoint {
            let lat = try coordinate(.lat, range: -90...90)
            let lon = try coordinate(.lon, range: -180...180)
            return GeoPoint(uncheckedLatitude: lat, longitude: lon)
        }

        func distance(_ key: Key) throws(RequestError) -> Double? {
            guard let value = try number(key) else { return nil }
            var name: String { key.name }
            guard value >= 0, value <= 20_100_000 else {
                throw RequestError(.badRequest, "\(name) must be a number of meters from 0 to 20100000, got \(value)")
            }
            return value
        }

        func integer(_ key: Key, in range: ClosedRange<Int>) throws(RequestError) -> Int? {
            guard let value = try number(key) else { return nil }
            var name: String { key.name }
            guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
                throw RequestError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)")
            }
            return Int(value)
        }

        func region() throws(RequestError) -> Region {
            let province = try string(.province)
            let district = try string(.district)
            if province?.isEmpty == true { throw RequestError(.badRequest, "province must not be empty") }
            if district?.isEmpty == true { throw RequestError(.badRequest, "district must not be empty") }
            return Region(province: province, district: district)
        }

        func path() throws(RequestError) -> [GeoPoint] {
            guard let value = find(.path) else { throw RequestError(.badRequest, "path is missing: give [[lat, lon], ...]") }
            guard case .array(let items) = value else { throw RequestError(.badRequest, "path must be an array of [lat, lon] pairs, got \(value.typeName)") }
            guard !items.isEmpty, items.count <= Request.maximumPathPoints else {
                throw RequestError(.badRequest, "path must have 1 to \(Request.maximumPathPoints) points, got \(items.count)")
            }
            var points: [GeoPoint] = []
            points.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2, case .number(let lat) = pair[0], case .number(let lon) = pair[1] else {
                    throw RequestError(.badRequest, "path[\(i)] must be [lat, lon], two numbers")
                }
                guard let point = try? GeoPoint(latitude: lat, longitude: lon) else {
                    throw RequestError(.badRequest, "path[\(i)] must have lat between -90 and 90 and lon between -180 and 180, got [\(lat), \(lon)]")
                }
                points.append(point)
            }
            return points
        }

        func kind() throws(RequestError) -> KindFilter {
            try word(.kind, KindFilter.self) { RequestError(.badRequest, "kind must be smoking, nonsmoking or all, got '\($0)'") } ?? .all
        }

        func output() throws(RequestError) -> OutputMode {
            try word(.output, OutputMode.self) { RequestError(.badRequest, "output must be full, ids or count, got '\($0)'") } ?? .full
        }
    }
}
