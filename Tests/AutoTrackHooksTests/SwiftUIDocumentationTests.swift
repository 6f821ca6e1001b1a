import AutoTrackEvents
import AutoTrackHooks
import AutoTrackInterception
import AutoTrackReferenceSwiftUI
import AutoTrackReferenceUI
import AutoTrackTesting
import Testing

// The article's view, and what its action counts.
final class TapCounter {
    var taps = 0
}

struct Greeting: View {
    let counter: TapCounter
    var body: some View {
        VStack {
            Text("Hello")
            Button("Continue") { counter.taps += 1 }
                .accessibilityIdentifier("continue")
        }
    }
}

@Suite("The SwiftUI article's example")
struct SwiftUIDocumentationTests {
    @Test("a hosted view's button: one click with its label, path and screen; the action once")
    func example() throws {
        let host = try ReferenceHost()
        let sink = InMemoryInteractionSink()
        _ = try SwiftUITapHook().install(on: host, context: InteractionContext(sink: sink))
        let counter = TapCounter()
        let screen = try host.makeHostingController(rootView: Greeting(counter: counter))
        try host.transitions.setRoot(screen)
        try host.driver.tap("Continue", in: screen.hostingView!)
        let click = sink.interactions[0]
        // click.element?.properties["$element_content"] == "Continue"
        // click.element?.properties["$element_path"] == "Greeting[0]/_UIHostingView[0]/Greeting[0]/VStack[0]/Button[1]"
        // click.screen?.typeName == "Greeting"; counter.taps == 1
        #expect(click.element?.properties["$element_content"] == "Continue")
        #expect(click.element?.properties["$element_path"] == "Greeting[0]/_UIHostingView[0]/Greeting[0]/VStack[0]/Button[1]")
        #expect(click.screen?.typeName == "Greeting")
        #expect(counter.taps == 1)
        #expect(sink.interactions.count == 1)
    }
}
