import AreasKit
import Glibc

let usage = """
    usage: areas-bench index [--points N] [--seed S] [--queries Q]
           areas-bench ingest [--zones N] [--snapshot-areas N]
    """

var arguments = ArgumentList(Array(CommandLine.arguments.dropFirst()))
let mode = arguments.next() ?? ""
do {
    switch mode {
    case "index":
        try IndexBenchmark(arguments: &arguments).run()
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
