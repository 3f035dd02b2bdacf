import Foundation

/// The independent oracles some tests ask (shapely, mapbox-vector-tile) are Python packages from
/// PyPI, which `Tests/run.sh` installs for the distribution's Python.
package enum PythonModule {
    /// Whether `/usr/bin/python3` can import `module`.
    package static func isAvailable(_ module: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import \(module)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
