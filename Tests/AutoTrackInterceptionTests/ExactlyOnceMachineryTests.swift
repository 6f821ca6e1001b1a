import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackTesting
import Dispatch
import Testing
import AutoTrackLocking

final class Token {}

@Suite("The exactly-once machinery")
struct ExactlyOnceMachineryTests {
    @Test("the re-entrancy guard: nested entry of one key is not outermost; other keys and threads are independent")
    func reentrancy() {
        let guardian = ReentrancyGuard()
        let a = Token(), b = Token()
        let keyA = InteractionKey("select", objects: [a], numbers: [0, 5])
        let keyB = InteractionKey("select", objects: [b], numbers: [0, 5])
        var seen: [Bool] = []
        guardian.withKey(keyA) { outer in
            seen.append(outer)
            guardian.withKey(keyA) { seen.append($0) }
            guardian.withKey(keyB) { seen.append($0) }
            // Another thread (async: `sync` would run the block on this thread).
            let done = DispatchSemaphore(value: 0)
            let otherThreadSaw = Locked(false)
            DispatchQueue.global().async {
                guardian.withKey(keyA) { outermost in otherThreadSaw.withLock { $0 = outermost } }
                done.signal()
            }
            done.wait()
            seen.append(otherThreadSaw.withLock { $0 })
        }
        guardian.withKey(keyA) { seen.append($0) }
        #expect(seen == [true, false, true, true, true])
    }

    @Test("the re-entrancy guard releases its key when the body throws")
    func reentrancyThrowing() {
        struct Failure: Error {}
        let guardian = ReentrancyGuard()
        let key = InteractionKey("k", objects: [])
        #expect(throws: Failure.self) { try guardian.withKey(key) { _ throws(Failure) in throw Failure() } }
        #expect(guardian.withKey(key) { $0 })
    }

    @Test("touch dedupe: one event and element pair records once; another event or element records; nil never")
    func touches() {
        let dedupe = TouchDeduplicator()
        let event = Token(), other = Token(), control = Token(), control2 = Token()
        #expect(dedupe.isFirstDispatch(event: event, element: control))
        #expect(!dedupe.isFirstDispatch(event: event, element: control))
        #expect(dedupe.isFirstDispatch(event: event, element: control2))
        #expect(dedupe.isFirstDispatch(event: other, element: control))
        #expect(!dedupe.isFirstDispatch(event: nil, element: control))
    }

    @Test("touch dedupe holds remembered events: a new event never looks old, however addresses are reused")
    func touchesWeak() {
        let dedupe = TouchDeduplicator(capacity: 2)
        let control = Token()
        for _ in 0..<100 {
            let event = Token()
            #expect(dedupe.isFirstDispatch(event: event, element: control))
        }
    }

    @Test("touch dedupe remembers exactly the last `capacity` pairs")
    func touchesWindow() {
        let dedupe = TouchDeduplicator(capacity: 3)
        let events = (0..<5).map { _ in Token() }
        let control = Token()
        for event in events { #expect(dedupe.isFirstDispatch(event: event, element: control)) }
        // The last three are remembered, the two before them forgotten.
        for event in events[2...] { #expect(!dedupe.isFirstDispatch(event: event, element: control)) }
        #expect(dedupe.isFirstDispatch(event: events[0], element: control))
    }

    @Test("screen exclusions answer for each hierarchy asked about, not for the last one")
    func screenExclusionsPerHierarchy() {
        let sink = InMemoryInteractionSink()
        let context = InteractionContext(sink: sink)
        func view(_ hierarchy: [String]) -> Interaction {
            Interaction(
                point: .screenView, element: nil,
                screen: ScreenSnapshot(typeName: hierarchy[0], typeHierarchy: hierarchy, properties: [:]),
                details: InteractionDetails(), capturedBy: "test")
        }
        let home = ["Home", "UIViewController"]
        let navigation = ["UINavigationController", "UIViewController"]
        let custom = ["AppNavigation", "UINavigationController", "UIViewController"]
        for hierarchy in [home, navigation, home, navigation, custom, home, navigation.map { $0 }] { context.emit(view(hierarchy)) }
        #expect(sink.count == 3)
        #expect(context.diagnostics.filtered == 4)
    }

    @Test("touch dedupe never keeps an element alive")
    func touchesDoNotRetainElements() {
        let dedupe = TouchDeduplicator()
        let event = Token()
        weak var released: Token?
        do {
            let control = Token()
            released = control
            #expect(dedupe.isFirstDispatch(event: event, element: control))
        }
        #expect(released == nil)
    }

    @Test("the action filter", arguments: [
        ("growingHookTouch_onClick:", true), ("_searchFieldBeginEditing", true), ("_searchFieldEndEditing", false),
        ("buyTapped:", false), ("growing:", false),
    ])
    func filter(selector: String, ignored: Bool) {
        #expect(ActionFilter.standard.ignores(selector) == ignored)
    }

    @Test("emit: disabled, filtered and failing sinks are counted, never thrown")
    func emit() {
        let sink = InMemoryInteractionSink()
        let context = InteractionContext(
            sink: sink, exclusions: TrackingExclusions(elementTypes: ["UIStepper"], accessibilityIdentifiers: ["debug"]))
        func click(type: String = "UIButton", id: String? = nil, action: String = "tap:", screen: String = "Home") -> Interaction {
            Interaction(
                point: .sendAction,
                element: ElementSnapshot(typeName: type, typeHierarchy: [type, "UIControl"], role: .button, accessibilityIdentifier: id, properties: [:]),
                screen: ScreenSnapshot(typeName: screen, typeHierarchy: [screen, "UIViewController"], properties: [:]),
                details: InteractionDetails(actionName: action), capturedBy: "test")
        }
        context.emit(click())
        context.emit(click(type: "UIStepper"))
        context.emit(click(id: "debug"))
        context.emit(click(action: "_private"))
        context.emit(click(screen: "UINavigationController"))
        context.isEnabled = false
        context.emit(click())
        context.isEnabled = true
        #expect(sink.count == 1)
        #expect(context.diagnostics.delivered == 1)
        #expect(context.diagnostics.filtered == 4)
        #expect(context.diagnostics.disabledSkips == 1)
    }

    @Test("a hook handle uninstalls once, and reports its state")
    func handle() throws {
        let calls = Locked(0)
        let handle = HookHandle(name: "h") { () throws(HookError) -> HookState in
            calls.withLock { $0 += 1 }
            return .uninstalled
        }
        #expect(handle.state == .installed)
        try handle.uninstall()
        try handle.uninstall()
        #expect(handle.state == .uninstalled)
        #expect(calls.withLock { $0 } == 1)
    }
}
