import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Search: CommandQuestion {
    static let presentation = ["--json", "--format"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        ResponseFormatter.search(answer.object, format: answer.command.format, width: answer.width)
    }

    /// The words may come as one operand or several (an unquoted 서울역 흡연).
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        guard !operands.texts.isEmpty else { throw .wrongArguments("search takes TEXT: search 서울역 흡연") }
        return [(.q, .string(operands.texts.joined(separator: " ")))]
    }
}
