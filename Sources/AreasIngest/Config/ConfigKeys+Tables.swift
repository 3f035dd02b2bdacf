extension ConfigKeys {
    /// Where the full key reference is, from the repository's top.
    package static let articlePath = "Sources/AreasIngest/AreasIngest.docc/ConfigKeys.md"

    /// The README's table: each top-level key, its meaning and default; an object's own keys
    /// are in the article.
    package static var readmeTable: String {
        (["| key | meaning | default |", "| --- | --- | --- |"] + section.keys.map { key in
            let inner: String
            switch key.takes {
            case .object, .objects: inner = " ([its keys](\(articlePath)#\(key.name)))"
            default: inner = ""
            }
            return "| `\(key.name)` | \(key.meaning)\(inner) | \(key.defaultText) |"
        }).joined(separator: "\n")
    }

    /// `ConfigKeys.md`: every section's keys, what each takes, its default and meaning.
    package static var article: String {
        var lines = [
            "# Config keys", "",
            "Every key a config file may hold: what it takes, its default and what it means.", "",
            "## Overview", "",
            "One JSON file (`config/areasd.json` by default, `--config PATH`); paths are relative to its folder, `~/` is the home",
            "folder. A key the daemon does not know is an error that names the nearest known one (`areasd --check-config`",
            "lists every problem of a file). These tables are written from the declarations the daemon reads a file by",
            "(`ConfigKeys`), and a test holds this page and the README's table to them.",
        ]
        for inner in section.withInner {
            lines += ["", "### " + (inner.name.isEmpty ? "The top level" : "`\(inner.name)`"), "",
                      "| key | takes | default | meaning |", "| --- | --- | --- | --- |"] + inner.tableRows
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
