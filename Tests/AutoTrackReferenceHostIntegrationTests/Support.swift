import AutoTrack
import AutoTrackEvents
import AutoTrackProperties
import Foundation

func temporaryDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fixed device, so events are reproducible.
let testDevice = DeviceInfo(
    library: "Swift", libraryVersion: "0.1.0", operatingSystem: "iOS", operatingSystemVersion: "17.4", model: "iPhone15,3",
    manufacturer: "Apple", appVersion: "1.0", screenWidth: 390, screenHeight: 844, timezoneOffsetMinutes: -480)
