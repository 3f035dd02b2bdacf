import AreasSystem
import Glibc

let usage = """
    usage: areas-bench index [--points N] [--seed S] [--queries Q] [--node-size 16] [--only NAME]
           areas-bench ingest [--zones N] [--snapshot-areas N] [--decode-only | --refresh-only | --files-only [--csv-rows N]]
           areas-bench merge [--records 85000,1000000] [--runs 2] [--one-point 50000]
           areas-bench maps [--points 80000,1000000]
           areas-bench shapes [--zones 100000] [--queries 20000]
           areas-bench rings [--vertices 99998] [--runs 5] [--zones 30000]
           areas-bench regions [--points 20000] [--folder PATH]
           areas-bench search [--points 80000,1000000] [--queries 2000] [--build-only] [--areasd PATH]
           areas-bench discover [--rows 100000] [--runs 3]
           areas-bench datasets [--sets 25] [--rows 3000] [--runs 3]
           areas-bench metrics [--sources 1000,3000,10000] [--scrapes 5]
           areas-bench expensive [--points N] [--only NAME]
           areas-bench connections [--idle 1000,10000] [--points N] [--seconds S] [--slow-readers N] [--areasd PATH]
           areas-bench faults [--kills N]
           areas-bench bad-input [--socket PATH] [--markdown]
           areas-bench soak [--seconds 600] [--connections 16]
           areas-bench changes [--points 1000000] [--versions 30] [--percent 1]
           areas-bench socket --socket PATH [--connections C] [--pipeline P] [--seconds S] [--mix near:40,radius:30,bbox:25,get:5] [--output ids|full|count]
           areas-bench http [--points 100000] [--connections 8] [--seconds 5] [--rounds 2]
           areas-bench ogc [--points 100000] [--requests 300]
           areas-bench startup [--points 1000000] [--runs 3]
           areas-bench cli [--runs 300] [--areasctl PATH] [--areasd PATH]
           areas-bench memory [--points 10000,100000,1000000] [--areasd PATH]
           areas-bench crowd [--points 100000] [--questions 20000] [--rounds 3]
           areas-bench compare-redis [--points 100000,1000000] [--connections C] [--pipeline P] [--seconds S] [--mix ...]
    """

var arguments = ArgumentList(Array(CommandLine.arguments.dropFirst()))
signal(SIGPIPE, SIG_IGN)
let mode = arguments.next() ?? ""
do {
    switch mode {
    case "index":
        try IndexBenchmark(arguments: &arguments).run()
    case "socket":
        try SocketBenchmark(arguments: &arguments, compare: false).runSocket()
    case "compare-redis":
        try SocketBenchmark(arguments: &arguments, compare: true).runCompare()
    case "connections":
        try ConnectionsBenchmark(arguments: &arguments).run()
    case "expensive":
        try ExpensiveRequestsBenchmark(arguments: &arguments).run()
    case "soak":
        try SoakBenchmark(arguments: &arguments).run()
    case "bad-input":
        try BadInputTable(arguments: &arguments).run()
    case "ogc":
        try OGCBenchmark(arguments: &arguments).run()
    case "changes":
        try ChangesBenchmark(arguments: &arguments).run()
    case "http":
        try HTTPBenchmark(arguments: &arguments).run()
    case "startup":
        try StartupBenchmark(arguments: &arguments).run()
    case "cli":
        try CLIStartupBenchmark(arguments: &arguments).run()
    case "faults":
        try FaultsBenchmark(arguments: &arguments).run()
    case "maps":
        try MapBenchmark(arguments: &arguments).run()
    case "shapes":
        try ShapeBenchmark(arguments: &arguments).run()
    case "rings":
        try RingsBenchmark(arguments: &arguments).run()
    case "regions":
        try RegionsBenchmark(arguments: &arguments).run()
    case "search":
        try SearchBenchmark(arguments: &arguments).run()
    case "merge":
        try MergeBenchmark(arguments: &arguments).run()
    case "datasets":
        try DatasetsBenchmark(arguments: &arguments).run()
    case "discover":
        try DiscoveryBenchmark(arguments: &arguments).run()
    case "metrics":
        try MetricsBenchmark(arguments: &arguments).run()
    case "memory":
        try MemoryBenchmark(arguments: &arguments).run()
    case "crowd":
        try await CrowdBenchmark(arguments: &arguments).run()
    case "ingest":
        let benchmark = try IngestBenchmark(arguments: &arguments)
        try await benchmark.run()
    default:
        throw UsageError.unknownCommand(mode)
    }
} catch {
    StandardError.write("areas-bench: \(error)\n\(usage)\n")
    exit(2)
}
