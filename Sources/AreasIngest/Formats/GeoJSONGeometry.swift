import AreasCore

extension GeoJSONDecoder {
    /// A feature's geometry as read: its type and its coordinates, nested as the file nests them.
    struct Geometry {
        var type: String?
        var coordinates: Nest?

        /// Arrays of arrays, down to positions in fixed point.
        indirect enum Nest {
            case position(ShapeVertex)
            case list([Nest])

            var positions: [ShapeVertex]? {
                guard case .list(let items) = self else { return nil }
                var positions: [ShapeVertex] = []
                for item in items {
                    guard case .position(let vertex) = item else { return nil }
                    positions.append(vertex)
                }
                return positions
            }

            var lists: [Nest]? {
                guard case .list(let items) = self else { return nil }
                return items
            }
        }

        /// What a geometry gives a row.
        enum Usable {
            case points([GeoPoint])
            /// `repaired`: a polygon that touched or crossed itself, cut into simple rings.
            case shape(Shape, servedAt: GeoPoint, repaired: Bool)
        }

        /// Reads a geometry object; a rejection when its coordinates are not numbers on the
        /// globe or are more than a feature may have (read to its end all the same).
        static func read(_ reader: inout Reader) throws(Reader.Failure) -> Result<Geometry, Rejection> {
            var geometry = Geometry()
            var problem: Rejection?
            var vertices = 0
            func nest(_ reader: inout Reader) throws(Reader.Failure) -> Nest? {
                try reader.skipSpace()
                guard reader.peek == UInt8(ascii: "[") else {
                    try reader.skipValue()
                    problem = problem ?? .noGeometry
                    return nil
                }
                // A position is an array of numbers; anything else an array of arrays.
                var look = reader.offset + 1
                while look < reader.bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(reader.bytes[look]) { look += 1 }
                let isPosition = look < reader.bytes.count && (reader.bytes[look] == UInt8(ascii: "-") || reader.bytes[look] == UInt8(ascii: "N")
                    || reader.bytes[look] == UInt8(ascii: "I") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[look]))
                if isPosition {
                    var numbers: [Double] = []
                    try reader.array { reader throws(Reader.Failure) in
                        let value = try reader.number().value
                        if numbers.count < 3 { numbers.append(value) }
                    }
                    guard numbers.count >= 2 else { problem = problem ?? .noGeometry; return nil }
                    guard numbers.allSatisfy(\.isFinite) else { problem = problem ?? .notFinite; return nil }
                    guard (-180...180).contains(numbers[0]), (-90...90).contains(numbers[1]) else { problem = problem ?? .outsideTheGlobe; return nil }
                    vertices += 1
                    guard vertices <= ShapeLimits.maximumVertices else { problem = .tooManyVertices; return nil }
                    return .position(ShapeVertex(GeoPoint(uncheckedLatitude: numbers[1], longitude: numbers[0])))
                }
                var items: [Nest] = []
                try reader.array { reader throws(Reader.Failure) in
                    if let item = try nest(&reader), problem == nil { items.append(item) }
                }
                return problem == nil ? .list(items) : nil
            }
            try reader.object { key, reader throws(Reader.Failure) in
                switch key {
                case "type": geometry.type = try reader.string()
                case "coordinates": geometry.coordinates = try nest(&reader)
                default: try reader.skipValue()
                }
            }
            if let problem { return .failure(problem) }
            return .success(geometry)
        }

        /// The points or the checked shape the geometry gives.
        func usable() -> Result<Usable, Rejection> {
            guard let type, let coordinates else { return .failure(.noGeometry) }
            switch type {
            case "Point":
                guard case .position(let vertex) = coordinates else { return .failure(.noGeometry) }
                return .success(.points([vertex.point]))
            case "MultiPoint":
                guard let positions = coordinates.positions, !positions.isEmpty else { return .failure(.noGeometry) }
                return .success(.points(positions.map(\.point)))
            case "LineString":
                guard let path = coordinates.positions else { return .failure(.noGeometry) }
                return line([path])
            case "MultiLineString":
                guard let paths = coordinates.lists?.map(\.positions), !paths.isEmpty, paths.allSatisfy({ $0 != nil }) else { return .failure(.noGeometry) }
                return line(paths.compactMap { $0 })
            case "Polygon":
                guard let rings = coordinates.lists?.map(\.positions), !rings.isEmpty, rings.allSatisfy({ $0 != nil }) else { return .failure(.noGeometry) }
                return polygons([rings.compactMap { $0 }])
            case "MultiPolygon":
                guard let polygons = coordinates.lists, !polygons.isEmpty else { return .failure(.noGeometry) }
                var parts: [[[ShapeVertex]]] = []
                for polygon in polygons {
                    guard let rings = polygon.lists?.map(\.positions), !rings.isEmpty, rings.allSatisfy({ $0 != nil }) else { return .failure(.noGeometry) }
                    parts.append(rings.compactMap { $0 })
                }
                return self.polygons(parts)
            default:
                return .failure(.noGeometry)
            }
        }

        private func line(_ paths: [[ShapeVertex]]) -> Result<Usable, Rejection> {
            guard paths.allSatisfy({ $0.count >= 2 }) else { return .failure(.tooFewPositions) }
            let first = paths[0]
            return .success(.shape(Shape(kind: .line, parts: paths.map { [$0] }), servedAt: first[first.count / 2].point, repaired: false))
        }

        /// The polygons as a GIS reads them (`PolygonRepair`): repeated positions dropped, one
        /// that touches or crosses itself repaired, refused only when no repair can make one.
        private func polygons(_ parts: [[[ShapeVertex]]]) -> Result<Usable, Rejection> {
            var kept: [[[ShapeVertex]]] = []
            var repaired = false
            var budget = PolygonRepair.maximumWork
            for polygon in parts {
                var rings: [[ShapeVertex]] = []
                for ring in polygon {
                    guard ring.count >= 4 else { return .failure(.tooFewPositions) }
                    guard ring.first == ring.last else { return .failure(.ringNotClosed) }
                    rings.append(Array(ring.dropLast()))
                }
                switch PolygonRepair.check(rings, budget: &budget) {
                case .valid(let rings): kept.append(rings)
                case .repaired(let polygons):
                    kept += polygons
                    repaired = true
                case .refused(let refusal):
                    switch refusal {
                    case .tooFewPositions: return .failure(.tooFewPositions)
                    case .holeOutsideShell: return .failure(.holeOutsideShell)
                    case .noArea: return .failure(.noArea)
                    case .tooComplex: return .failure(.tooComplexToCheck)
                    case .unrepairable: return .failure(.crossesItself)
                    }
                }
            }
            let shape = Shape(kind: .polygon, parts: kept)
            return .success(.shape(shape, servedAt: RingCheck.pointInside(shape), repaired: repaired))
        }
    }
}
