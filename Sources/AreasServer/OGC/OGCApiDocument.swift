import AreasCore
import AreasProtocol
import Foundation

/// `/ogc/api`: the OpenAPI 3.0 document of the OGC API paths, for clients that read the
/// service's description (and for validators).
enum OGCApiDocument {
    static func write(base: String, into writer: inout JSONWriter) {
        let bytes = (try? JSONSerialization.data(withJSONObject: document(base: base), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        Array(bytes).withUnsafeBufferPointer { writer.value(written: $0) }
    }

    static func document(base: String) -> [String: Any] {
        let reference = { (name: String) -> [String: Any] in ["$ref": "#/components/parameters/" + name] }
        let error: [String: Any] = ["$ref": "#/components/responses/Error"]
        func answer(_ what: String, _ type: String = "application/json") -> [String: Any] {
            ["200": ["description": what, "content": [type: ["schema": ["type": "object"]]]], "400": error, "404": error]
        }
        func get(_ id: String, _ summary: String, _ responses: [String: Any], _ parameters: [[String: Any]] = []) -> [String: Any] {
            ["get": ["operationId": id, "summary": summary, "parameters": parameters + [reference("f")], "responses": responses]]
        }
        let collectionID = reference("collectionId"), featureID = reference("featureId")
        let filters = OGCItemsQuery.Queryable.allCases.map { queryable -> [String: Any] in
            ["name": queryable.rawValue, "in": "query", "required": false, "description": "exactly this \(queryable.rawValue)", "schema": ["type": "string"]]
        }
        let paths: [String: Any] = [
            "/": get("getLandingPage", "the landing page", answer("the landing page")),
            "/conformance": get("getConformance", "the conformance classes", answer("the conformance classes")),
            "/api": get("getAPI", "this document", answer("this document", "application/vnd.oai.openapi+json;version=3.0")),
            "/collections": get("getCollections", "the collections", answer("the collections")),
            "/collections/{collectionId}": get("describeCollection", "one collection", answer("the collection"), [collectionID]),
            "/collections/{collectionId}/queryables": get("getQueryables", "what its items may be filtered by",
                                                          answer("the queryables", "application/schema+json"), [collectionID]),
            "/collections/{collectionId}/items": get("getFeatures", "a page of its items", answer("a page of features", "application/geo+json"),
                                                     [collectionID, reference("limit"), reference("bbox"), reference("bbox-crs"), reference("cursor")] + filters),
            "/collections/{collectionId}/items/{featureId}": get("getFeature", "one item", answer("the feature", "application/geo+json"), [collectionID, featureID]),
        ]
        let parameters: [String: Any] = [
            "collectionId": ["name": "collectionId", "in": "path", "required": true, "schema": ["type": "string", "enum": OGCCollection.allCases.map(\.rawValue)]],
            "featureId": ["name": "featureId", "in": "path", "required": true, "schema": ["type": "string"]],
            "f": ["name": "f", "in": "query", "required": false, "schema": ["type": "string", "enum": ["json", "geojson"]]],
            "limit": ["name": "limit", "in": "query", "required": false,
                      "schema": ["type": "integer", "minimum": 1, "maximum": OGCItemsQuery.maximumLimit, "default": OGCItemsQuery.defaultLimit]],
            "bbox": ["name": "bbox", "in": "query", "required": false, "style": "form", "explode": false,
                     "schema": ["type": "array", "minItems": 4, "maxItems": 4, "items": ["type": "number"]]],
            "bbox-crs": ["name": "bbox-crs", "in": "query", "required": false, "schema": ["type": "string", "enum": [OGCAnswers.crs84]]],
            "cursor": ["name": "cursor", "in": "query", "required": false, "description": "where a page starts, as the previous page's next link gives it",
                       "schema": ["type": "string"]],
        ]
        let errorBody: [String: Any] = ["type": "object", "properties": [
            "ok": ["type": "boolean"], "error": ["type": "object", "properties": ["code": ["type": "string"], "message": ["type": "string"]]],
        ]]
        return [
            "openapi": "3.0.3",
            "info": ["title": "areas", "version": AreasVersion.current, "description": "Where people may and may not smoke in South Korea, as OGC API - Features"],
            "servers": [["url": base + "/ogc"]],
            "paths": paths,
            "components": ["parameters": parameters,
                           "responses": ["Error": ["description": "an error", "content": ["application/json": ["schema": errorBody]]]]],
        ]
    }
}
