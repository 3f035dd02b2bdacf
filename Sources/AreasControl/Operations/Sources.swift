import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Sources: CommandQuestion {
    static let presentation = ["--json"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        .init(stdout: ResponseFormatter.sources(answer.object, width: answer.width), stderr: "", status: 0)
    }
}
