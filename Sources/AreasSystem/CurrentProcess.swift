import Glibc

/// Who and what this process is, as the kernel says.
package enum CurrentProcess {
    package static var id: Int32 { getpid() }
    /// The real user id: the daemon's own user, who may ask what admins may.
    package static var userID: UInt32 { getuid() }
    /// The size of a memory page, which `/proc` counts resident memory in.
    package static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
}
