/// AutoTrackEvents: `AutoTrackVersion`, `Properties` appear in this file's public API.
public import AutoTrackEvents
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device and app a host runs on: the source of the preset properties.
public struct DeviceInfo: Hashable, Sendable {
    /// `$lib`: the SDK platform name.
    public var library: String
    /// `$lib_version`.
    public var libraryVersion: String
    /// `$os`, e.g. `iOS` or `Linux`.
    public var operatingSystem: String
    /// `$os_version`.
    public var operatingSystemVersion: String
    /// `$model`, e.g. `iPhone15,3` or `x86_64`.
    public var model: String
    /// `$manufacturer`.
    public var manufacturer: String
    /// `$app_version`.
    public var appVersion: String
    /// `$screen_width`, in points.
    public var screenWidth: Int
    /// `$screen_height`, in points.
    public var screenHeight: Int
    /// `$timezone_offset`: minutes *behind* UTC, as collectors expect (UTC+8 is -480).
    public var timezoneOffsetMinutes: Int

    /// Creates device information.
    public init(
        library: String = AutoTrackVersion.libraryName, libraryVersion: String = AutoTrackVersion.current,
        operatingSystem: String, operatingSystemVersion: String, model: String, manufacturer: String,
        appVersion: String, screenWidth: Int, screenHeight: Int, timezoneOffsetMinutes: Int
    ) {
        self.library = library
        self.libraryVersion = libraryVersion
        self.operatingSystem = operatingSystem
        self.operatingSystemVersion = operatingSystemVersion
        self.model = model
        self.manufacturer = manufacturer
        self.appVersion = appVersion
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.timezoneOffsetMinutes = timezoneOffsetMinutes
    }

    /// The machine this process runs on: `uname` for the system name, release and
    /// machine, the DMI vendor (Linux) for the manufacturer, the current time zone.
    /// There is no screen on a server, so width and height are 0 unless given.
    public static func current(appVersion: String = "unknown", screenWidth: Int = 0, screenHeight: Int = 0) -> DeviceInfo {
        var names = utsname()
        let system: String
        let release: String
        let machine: String
        if uname(&names) == 0 {
            system = Self.string(from: &names.sysname)
            release = Self.string(from: &names.release)
            machine = Self.string(from: &names.machine)
        } else {
            system = ProcessInfo.processInfo.operatingSystemVersionString
            release = ""
            machine = "unknown"
        }
        let vendor = (try? String(contentsOfFile: "/sys/class/dmi/id/sys_vendor", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return DeviceInfo(
            operatingSystem: system, operatingSystemVersion: release, model: machine,
            manufacturer: vendor.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown",
            appVersion: appVersion, screenWidth: screenWidth, screenHeight: screenHeight,
            timezoneOffsetMinutes: -TimeZone.current.secondsFromGMT() / 60)
    }

    private static func string<T>(from field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The preset properties, in this order: `$lib`, `$lib_version`, `$os`,
    /// `$os_version`, `$model`, `$manufacturer`, `$app_version`, `$screen_width`,
    /// `$screen_height`, `$timezone_offset`.
    public var presetProperties: Properties {
        [
            "$lib": .string(library), "$lib_version": .string(libraryVersion), "$os": .string(operatingSystem),
            "$os_version": .string(operatingSystemVersion), "$model": .string(model), "$manufacturer": .string(manufacturer),
            "$app_version": .string(appVersion), "$screen_width": .integer(Int64(screenWidth)),
            "$screen_height": .integer(Int64(screenHeight)), "$timezone_offset": .integer(Int64(timezoneOffsetMinutes)),
        ]
    }
}
