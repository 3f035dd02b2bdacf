import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Radius: CommandQuestion {
    static let presentation = ResponseFormatter.listPresentation
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output { ResponseFormatter.areaList(answer) }

    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        if operands.named {
            guard operands.texts.count == 1 else { throw .wrongArguments("radius --at TEXT takes METERS") }
            return try operands.meters(try operands.numbers(["METERS"])[0])
        }
        let v = try operands.numbers(["LAT", "LON", "METERS"])
        let meters = try operands.meters(v[2])
        return try operands.point(v, rest: " " + ControlCommand.text(v[2])) + meters
    }
}
