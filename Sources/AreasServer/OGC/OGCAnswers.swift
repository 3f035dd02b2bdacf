import AreasCore
import AreasIngest
import AreasProtocol
import Foundation

/// OGC API - Features over the served data: the landing page, conformance, the collections
/// (`smoking` and `nonsmoking`, each area a point; `zones`, each non-smoking zone the outline
/// of its footprint) and their items, paged by a cursor that names the data version it was
/// given for.
enum OGCAnswers {
    static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    static let conformance = [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters",
    ]

    static func link(_ href: String, _ rel: String, _ type: String, _ title: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("href"); writer.string(href)
        writer.key("rel"); writer.string(rel)
        writer.key("type"); writer.string(type)
        writer.key("title"); writer.string(title)
        writer.endObject()
    }

    static func landing(base: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("title"); writer.string("areas")
        writer.key("description"); writer.string("Where people may and may not smoke in South Korea: smoking areas and non-smoking zones from the public open data, merged")
        writer.key("links")
        writer.beginArray()
        link(base + "/ogc", "self", "application/json", "this document", into: &writer)
        link(base + "/ogc/api", "service-desc", "application/vnd.oai.openapi+json;version=3.0", "the API definition", into: &writer)
        link(base + "/ogc/conformance", "conformance", "application/json", "the conformance classes", into: &writer)
        link(base + "/ogc/collections", "data", "application/json", "the collections", into: &writer)
        writer.endArray()
        writer.endObject()
    }

    static func conformance(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("conformsTo")
        writer.beginArray()
        for uri in conformance { writer.string(uri) }
        writer.endArray()
        writer.endObject()
    }

