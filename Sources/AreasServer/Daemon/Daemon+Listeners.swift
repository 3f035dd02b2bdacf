import AreasIngest
import AreasProtocol
import AreasSystem

extension Daemon {
    /// Listens on a Unix socket at `path` (its folder checked, a stale socket replaced), with
    /// `mode` and `group`; the file is remembered by identity, so only it is removed at exit.
    func bindUnixSocket(_ path: String, mode: UInt32, group: String?, groupKey: String) throws -> FileDescriptor {
        let madeFolder = try SocketPath.prepare(path)
        let fd = try Sockets.listenUnix(path: path)
        if let identity = SocketPath.identity(of: path) { running.withLock { $0.boundSockets.append((path, identity, madeFolder)) } }
        do {
            try FileSystem.setPermissions(path, mode)
        } catch {
            logger.warning("chmod \(String(mode, radix: 8)) \(path): \(error.reason)")
        }
        if let group {
            do {
                try FileSystem.setGroup(path, named: group)
            } catch where error.call == "getgrnam" {
                logger.warning("\(groupKey) '\(group)' does not exist; \(path) keeps its default group")
            } catch {
                logger.warning("chgrp \(group) \(path): \(error.reason)")
            }
        }
        return fd
    }

    /// The HTTP front door's listeners, when the config has `http`.
    func httpListeners(_ config: HTTPConfig?, limits: ConnectionServer.Limits) throws -> [ConnectionServer.Listener] {
        guard let config else { return [] }
        var parserLimits = HTTPRequestParser.Limits()
        parserLimits.maxHeadBytes = Swift.min(parserLimits.maxHeadBytes, limits.maxLineBytes)
        let frontDoor = HTTPFrontDoor(allowOrigin: config.allowOrigin.isEmpty ? nil : config.allowOrigin,
                                      maxAgeSeconds: config.maxAgeSeconds, parserLimits: parserLimits, map: config)
        var listeners: [ConnectionServer.Listener] = []
        if let path = config.socket {
            let fd = try bindUnixSocket(path, mode: config.socketMode, group: config.socketGroup, groupKey: "http.socketGroup")
            listeners.append(.init(fd, .http(frontDoor)))
            logger.info("HTTP on \(path)")
        }
        if let address = config.listen {
            let (fd, port) = try Sockets.listenTCP(address)
            listeners.append(.init(fd, .http(frontDoor)))
            let host = (try? TCPAddress.parse(address).host) ?? address
            let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            if TCPAddress.isLoopback(host) {
                logger.info("HTTP on \(shown)")
            } else {
                logger.warning("HTTP on \(shown), reachable from other machines: put TLS and rate limits in front of it (nginx)")
            }
        }
        if !MapPage.hasLeaflet(config) {
            logger.warning("http.assets \(config.assets) has no leaflet/leaflet.js: the map page (/map) says it cannot draw; apt-get install libjs-leaflet (config/install.sh does), or set http.assets to a folder that has it")
        }
        return listeners
    }
}
