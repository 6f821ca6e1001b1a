import AutoTrackEvents
import AutoTrackLocking
/// Foundation: `URL` appears in this file's public API.
public import Foundation

// MARK: Installs, deep links and notifications

extension Tracker {
    /// The `utm_*` query parameters a deep link's campaign is read from, and the
    /// properties they become.
    static let campaignParameters = [
        ("utm_source", "$utm_source"), ("utm_medium", "$utm_medium"), ("utm_term", "$utm_term"),
        ("utm_content", "$utm_content"), ("utm_campaign", "$utm_campaign"),
    ]

    /// Tracks `$AppDeeplinkLaunch` for a link the app was opened with (a host calls it
    /// from `application(_:open:options:)` or its scene's equivalent): `$deeplink_url`
    /// and the campaign's `$utm_source`, `$utm_medium`, `$utm_term`, `$utm_content` and
    /// `$utm_campaign` from its query. Recorded when the settings include
    /// ``AutomaticEventTypes/appDeeplinkLaunch`` (they do by default).
    public func trackDeepLink(_ url: URL) {
        trackDeepLink(url.absoluteString)
    }

    /// `trackDeepLink(_:)` for a link as text (a hook reads `NSURL.absoluteString`):
    /// text that is no URL is kept as `$deeplink_url`, with no campaign.
    func trackDeepLink(_ link: String) {
        guard state.withLock({ $0.recordsAutomatic(.appDeeplinkLaunch) }) else { return }
        var properties: Properties = ["$deeplink_url": .string(link)]
        let items = URLComponents(string: link)?.queryItems ?? []
        for (parameter, property) in Self.campaignParameters {
            if let value = items.first(where: { $0.name == parameter })?.value, !value.isEmpty { properties[property] = .string(value) }
        }
        submit(Submission(now: configuration.clock, context: callContext(), content: .lifecycle(.appDeeplinkLaunch, properties)))
    }

    /// Tracks `$AppPushClick` for a notification the user opened the app from (a host
    /// calls it from its notification delegate's response): `$app_push_msg_title`,
    /// `$app_push_msg_content` and the sending service, when known. Recorded when the
    /// settings include ``AutomaticEventTypes/appPushClick`` (they do by default).
    public func trackPushOpen(title: String?, content: String?, service: String? = nil) {
        guard state.withLock({ $0.recordsAutomatic(.appPushClick) }) else { return }
        var properties: Properties = [:]
        if let title { properties["$app_push_msg_title"] = .string(title) }
        if let content { properties["$app_push_msg_content"] = .string(content) }
        if let service { properties["$app_push_service_name"] = .string(service) }
        submit(Submission(now: configuration.clock, context: callContext(), content: .lifecycle(.appPushClick, properties)))
    }

    /// Tracks `$AppInstall` when this is the first launch of the install — no marker
    /// in the store yet — and leaves the marker. An app deleted and installed again
    /// starts with an empty store, so it is a new install; a store that cannot be
    /// written tracks it once per run at most.
    func trackInstallIfFirstLaunch(at time: Timestamp, monotonic: MonotonicInstant) {
        let marker = configuration.storeDirectory.appendingPathComponent("installed").path
        guard state.withLock({ $0.settings.eventTypes.contains(.appInstall) && !$0.installTracked }),
              PrivateFiles.read(marker) == nil else { return }
        state.withLock { $0.installTracked = true }
        _ = PrivateFiles.createDirectory(configuration.storeDirectory.path)
        _ = PrivateFiles.write(Array("\(time.millisecondsSince1970)".utf8), to: marker)
        submit(Submission(time: time, monotonic: monotonic, context: callContext(), content: .lifecycle(.appInstall, [:])))
    }
}
