/// Whether a database makes the host's disk sync at each commit.
///
/// The emulated phones' databases (accounts, journals, caches) live in a run's private temporary folder and
/// are removed with it: what they must survive is the failure the scenario emulates (the app process dying,
/// the phone rebooting), not a power loss of the machine running Fieldtest. Syncing the host disk at every
/// commit made a run of the bundled suite wait on about 12,000 `fdatasync` calls.
public enum HostDurability: Sendable, Equatable {
    /// The store's own setting: a commit also survives a power loss of the host (SQLite syncs the disk).
    case durable
    /// `PRAGMA synchronous = OFF`: a commit survives the process dying, since the operating system still
    /// holds the written pages, but not a power loss of the host. For an emulated phone's stores.
    case emulated

    /// The SQLite statement that sets this durability on a connection, or nil to keep the store's setting.
    public var sqlitePragma: String? {
        switch self {
        case .durable: nil
        case .emulated: "PRAGMA synchronous = OFF"
        }
    }
}
