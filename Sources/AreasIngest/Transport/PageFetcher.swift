import AreasCore
import AreasProtocol
import Foundation

/// Fetches every page of one source: the first page for the total, then the rest with a
/// bounded number of requests in flight, retrying transient failures with back-off.
///
/// Each page's records are handed on in page order as soon as the pages before it have been,
/// so that a refresh holds one page's decoded rows at a time, not the whole source's (pages
/// that arrive early wait, at most `concurrency` of them). A fetch either returns, having
/// handed every page of the source, or throws: what was handed before an error is never the
/// whole source, and must be dropped.
package struct PageFetcher: Sendable {
    package let source: SourceConfig
    package let transport: any PageTransport
    private let decoder: any PageDecoder

    package init(source: SourceConfig, transport: any PageTransport) {
        self.source = source
        self.transport = transport
        self.decoder = source.decoder
    }

    /// What a complete fetch came to.
    package struct Fetched: Sendable {
        /// Rows handed on, over every page.
        package var records = 0
        package var pages: Int
        package var retries: Int
        package var totalCount: Int?
    }

    /// A source that could not be fetched completely.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var page: Int
        package var error: UpstreamError
        package var attempts: Int

        package var description: String {
            "page \(page): \(error)" + (attempts > 1 ? " (after \(attempts) attempts)" : "")
        }
    }

    /// Fetches every page, handing each page's rows to `take` in page order. Once the first
    /// page has been taken and it gave the data's total, `expect` hears how many rows the
    /// pages asked for can hold in all (at most `maxPages` of them).
    package func fetchAll(expecting expect: (Int) -> Void = { _ in }, _ take: ([[Field]]) -> Void) async throws(Failure) -> Fetched {
        let first = try await fetch(page: 1)
        var fetched = Fetched(pages: 1, retries: first.retries, totalCount: first.page.totalCount)
        guard !first.page.isPastEnd, !first.page.records.isEmpty else { return fetched }
        fetched.records = first.page.records.count
        take(first.page.records)
        // An empty page ends the data: nothing after it is taken.
        func taking(_ item: (page: UpstreamPage, retries: Int)) -> Bool {
            fetched.retries += item.retries
            if item.page.isPastEnd || item.page.records.isEmpty { return false }
            fetched.pages += 1
            fetched.records += item.page.records.count
            take(item.page.records)
            return true
        }
        if let total = first.page.totalCount {
            // Trust the rows a page really holds, not the size asked for: a gateway may cap it.
            let perPage = Swift.max(1, Swift.min(source.pageSize, first.page.records.count))
            let lastPage = Swift.min((total + perPage - 1) / perPage, source.maxPages)
            expect(Swift.min(total, lastPage * perPage))
            if lastPage > 1 { try await fetchConcurrently(2...lastPage, taking) }
        } else {
            // No total: one page after another until an empty one.
            var number = 2
            while number <= source.maxPages, taking(try await fetch(page: number)) { number += 1 }
        }
        return fetched
    }

    /// Pages in `range` with at most `concurrency` requests in flight, handed to `take` in
    /// order until it declines one.
    private func fetchConcurrently(_ range: ClosedRange<Int>, _ take: ((page: UpstreamPage, retries: Int)) -> Bool) async throws(Failure) {
        typealias Outcome = (number: Int, result: Result<(page: UpstreamPage, retries: Int), Failure>)
        let failure: Failure? = await withTaskGroup(of: Outcome.self) { group in
            var next = range.lowerBound
            var last = range.upperBound
            var running = 0
            // Pages in before an earlier one, waiting for it.
            var early: [Int: (page: UpstreamPage, retries: Int)] = [:]
            var handed = range.lowerBound
            while true {
                while running < source.concurrency && next <= last {
                    let number = next
                    next += 1
                    running += 1
                    group.addTask { (number, await self.fetchResult(page: number)) }
                }
                guard running > 0, let finished = await group.next() else { break }
                running -= 1
                switch finished.result {
                case .success(let item):
                    early[finished.number] = item
                    while handed <= last, let ready = early.removeValue(forKey: handed) {
                        handed += 1
                        if !take(ready) {
                            last = handed - 1
                            early.removeAll()
                        }
                    }
                    // An empty page ends the data: ask for nothing after it.
                    if item.page.isPastEnd || item.page.records.isEmpty { last = Swift.min(last, finished.number) }
                case .failure(let failure):
                    group.cancelAll()
                    return failure
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    private func fetchResult(page number: Int) async -> Result<(page: UpstreamPage, retries: Int), Failure> {
        do {
            return .success(try await fetch(page: number))
        } catch {
            return .failure(error)
        }
    }

    /// One page, retried while the failure is transient and tries remain.
    private func fetch(page number: Int) async throws(Failure) -> (page: UpstreamPage, retries: Int) {
        var attempt = 0
        while true {
            do throws(UpstreamError) {
                return (try await fetchOnce(page: number), attempt)
            } catch {
                attempt += 1
                guard error.isTransient, attempt <= source.retries, !Task.isCancelled else {
                    throw Failure(page: number, error: error, attempts: attempt)
                }
                let delay = Self.retryDelay(first: source.retryDelaySeconds, attempt: attempt)
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
    }

    /// The wait before try `attempt + 1`: `first` doubled for each try before, times a random
    /// factor from 0.5 to 1.5, so sources that failed together do not retry together.
    static func retryDelay(first: Double, attempt: Int, jitter: Double = .random(in: 0.5...1.5)) -> Double {
        first * pow(2, Double(attempt - 1)) * jitter
    }

    /// Decides on the body, not the status: the gateway sends its error envelope with 200.
    private func fetchOnce(page number: Int) async throws(UpstreamError) -> UpstreamPage {
        guard let response = try await transport.fetch(page: number, size: source.pageSize) else {
            return UpstreamPage(records: [], totalCount: nil, isPastEnd: true)
        }
        if (200...299).contains(response.status) {
            return try decoder.decode(response.body)
        }
        do {
            _ = try decoder.decode(response.body)
        } catch .resultCode(let code, let message) {
            throw .resultCode(code, message: message)
        } catch .odcloudCode(let code, let message) {
            throw .odcloudCode(code, message: message)
        } catch {}
        throw .httpStatus(response.status)
    }
}
