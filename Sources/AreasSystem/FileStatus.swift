import Glibc

/// What `stat` says of a file.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown
    }

    package var kind: Kind
    package var size: Int
    /// Seconds since 1970.
    package var modified: Double
    /// The same, as whole nanoseconds: exact, for telling two writes in one second apart.
    package var modifiedNanoseconds: Int
    package var owner: uid_t
    package var group: gid_t
    package var permissions: mode_t
    /// Device and inode: the file's identity, whatever its name.
    package var device: UInt64
    package var inode: UInt64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .unknown
        }
        size = Int(info.st_size)
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        modifiedNanoseconds = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        owner = info.st_uid
        group = info.st_gid
        permissions = info.st_mode & 0o7777
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
