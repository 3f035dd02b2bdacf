import AreasCore
import AreasIngest
import AreasServer
import AreasSystem
import Dispatch
import Glibc

// The daemon's own child, which makes its HTTP requests (never given by hand).
if CommandLine.arguments.dropFirst().first == FetchWorker.argument { FetchWorker.serve() }

do {
    let options = try Daemon.parseOptions(Array(CommandLine.arguments.dropFirst()))
    if options.help {
        print(Daemon.table.help, terminator: "")
        exit(0)
    }
    if options.manual {
        let roff = Daemon.table.manualPage(version: AreasVersion.current, date: AreasVersion.date)
        if !ManualPager.show(roff) { print(roff, terminator: "") }
        exit(0)
    }
    if options.version {
        print("areasd \(AreasVersion.current)")
        exit(0)
    }
    HTTPClient.fetchInWorker(.ofThisProgram())
    let daemon = Daemon(options: options)
    if let dataset = options.discoverDataset {
        let (output, report, code) = daemon.discover(dataset: dataset, kind: options.discoverKind, name: options.discoverName, positionsTemplate: options.positionsTemplate)
        StandardError.write(report)
        print(output, terminator: "")
        exit(code)
    }
    if let target = options.discover {
        let (output, report, code) = daemon.discover(target, kind: options.discoverKind, name: options.discoverName, positionsTemplate: options.positionsTemplate)
        StandardError.write(report)
        print(output, terminator: "")
        exit(code)
    }
    if options.dryRun {
        let (output, code) = daemon.dryRun()
        if code == 78 { StandardError.write(output + "\n") } else { print(output) }
        exit(code)
    }
    if options.checkConfigOnly {
        let (message, code) = daemon.checkConfig()
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        if code == 0 {
            // The verdict on stdout, warnings on stderr.
            print(lines.first ?? "")
            for warning in lines.dropFirst() { StandardError.write(warning + "\n") }
        } else {
            StandardError.write(message + "\n")
        }
        exit(code)
    }
    if let failure = daemon.start() {
        StandardError.write(failure.message + "\n")
        exit(failure.code)
    }
    dispatchMain()
} catch {
    StandardError.write("areasd: \(error)\nrun 'areasd --help' for usage\n")
    exit(2)
}
