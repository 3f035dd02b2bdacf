import AreasCore

/// One decoded page: its records, verbatim, and the counts the service reported.
package struct UpstreamPage: Sendable, Equatable {
    /// Each record's columns in the order the service sent them.
    package var records: [[Field]]
    /// Rows in the whole data set, when the page says.
    package var totalCount: Int?
    /// True when the service said "no data" (data.go.kr code 03): past the last page.
    package var isPastEnd: Bool

    package init(records: [[Field]], totalCount: Int?, isPastEnd: Bool = false) {
        self.records = records
        self.totalCount = totalCount
        self.isPastEnd = isPastEnd
    }
}

/// Turns a response body into a page, or says exactly why it cannot.
package protocol PageDecoder: Sendable {
    func decode(_ body: [UInt8]) throws(UpstreamError) -> UpstreamPage
}
