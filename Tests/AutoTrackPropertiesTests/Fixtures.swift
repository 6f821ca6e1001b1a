import AutoTrackProperties

enum Fixtures {
    /// The tutorials' simulator: iOS 15.2 on x86_64, app 1.0.
    static let device = DeviceInfo(
        library: "iOS", libraryVersion: "1.0.0", operatingSystem: "iOS", operatingSystemVersion: "15.2",
        model: "x86_64", manufacturer: "Apple", appVersion: "1.0", screenWidth: 390, screenHeight: 844,
        timezoneOffsetMinutes: -480)
}
