import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Changes: CommandQuestion {
    static let presentation = ["--json"]

    /// A line saying from which version to which, then a table: CHANGE, KIND, NAME, ADDRESS,
    /// WHAT, ID.
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output {
        typealias Object = ResponseFormatter.Object
        let object = answer.object
        func areas(_ key: AnswerKey) -> [Object] {
            object.array(key).compactMap { if case .object(let members) = $0 { Object(members) } else { nil } }
        }
        let (appeared, changed, vanished) = (areas(.appeared), areas(.changed), areas(.vanished))
        var text = "since \(object.string(.since) ?? "?") to \(object.string(.version) ?? "?"): "
            + "\(appeared.count) appeared, \(changed.count) changed, \(vanished.count) vanished"
            + "\n"
            + (object.string(.next).map { "more than the daemon's maxResults: the next page is areasctl changes --since \(object.string(.since) ?? "?") --cursor \($0)\n" } ?? "")
        guard !(appeared.isEmpty && changed.isEmpty && vanished.isEmpty) else { return .init(stdout: text, stderr: "", status: 0) }
        var rows = [["CHANGE", "KIND", "NAME", "ADDRESS", "WHAT", "ID"]]
        for area in appeared {
            rows.append(["appeared", area.string(.kind) ?? "", area.string(.name) ?? "", area.string(.address) ?? "", "", area.string(.id) ?? ""])
        }
        for area in changed {
            let what = area.array(.what).compactMap(\.string).joined(separator: ", ")
            rows.append(["changed", area.string(.kind) ?? "", area.string(.name) ?? "", area.string(.address) ?? "", what, area.string(.id) ?? ""])
        }
        for area in vanished {
            rows.append(["vanished", "", area.string(.name) ?? "", "", "last seen \(area.string(.lastSeen) ?? "?")", area.string(.id) ?? ""])
        }
        text += "\n" + ResponseFormatter.align(rows.map { $0.map { $0.escapingControlCharacters() } }, rightAligned: [], elastic: [2, 3], width: answer.width)
        return .init(stdout: text, stderr: "", status: 0)
    }
}