    static func collections(base: String, state: ServingState, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("links")
        writer.beginArray()
        link(base + "/ogc/collections", "self", "application/json", "the collections", into: &writer)
        writer.endArray()
        writer.key("collections")
        writer.beginArray()
        for collection in OGCCollection.allCases { self.collection(collection, base: base, state: state, into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    static func collection(_ collection: OGCCollection, base: String, state: ServingState, into writer: inout JSONWriter) {
        let here = base + "/ogc/collections/" + collection.rawValue
        writer.beginObject()
        writer.key("id"); writer.string(collection.rawValue)
        let (title, description) = switch collection {
        case .smoking: ("Smoking areas", "Every smoking area served, as a point")
        case .nonsmoking: ("Non-smoking zones", "Every non-smoking zone served, as a point (its footprint in the properties)")
        case .zones: ("Non-smoking zones' footprints", "Every non-smoking zone served, as the polygon where it holds: its circle, "
            + "or its published shape widened as its words say (a line as the corridor either side of it)")
        }
        writer.key("title"); writer.string(title)
        writer.key("description"); writer.string(description)
        writer.key("itemType"); writer.string("feature")
        writer.key("crs"); writer.beginArray(); writer.string(crs84); writer.endArray()
        writer.key("extent")
        writer.beginObject()
        writer.key("spatial")
        writer.beginObject()
        writer.key("bbox")
        writer.beginArray()
        let box = state.extent(of: collection) ?? GeoBox.korea
        writer.beginArray()
        for edge in [box.west, box.south, box.east, box.north] { writer.number(edge) }
        writer.endArray()
        writer.endArray()
        writer.key("crs"); writer.string(crs84)
        writer.endObject()
        writer.endObject()
        writer.key("links")
        writer.beginArray()
        link(here, "self", "application/json", "this collection", into: &writer)
        link(here + "/items", "items", "application/geo+json", "its areas", into: &writer)
        link(here + "/queryables", "http://www.opengis.net/def/rel/ogc/1.0/queryables", "application/schema+json", "what its items may be filtered by", into: &writer)
        writer.endArray()
        writer.endObject()
    }

    static func queryables(_ collection: OGCCollection, base: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("$schema"); writer.string("https://json-schema.org/draft/2019-09/schema")
        writer.key("$id"); writer.string(base + "/ogc/collections/" + collection.rawValue + "/queryables")
        writer.key("type"); writer.string("object")
        writer.key("title"); writer.string(collection.rawValue)
        writer.key("properties")
        writer.beginObject()
        let titles: [OGCItemsQuery.Queryable: String] = [
            .district: "district (시군구), as the source states it", .province: "province (시도), as the source states it",
            .source: "the configured source it came from", .kind: "smoking or nonsmoking", .name: "its name",
        ]
        for queryable in OGCItemsQuery.Queryable.allCases {
            writer.key(escaping: queryable.rawValue)
            writer.beginObject()
            writer.key("type"); writer.string("string")
            writer.key("title"); writer.string(titles[queryable] ?? queryable.rawValue)
            writer.endObject()
        }
        writer.endObject()
        writer.key("additionalProperties"); writer.bool(false)
        writer.endObject()
    }

    /// Whether the area at `position` is one of `collection`'s and has every property asked for.
    static func matches(_ position: Int, of areas: AreaTable.Buffers, index: AreaIndex, collection: OGCCollection, query: OGCItemsQuery) -> Bool {
        let record = areas.records[position]
        guard record.kind == collection.kind, index.isServed(position) else { return false }
        if let box = query.bbox {
            // A zone's outline is in the box when the box around its footprint meets it.
            if collection == .zones {
                let reach = (try? Geodesy.boundingBox(around: record.coordinate, meters: index.footprintRadius(of: position))) ?? GeoBox(record.coordinate)
                if !box.intersects(reach) { return false }
            } else if !box.contains(record.coordinate) {
                return false
            }
        }
        // Compared as bytes in place: a page may test every record, and a string made for each
        // would cost an allocation a test.
        for (queryable, wanted) in query.equal {
            let equal: Bool
            switch queryable {
            case .district: equal = areas.utf8(record.district).elementsEqual(wanted.utf8)
            case .province: equal = areas.utf8(record.province).elementsEqual(wanted.utf8)
            case .source: equal = areas.utf8(record.source).elementsEqual(wanted.utf8)
            case .kind: equal = record.kind.rawValue == wanted
            case .name: equal = areas.utf8(record.name).elementsEqual(wanted.utf8)
            }
            if !equal { return false }
        }
        return true
    }

    /// A page of items from the cursor on: the areas in id order, at most `limit`, and the
    /// position the next page starts at. A cursor is the data version it was given for and a
    /// position in it; one from another version is `gone` (start again), a forged one a bad request.
    static func items(_ collection: OGCCollection, query: OGCItemsQuery, base: String, target: String, state: ServingState, crowd: CrowdView?,
                      into writer: inout JSONWriter) throws(RequestError) {
        let index = state.index
        var start = 0
        if let cursor = query.cursor {
            let parts = cursor.split(separator: "~", omittingEmptySubsequences: false)
            guard parts.count == 2, let position = Int(parts[1]), position >= 0, position <= index.areas.count else {
                throw RequestError(.badRequest, "cursor '\(cursor.prefix(64))' is not one this daemon gave: start again from the first page")
            }
            guard parts[0] == state.version else {
                throw RequestError(.gone, "the data changed since this page was given (a refresh): start again from the first page")
            }
            start = position
        }
        var found: [Int] = []
        var next: Int?
        index.areas.withBuffers { areas in
            // A box that holds few areas is read from the tree: the rest of the table in id
            // order would be read to the end for them, once a page.
            if let candidates = fewInBox(query, collection: collection, index: index) {
                for position in candidates where position >= start && matches(position, of: areas, index: index, collection: collection, query: query) {
                    if found.count == query.limit { next = position; break }
                    found.append(position)
                }
                return
            }
            var position = start
            while position < areas.records.count {
                if matches(position, of: areas, index: index, collection: collection, query: query) {
                    if found.count == query.limit { next = position; break }
                    found.append(position)
                }
                position += 1
            }
        }
        // Counted when the index can count it: every area of the kind, or those in a box.
        var matched: Int?
        if query.equal.isEmpty && !(collection == .zones && query.bbox != nil) {
            if let box = query.bbox {
                matched = index.count(in: box, kind: collection.kind == .smoking ? .smoking : .nonsmoking)
            } else {
                matched = index.count(of: collection.kind)
            }
        }
        writer.beginObject()
        writer.key("type"); writer.string("FeatureCollection")
        writer.key("timeStamp"); writer.time(Date().timeIntervalSince1970)
        if let matched { writer.key("numberMatched"); writer.number(matched) }
        writer.key("numberReturned"); writer.number(found.count)
        writer.key("features")
        writer.beginArray()
        index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            for position in found {
                feature(position, of: areas, in: collection, state: state, crowd: crowd, shapes: &shapes, into: &writer)
            }
        }
        writer.endArray()
        writer.key("links")
        writer.beginArray()
        link(base + target, "self", "application/geo+json", "this page", into: &writer)
        if let next {
            var parameters = query.equal.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, $0.value) }
            parameters.append(("limit", String(query.limit)))
            if let box = query.bbox { parameters.append(("bbox", [box.west, box.south, box.east, box.north].map { String($0) }.joined(separator: ","))) }
            parameters.append(("cursor", state.version + "~" + String(next)))
            let text = parameters.map { "\($0.0)=\(Request.percentEncoded($0.1))" }.joined(separator: "&")
            link(base + "/ogc/collections/\(collection.rawValue)/items?" + text, "next", "application/geo+json", "the next page", into: &writer)
        }
        writer.endArray()
        writer.endObject()
    }

