import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Refresh: CommandQuestion {
    static let presentation = ["--json", "--quiet"]
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        ResponseFormatter.refresh(ResponseFormatter.Object(answer.object.members(.report)), quiet: answer.command.quiet)
    }

    /// areasctl waits for the refresh's report.
    static func completing(_ values: inout [(RequestField, JSONValue)]) throws(UsageError) { values.append((.wait, .bool(true))) }

    static func jsonStatus(_ answer: ResponseFormatter.Object) -> Int32 {
        ResponseFormatter.Object(answer.members(.report)).bool(.succeeded) == false ? 1 : 0
    }
}
