import Glibc

/// The process's limit on open descriptors (`RLIMIT_NOFILE`).
package enum DescriptorLimit {
    /// The soft limit, raised to the hard limit when it may be: a daemon that keeps a
    /// descriptor per connection wants all it is allowed. Nil when it cannot be read.
    package static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest value: no limit
    }
}
