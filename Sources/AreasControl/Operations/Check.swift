import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Check: CommandQuestion {
    static let presentation = ["--json", "--quiet"]
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] { try operands.position() }

    /// A script's question: 0 when the point is in no non-smoking zone, 1 when it is.
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        let status: Int32 = answer.object.bool(.inside) == true ? 1 : 0
        return .init(stdout: answer.command.quiet ? "" : ResponseFormatter.check(answer.object, width: answer.width), stderr: "", status: status)
    }
}
