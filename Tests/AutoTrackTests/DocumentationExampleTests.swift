import AutoTrack
import AutoTrackTesting
import Testing

@Suite("Documentation examples: the in-memory tracker")
struct InMemoryTrackerExampleTests {
    @Test("the overview's example runs as printed, and what it tracks shows in eventNames")
    func overviewExample() throws {
        let memory = try InMemoryTracker()
        defer { memory.close() }
        let context = memory.tracker.makeInteractionContext()
        // … report interactions through `context`, track events …
        memory.tracker.waitUntilQueued()
        print(memory.eventNames)
        withExtendedLifetime(context) {}
        try memory.tracker.track("Buy")
        memory.tracker.waitUntilQueued()
        #expect(memory.eventNames.last == "Buy")
    }
}
