import Foundation

/// Serves pages recorded from an upstream service, one file per page, in page order.
///
/// `URLSession` on Linux has no `file://` support, and recorded pages need no HTTP anyway: page N
/// is the N-th file of the directory, ordered by the number in its name (`page-2.xml` before
/// `page-10.xml`). The recorded page size is whatever was recorded; `size` is ignored.
package struct RecordedPageTransport: PageTransport {
    package let directory: String
    private let files: [String]

    package init(directory: String) throws(UpstreamError) {
        self.directory = directory
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else {
            throw .transport("cannot list recorded pages in \(directory): No such file or directory")
        }
        guard isFolder.boolValue else { throw .transport("cannot list recorded pages in \(directory): not a folder") }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw .transport("cannot list recorded pages in \(directory): Permission denied")
        }
        files = names.filter { !$0.hasPrefix(".") }.sorted { a, b in
            let (na, nb) = (Self.number(in: a), Self.number(in: b))
            return na != nb ? na < nb : a < b
        }
    }


    /// The first page's file, for reading the names of the columns the pages have.
    package var firstPage: String? { files.first.map { (directory as NSString).appendingPathComponent($0) } }

    package func fetch(page number: Int, size: Int) async throws(UpstreamError) -> PageResponse? {
        guard number >= 1, number <= files.count else { return nil }
        let path = (directory as NSString).appendingPathComponent(files[number - 1])
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .transport("cannot read recorded page \(path)")
        }
        return PageResponse(status: 200, body: [UInt8](data))
    }

    private static func number(in name: String) -> Int {
        Int(name.filter(\.isNumber).prefix(9)) ?? Int.max
    }
}
