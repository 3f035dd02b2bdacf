import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Where: CommandQuestion {
    static let presentation = ["--json"]
    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        try operands.point(try operands.numbers(["LAT", "LON"]))
    }

    /// At sea or abroad is an answer, not a failure; said on stderr as the daemon's note.
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        guard let place = ResponseFormatter.place(answer.object) else {
            return .init(stdout: "", stderr: "note: \(answer.object.string(.note)?.escapingControlCharacters() ?? "no region holds the point")\n", status: 0)
        }
        return .init(stdout: place + "\n", stderr: "", status: 0)
    }
}
