// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "areas",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AreasKit", targets: ["AreasKit"]),
        .executable(name: "areasd", targets: ["areasd"]),
        .executable(name: "areasctl", targets: ["areasctl"]),
        .executable(name: "areas-bench", targets: ["areas-bench"]),
    ],
    targets: [
        // All logic lives here; the executables are thin entry points over it.
        .target(name: "AreasKit", dependencies: ["CMemoryHints"]),
        // Cache prefetch, which Swift cannot express.
        .target(name: "CMemoryHints"),
        .executableTarget(name: "areasd", dependencies: ["AreasKit"]),
        .executableTarget(name: "areasctl", dependencies: ["AreasKit"]),
        .executableTarget(name: "areas-bench", dependencies: ["AreasKit"]),
        .testTarget(name: "AreasKitTests", dependencies: ["AreasKit"]),
    ]
)
