import Synchronization

extension MagicSniffer {
    private static let sharedInstance = Mutex<MagicSniffer?>(nil)

    /// The process's sniffer, made on first use with the system's magic database.
    /// Plugins and the validation stage share it; a failure to load is retried on the next call.
    public static func shared() throws -> MagicSniffer {
        try sharedInstance.withLock { instance in
            if let instance { return instance }
            let made = try MagicSniffer()
            instance = made
            return made
        }
    }
}
