extension SearchIndex {
    /// Lays the index out: its keys, their runs' starts and the postings.
    package func write(to writer: inout some FlatLayoutWriter) {
        writer.column(keys)
        writer.column(starts)
        writer.column(postings)
    }

    /// Reads an index laid out by `write(to:)`, in place, checking that the keys ascend and
    /// each begins with a letter, that the runs cover the postings in order, and that each
    /// run names positions below `count`, ascending. (Whether a posting's area is served is
    /// asked of every candidate when a search reads it.)
    package init(reading reader: inout some FlatLayoutReader, count: Int) throws(FlatLayoutError) {
        let keys = try reader.column(of: UInt64.self)
        let starts = try reader.column("the search index's runs", of: UInt32.self, count: keys.count + 1)
        let postings = try reader.column(of: UInt32.self)
        guard starts[0] == 0, Int(starts[keys.count]) == postings.count else {
            throw FlatLayoutError("the search index's runs do not cover its \(postings.count) postings")
        }
        for i in 0..<keys.count {
            guard keys[i] >> 32 != 0, i == 0 || keys[i - 1] < keys[i] else { throw FlatLayoutError("search key \(i) is not a letter pair after the one before") }
            let (first, end) = (Int(starts[i]), Int(starts[i + 1]))
            guard first < end, end <= postings.count else { throw FlatLayoutError("search key \(i)'s run from \(first) to \(end) is empty, backwards or past the postings") }
            let run = first..<end
            var previous = -1
            for at in run {
                let position = Int(postings[at])
                guard position > previous, position < count else { throw FlatLayoutError("search key \(i) lists area \(position) out of order or past the \(count) records") }
                previous = position
            }
        }
        self.init(keys: keys, starts: starts, postings: postings)
    }
}
