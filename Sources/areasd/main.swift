import AreasServer
import AreasSystem
import Dispatch
import Glibc

do {
    let options = try Daemon.parseOptions(Array(CommandLine.arguments.dropFirst()))
    let daemon = Daemon(options: options)
    if let failure = daemon.start() {
        StandardError.write(failure.message + "\n")
        exit(failure.code)
    }
    dispatchMain()
} catch {
    StandardError.write("areasd: \(error)\n\(Daemon.usage)\n")
    exit(2)
}
