import AutoTrackLocking

// MARK: Remote settings

extension Tracker {
    /// Fetches the remote settings document now and applies it when it changed,
    /// waiting for the outcome (the next scheduled fetch moves on from now).
    @discardableResult
    public func refreshRemoteSettings() -> RemoteSettingsOutcome {
        guard let fetcher = remoteSettingsFetcher.withLock({ $0 }) else { return .notConfigured }
        return fetcher.refresh()
    }

    /// Starts fetching from ``TrackerConfiguration/remoteSettings``, after applying the
    /// document kept from the last run.
    func startRemoteSettings() {
        guard let source = configuration.remoteSettings else { return }
        let fetcher = RemoteSettingsFetcher(source: source, storeDirectory: configuration.storeDirectory) { [weak self] bytes throws(AutoTrackSettingsError) in
            guard let self else { return [] }
            return try loadAutoTrackSettings(json: bytes)
        }
        remoteSettingsFetcher.withLock { $0 = fetcher }
        fetcher.start()
    }
}
