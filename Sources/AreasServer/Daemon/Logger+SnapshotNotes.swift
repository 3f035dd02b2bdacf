import AreasIngest

extension Logger {
    /// What the snapshot store did, each at its level.
    package func log(_ notes: [SnapshotStore.Note]) {
        for note in notes {
            switch note {
            case .info(let message): info(message)
            case .warning(let message): warning(message)
            case .error(let message): error(message)
            }
        }
    }
}