    /// Every area of `collection` the tree puts in the query's box (a zone by its footprint's
    /// box), in id order, when there are fewer than sixteen pages' worth; nil for no box or a
    /// box that holds more (read in id order from the cursor on: over all its pages, one pass).
    static func fewInBox(_ query: OGCItemsQuery, collection: OGCCollection, index: AreaIndex) -> [Int]? {
        guard var box = query.bbox else { return nil }
        // A zone's footprint reaches at most the widest radius from its position.
        if collection == .zones { box = ShapeIndex.widened(box, by: index.footprintPolicy.maximumMeters) }
        let most = 16 * (query.limit + 1)
        guard let inBox = try? index.areas(in: box, kind: collection.kind == .smoking ? .smoking : .nonsmoking, limit: most), inBox.count < most else { return nil }
        return inBox.map(\.position)
    }

    /// One area as a feature: its id, its position (a zone's outline in `zones`), and the
    /// members a full answer gives it.
    static func feature(_ position: Int, of areas: AreaTable.Buffers, in collection: OGCCollection, state: ServingState, crowd: CrowdView?,
                        shapes: inout ShapeAllowance, into writer: inout JSONWriter) {
        let index = state.index
        let record = areas.records[position]
        writer.beginObject()
        writer.key("type"); writer.string("Feature")
        writer.key("id"); writer.string(utf8: areas.utf8(record.id))
        writer.key("geometry")
        var drawing: ShapeOutline.Drawing?
        if collection == .zones {
            if let (outline, drawn) = state.outlines.outline(of: position, draw: { outline(position, of: areas, index: index, shapes: &shapes) }) {
                GeoJSONCollection.geometry(outline, into: &writer)
                drawing = drawn
            } else {
                writer.null()
            }
        } else {
            writer.beginObject()
            writer.key("type"); writer.string("Point")
            writer.key("coordinates")
            writer.beginArray()
            writer.number(record.coordinate.longitude)
            writer.number(record.coordinate.latitude)
            writer.endArray()
            writer.endObject()
        }
        writer.key("properties")
        Answers.area(position, of: areas, index: index, times: state.changes.times, crowd: crowd, distance: nil, form: .feature, shapes: &shapes, into: &writer)
        // A zone drawn as the circle of its reach says so: its shape would have cost too much.
        if drawing == .reach { writer.key("outline"); writer.string("reach") }
        writer.endObject()
        writer.endObject()
    }

    /// The outline of the zone at `position`: its circle, or its shape widened (nil for a
    /// shape the record no longer holds).
    static func outline(_ position: Int, of areas: AreaTable.Buffers, index: AreaIndex, shapes: inout ShapeAllowance) -> (Shape, ShapeOutline.Drawing)? {
        guard let (footprint, _) = index.footprint(of: position) else { return nil }
        let shape = footprint.basis == .shape ? Answers.publishedShape(position, of: areas) : nil
        return shapes.outline(footprint, center: areas.records[position].coordinate, shape: shape)
    }

    static func item(_ collection: OGCCollection, id: String, base: String, state: ServingState, crowd: CrowdView?, into writer: inout JSONWriter) throws(RequestError) {
        let index = state.index
        guard let position = index.areas.position(of: id), index.isServed(position), index.areas[position].kind == collection.kind else {
            throw RequestError(.notFound, "no feature '\(id.prefix(80))' in the collection \(collection.rawValue)")
        }
        index.areas.withBuffers { areas in
            var shapes = ShapeAllowance.listed
            feature(position, of: areas, in: collection, state: state, crowd: crowd, shapes: &shapes, into: &writer)
        }
    }

}
