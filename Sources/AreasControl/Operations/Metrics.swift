import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Metrics: CommandQuestion {
    static let presentation = ["--json"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        guard case .string(let text)? = answer.object.value(.metrics) else { return .init(stdout: "", stderr: "areasctl: the daemon sent no metrics\n", status: 1) }
        return ResponseFormatter.metrics(text, for: answer.command)
    }
}
