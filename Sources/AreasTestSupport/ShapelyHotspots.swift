import AreasCore
import Foundation

/// shapely's answer (PyPI, an implementation independent of the daemon's) to which hotspot of
/// a GeoJSON places file holds each point: the first by the file's order, read from the file by
/// shapely itself.
package enum ShapelyHotspots {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func holding(_ points: [GeoPoint], in path: String) throws -> [String?] {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pointsText = "[" + points.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ",") + "]"
        try Data(pointsText.utf8).write(to: URL(fileURLWithPath: folder + "/points.json"))
        let script = """
            import json, sys
            from shapely.geometry import shape, Point
            features = json.load(open(sys.argv[1]))["features"]
            shapes = [(f["properties"].get("AREA_CD") or f["properties"].get("cd"), shape(f["geometry"])) for f in features]
            out = []
            for x, y in json.load(open(sys.argv[2])):
                p = Point(x, y)
                out.append(next((code for code, s in shapes if s.contains(p)), None))
            json.dump(out, open(sys.argv[3], "w"))
            """
        _ = try PythonOracle.run(script, inline: true, [path, folder + "/points.json", folder + "/out.json"], seconds: 60)
        guard let values = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json"))) as? [Any] else {
            throw Failure(description: "shapely's script wrote no list")
        }
        return values.map { $0 as? String }
    }

    /// The codes of the hotspots whose bounding box (shapely's `envelope`) overlaps the box.
    package static func envelopesOverlapping(south: Double, west: Double, north: Double, east: Double, in path: String) throws -> [String] {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = """
            import json, sys
            from shapely.geometry import shape, box
            view = box(float(sys.argv[3]), float(sys.argv[2]), float(sys.argv[5]), float(sys.argv[4]))
            features = json.load(open(sys.argv[1]))["features"]
            out = [f["properties"].get("AREA_CD") or f["properties"].get("cd") for f in features if shape(f["geometry"]).envelope.intersects(view)]
            json.dump(out, open(sys.argv[6], "w"))
            """
        _ = try PythonOracle.run(script, inline: true, [path, String(south), String(west), String(north), String(east), folder + "/out.json"], seconds: 60)
        guard let values = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json"))) as? [String] else {
            throw Failure(description: "shapely's script wrote no list")
        }
        return values
    }
}
