// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `areas` is a Linux daemon: it speaks to systemd, Glibc and Linux's socket options directly, so
/// the package declares no Apple platform. It builds with the toolchain alone (no outside
/// packages).
///
/// The library targets are layers; each depends only on the ones below it, so the compiler keeps
/// the architecture:
///
///     areasd            areasctl           areas-bench, tests
///        |                  |                    |
///   AreasServer        AreasControl       AreasTestSupport
///        |      \           |                    |
///   AreasIngest   \         |                    |
///        |    \    AreasProtocol                  |
///        |     \        |                        |
///        +------ AreasCore    AreasSystem ---------+
///                   |          |
///                  CMemoryHints
///
/// No library product is vended, so declarations other targets use are `package`, except in
/// `AreasCore` and `AreasProtocol`: the index, the tables and the JSON writer are called from
/// the layers above on every request, and the compiler inlines and specialises across modules
/// only what is `public` (a near answer ran 13% more instructions with them `package`).
///
/// `AREAS_NATIVE=1` compiles the libraries for the building machine's processor (AVX2, FMA, BMI2 when
/// it has them): radius and nearest searches then run fewer instructions, but the binaries run
/// only on processors like the one that built them, and a package with unsafe flags cannot be
/// used as a dependency. `config/install.sh` sets it; the default build is portable.
let nativeTuning: [SwiftSetting] = {
    #if arch(x86_64) && os(Linux)
    guard Context.environment["AREAS_NATIVE"] == "1",
          let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })?.split(separator: " "),
          ["avx2", "fma", "bmi2", "movbe"].allSatisfy({ flags.contains(Substring($0)) })
    else { return [] }
    return [.unsafeFlags(["-target-cpu", "haswell"])]
    #else
    return []
    #endif
}()

/// The engine optimised in every build: a debug build's tests and daemons spend most of their
/// time in the index, geodesy and shapes (brute-force oracles ask them thousands of questions), at
/// a tenth of the speed unoptimised. Its `assert`s stay on in a debug build.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]

/// A release build gives each function a section of its own, and areasd's link lays out first, side
/// by side, the functions that serving, the fetch worker and a refresh run (`hot-code.order`,
/// written by `hot-code.py` beside it). The kernel maps a program's code 64 KiB around each page
/// that runs, so a daemon whose serving functions lie spread over its binary keeps nearly all of
/// its code resident. `--section-ordering-file` is gold's, the linker the toolchain uses on Linux;
/// a function the file does not name is laid out after those it names.
let functionSections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
let hotCodeFirst: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/Sources/areasd/hot-code.order"], .when(configuration: .release)),
]
let librarySettings = nativeTuning + optimisedInDebug + functionSections

let package = Package(
    name: "areas",
    products: [
        .executable(name: "areasd", targets: ["areasd"]),
        .executable(name: "areasctl", targets: ["areasctl"]),
        .executable(name: "areas-bench", targets: ["areas-bench"]),
    ],
    targets: [
        // Cache prefetch, which Swift cannot express.
        .target(name: "CMemoryHints"),
        // The system's zlib, for gzip files (the administrative boundaries ship gzipped).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Geodesy, the area model and table, the packed R-tree and its searches.
        .target(name: "AreasCore", dependencies: ["CMemoryHints"], swiftSettings: librarySettings),
        // System calls wrapped once, with one errno type; the process's arguments and paths.
        .target(name: "AreasSystem", dependencies: ["CMemoryHints"], swiftSettings: librarySettings),
        // The wire protocol: the JSON reader and writer, requests and their errors.
        .target(name: "AreasProtocol", dependencies: ["AreasCore"], swiftSettings: librarySettings),
        // Configuration, upstream fetching and decoding, validation, merging, the snapshot file.
        .target(name: "AreasIngest", dependencies: ["AreasCore", "AreasProtocol", "AreasSystem", "CZlib"], swiftSettings: librarySettings),
        // The service: served state, request dispatch, answers, the socket server, systemd.
        // The map page's HTML, CSS and script are files of their own, built into the binary.
        .target(name: "AreasServer", dependencies: ["AreasCore", "AreasProtocol", "AreasIngest", "AreasSystem"],
                resources: [.embedInCode("Map/Page/map.html"), .embedInCode("Map/Page/map.css"), .embedInCode("Map/Page/map.js")],
                swiftSettings: librarySettings),
        // The client and its terminal and GeoJSON rendering.
        .target(name: "AreasControl", dependencies: ["AreasCore", "AreasProtocol", "AreasSystem"], swiftSettings: librarySettings),
        // For tests and benchmarks only: a loopback HTTP server, synthetic points, the brute-force
        // reference searches, fixtures, asking a running daemon. Never linked into areasd or areasctl.
        .target(name: "AreasTestSupport", dependencies: ["AreasCore", "AreasProtocol", "AreasIngest", "AreasControl", "AreasSystem"],
                swiftSettings: optimisedInDebug),
        // Swift Testing traits every suite takes; apart from AreasTestSupport, which areas-bench links.
        .target(name: "AreasTestTraits"),

        .executableTarget(name: "areasd", dependencies: ["AreasServer", "AreasIngest", "AreasSystem"], exclude: ["hot-code.py", "hot-code.order"],
                          swiftSettings: functionSections, linkerSettings: hotCodeFirst),
        .executableTarget(name: "areasctl", dependencies: ["AreasControl", "AreasProtocol", "AreasSystem"]),
        .executableTarget(
            name: "areas-bench",
            dependencies: ["AreasCore", "AreasProtocol", "AreasIngest", "AreasServer", "AreasControl", "AreasSystem", "AreasTestSupport"],
            exclude: ["README.md"]),

        // One test target per layer.
        .testTarget(name: "AreasCoreTests", dependencies: ["AreasTestTraits", "AreasCore", "AreasTestSupport"]),
        .testTarget(name: "AreasSystemTests", dependencies: ["AreasTestTraits", "AreasSystem"]),
        .testTarget(name: "AreasProtocolTests", dependencies: ["AreasTestTraits", "AreasProtocol", "AreasCore", "AreasTestSupport"]),
        .testTarget(
            name: "AreasIngestTests", dependencies: ["AreasTestTraits", "AreasIngest", "AreasCore", "AreasProtocol", "AreasSystem", "AreasTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "AreasServerTests",
            dependencies: ["AreasTestTraits", "AreasServer", "AreasIngest", "AreasCore", "AreasProtocol", "AreasSystem", "AreasControl", "AreasTestSupport"]),
        .testTarget(name: "AreasControlTests", dependencies: ["AreasTestTraits", "AreasControl", "AreasCore", "AreasProtocol", "AreasSystem", "AreasTestSupport"]),
    ]
)
