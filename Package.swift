// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Code for AVX2 and FMA (x86-64-v3, every x86 server processor since about 2015) when the
/// machine building has them, as machines that build from this README run what they build:
/// the distance and bound kernels then take four doubles an instruction instead of two, and a
/// radius query runs about a fifth fewer instructions. `AREAS_PORTABLE=1 swift build` makes
/// binaries for any x86-64 processor, to copy to another machine.
let vectorTuning: [SwiftSetting] = {
    #if arch(x86_64) && os(Linux)
    guard Context.environment["AREAS_PORTABLE"] == nil,
          let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })?.split(separator: " "),
          ["avx2", "fma", "bmi2", "movbe"].allSatisfy({ flags.contains(Substring($0)) })
    else { return [] }
    return [.unsafeFlags(["-target-cpu", "haswell"])]
    #else
    return []
    #endif
}()

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
        .target(name: "AreasKit", dependencies: ["CMemoryHints"], swiftSettings: vectorTuning),
        // Cache prefetch, which Swift cannot express.
        .target(name: "CMemoryHints"),
        .executableTarget(name: "areasd", dependencies: ["AreasKit"]),
        .executableTarget(name: "areasctl", dependencies: ["AreasKit"]),
        .executableTarget(name: "areas-bench", dependencies: ["AreasKit"]),
        .testTarget(name: "AreasKitTests", dependencies: ["AreasKit"]),
    ]
)
