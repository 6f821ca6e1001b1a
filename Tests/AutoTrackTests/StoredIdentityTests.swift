import AutoTrack
import AutoTrackEvents
import Foundation
import Testing

/// The identity lives in the store, as the queue and the consent do: a later launch
/// files its events under the same anonymous id and login.
@Suite("The identity across launches")
struct StoredIdentityTests {
    /// One launch on the store in `directory`: opens a tracker, runs `body` with it,
    /// shuts it down.
    @discardableResult
    static func launch<Result>(_ directory: URL, _ body: (Tracker) throws -> Result) throws -> Result {
        let tracker = try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil)))
        defer { tracker.shutdown() }
        return try body(tracker)
    }

    @Test("identify and login are kept for the next launch; logout is too")
    func keptAcrossLaunches() throws {
        let directory = temporaryDirectory("stored-identity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = try Self.launch(directory) { tracker in
            let generated = try #require(tracker.identity.anonymousID)
            try tracker.identify(anonymousID: "anon-XYZ")
            try tracker.login("user-7")
            return generated
        }
        try Self.launch(directory) { tracker in
            #expect(tracker.identity == .loggedIn("user-7", anonymousID: "anon-XYZ"))
            #expect(tracker.identity.anonymousID != generated)
            tracker.logout()
        }
        #expect(try Self.launch(directory) { $0.identity } == .anonymous("anon-XYZ"))
    }

    @Test("a login made before identify keeps its anonymous id when identify comes later")
    func identifyAfterLogin() throws {
        let directory = temporaryDirectory("stored-identity-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.launch(directory) { tracker in
            try tracker.login("user-9")
            try tracker.identify(anonymousID: "device-9")
        }
        #expect(try Self.launch(directory) { $0.identity } == .loggedIn("user-9", anonymousID: "device-9"))
    }

    @Test("denying consent forgets the stored login with the anonymous id")
    func denialForgetsTheLogin() throws {
        let directory = temporaryDirectory("stored-identity-denied")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reset = try Self.launch(directory) { tracker in
            try tracker.login("user-7")
            tracker.setConsent(.denied)
            return try #require(tracker.identity.anonymousID)
        }
        #expect(try Self.launch(directory) { $0.identity } == .anonymous(reset))
    }
}
