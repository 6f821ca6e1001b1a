/// Who an event is about.
///
/// `distinctID` is the identifier the collector files the event under: the login id
/// once the user has logged in, the anonymous (device) id before. Both underlying ids
/// travel with the event so that the collector can stitch anonymous and logged-in
/// activity together.
public struct Identity: Hashable, Sendable {
    /// The identifier the event is filed under (`distinct_id`).
    public var distinctID: String
    /// The device's anonymous identifier (`anonymous_id`), if known.
    public var anonymousID: String?
    /// The logged-in user's identifier (`login_id`), if logged in.
    public var loginID: String?

    /// Creates an identity with every field given.
    public init(distinctID: String, anonymousID: String? = nil, loginID: String? = nil) {
        self.distinctID = distinctID
        self.anonymousID = anonymousID
        self.loginID = loginID
    }

    /// An anonymous identity: the event is filed under the anonymous id.
    public static func anonymous(_ anonymousID: String) -> Identity {
        Identity(distinctID: anonymousID, anonymousID: anonymousID, loginID: nil)
    }

    /// A logged-in identity: filed under the login id, keeping the anonymous id.
    public static func loggedIn(_ loginID: String, anonymousID: String?) -> Identity {
        Identity(distinctID: loginID, anonymousID: anonymousID, loginID: loginID)
    }
}
