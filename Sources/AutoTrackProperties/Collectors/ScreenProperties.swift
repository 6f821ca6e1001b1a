/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents

/// `$screen_name`, `$title`, `$url`, `$referrer` and a screen's own extra properties.
public enum ScreenProperties {
    /// The properties of `screen`, in this order: `$screen_name` (its tracking page
    /// name when it gives a non-empty one, else the app's type name),
    /// `$title` (the screen's custom tracking title, else its navigation title, else
    /// its title; omitted when none), `$url` (from its tracking information),
    /// `$referrer` (the previous screen's URL, when given), then its extra properties.
    public static func collect(for screen: any ScreenNode, referrer: String? = nil) -> Properties {
        var properties = Properties()
        properties.reserveCapacity(4)
        collect(for: screen, referrer: referrer, into: &properties)
        return properties
    }

    /// Sets the screen properties in `properties` (replacing values of the same keys).
    static func collect(for screen: any ScreenNode, referrer: String?, into properties: inout Properties) {
        let tracking = screen.screenTracking
        let name = tracking?.screenName.flatMap { $0.isEmpty ? nil : $0 } ?? screen.typeName
        properties["$screen_name"] = .string(name)
        if let title = title(of: screen, tracking: tracking) { properties["$title"] = .string(title) }
        if let url = tracking?.url { properties["$url"] = .string(url) }
        if let referrer { properties["$referrer"] = .string(referrer) }
        if let extra = tracking?.extraProperties { properties.merge(extra) }
    }

    /// The title used for `$title`: custom tracking title, else navigation title, else
    /// title; empty strings count as absent.
    public static func title(of screen: any ScreenNode) -> String? {
        title(of: screen, tracking: screen.screenTracking)
    }

    /// ``title(of:)`` with the screen's tracking settings read already; each
    /// candidate is asked for only when the one before is absent.
    private static func title(of screen: any ScreenNode, tracking: ScreenTracking?) -> String? {
        if let custom = tracking?.customTitle, !custom.isEmpty { return custom }
        if let navigation = screen.navigationTitle, !navigation.isEmpty { return navigation }
        if let title = screen.title, !title.isEmpty { return title }
        return nil
    }
}
