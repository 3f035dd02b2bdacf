import AreasKit
import Glibc

let usage = """
    usage: areas-bench index [--points N] [--seed S] [--queries Q]
    """

var arguments = ArgumentList(Array(CommandLine.arguments.dropFirst()))
let mode = arguments.next() ?? ""
do {
    switch mode {
    case "index":
        try IndexBenchmark(arguments: &arguments).run()
    default:
        throw UsageError.unknownCommand(mode)
    }
} catch {
    StandardError.write("areas-bench: \(error)\n\(usage)\n")
    exit(2)
}
