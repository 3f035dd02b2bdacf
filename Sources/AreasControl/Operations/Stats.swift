import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Stats: CommandQuestion {
    static let presentation = ["--json"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        .init(stdout: ResponseFormatter.stats(answer.object, now: answer.now, width: answer.width), stderr: "", status: 0)
    }
}
