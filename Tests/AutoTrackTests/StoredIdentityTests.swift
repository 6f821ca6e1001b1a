import AutoTrack
import AutoTrackEvents
import Foundation
import Testing

/// The identity lives in the store, as the queue and the consent do: a later launch
/// files its events under the same anonymous id and login.
@Suite("The identity across launches")
struct StoredIdentityTests {
    static func open(_ directory: URL) throws -> Tracker {
        try Tracker(configuration: TrackerConfiguration(
            storeDirectory: directory, device: testDevice, flushPolicy: FlushPolicy(batchSize: 1000, interval: nil)))
    }

    @Test("identify and login are kept for the next launch; logout is too")
    func keptAcrossLaunches() throws {
        let directory = temporaryDirectory("stored-identity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.open(directory)
        let generated = try #require(first.identity.anonymousID)
        try first.identify(anonymousID: "anon-XYZ")
        try first.login("user-7")
        first.shutdown()

        let second = try Self.open(directory)
        #expect(second.identity == .loggedIn("user-7", anonymousID: "anon-XYZ"))
        #expect(second.identity.anonymousID != generated)
        second.logout()
        second.shutdown()

        let third = try Self.open(directory)
        #expect(third.identity == .anonymous("anon-XYZ"))
        third.shutdown()
    }

    @Test("a login made before identify keeps its anonymous id when identify comes later")
    func identifyAfterLogin() throws {
        let directory = temporaryDirectory("stored-identity-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.open(directory)
        try first.login("user-9")
        try first.identify(anonymousID: "device-9")
        first.shutdown()
        let second = try Self.open(directory)
        #expect(second.identity == .loggedIn("user-9", anonymousID: "device-9"))
        second.shutdown()
    }

    @Test("denying consent forgets the stored login with the anonymous id")
    func denialForgetsTheLogin() throws {
        let directory = temporaryDirectory("stored-identity-denied")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.open(directory)
        try first.login("user-7")
        first.setConsent(.denied)
        let reset = try #require(first.identity.anonymousID)
        first.shutdown()
        let second = try Self.open(directory)
        #expect(second.identity == .anonymous(reset))
        second.shutdown()
    }
}
