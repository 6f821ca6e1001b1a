import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceSwiftUI
import AutoTrackReferenceUI
import Testing

/// The SwiftUI model's rendering: identities, layout and what a tap activates.
@Suite("SwiftUI model")
struct SwiftUIModelTests {
    final class Model {
        var flag = true
        var items = ["a", "b", "c"]
        var explicitID = 1
        var taps: [String] = []
    }

    struct Screen: View {
        let model: Model
        var body: some View {
            VStack {
                Text("title")
                if model.flag { Button("Shown") { model.taps.append("shown") } } else { Text("hidden") }
                Group {
                    Button("Grouped") { model.taps.append("grouped") }
                }
                ForEach(model.items, id: \.self) { item in Button(item) { model.taps.append(item) } }
                Button("Explicit") { model.taps.append("explicit") }.id(model.explicitID)
                HStack {
                    Text("left").onTapGesture { model.taps.append("left") }
                    Text("right")
                }
            }
        }
    }

    func render(_ model: Model) throws -> (ReferenceHost, HostingViewObject) {
        let host = try ReferenceHost()
        let controller = try host.makeHostingController(rootView: Screen(model: model))
        try host.transitions.setRoot(controller)
        return (host, try #require(controller.hostingView))
    }

    func identity(_ view: HostingViewObject, _ text: String) -> String? {
        view.allElements.first { $0.ownText == text }?.siblingIdentity
    }

    @Test("identities: builder positions, branches, group transparency, ForEach ids, explicit ids")
    func identities() throws {
        let model = Model()
        let (_, view) = try render(model)
        #expect(identity(view, "title") == "0")
        #expect(identity(view, "Shown") == "1,if")
        #expect(identity(view, "Grouped") == "2", "a group draws no node of its own")
        #expect(identity(view, "b") == "3,id:b")
        #expect(identity(view, "Explicit") == "4,id:1", "an explicit id is added to the position")
        model.flag = false
        view.render()
        #expect(identity(view, "hidden") == "1,else")
    }

    @Test("an explicit id that changes makes a new element; one that stays keeps the object")
    func explicitIdentity() throws {
        let model = Model()
        let (_, view) = try render(model)
        let before = try #require(view.allElements.first { $0.ownText == "Explicit" })
        view.render()
        #expect(view.allElements.first { $0.ownText == "Explicit" } === before)
        model.explicitID = 2
        view.render()
        #expect(view.allElements.first { $0.ownText == "Explicit" } !== before)
    }

    @Test("a tap activates the element under it or the nearest above that answers taps; text and stacks activate nothing")
    func tapTargets() throws {
        let model = Model()
        let (host, view) = try render(model)
        try host.driver.tap("left", in: view)
        try host.driver.tap("right", in: view)
        try host.driver.tap("title", in: view)
        try host.driver.tap("b", in: view)
        #expect(model.taps == ["left", "b"])
        let right = try #require(view.allElements.first { $0.ownText == "right" })
        #expect(view.tapTarget(at: right.frameInHostingView.center) == nil)
    }

    @Test("duplicate ForEach ids still give distinct identities, in order; separators in ids are escaped; several top views stack")
    func duplicatesAndEscaping() throws {
        let host = try ReferenceHost()
        // A ForEach as the root view: several top views.
        let controller = try host.makeHostingController(rootView: ForEach(["same", "same", "a/b]c"], id: \.self) { item in Button(item) {} })
        try host.transitions.setRoot(controller)
        let view = try #require(controller.hostingView)
        #expect(view.elements.map(\.siblingIdentity) == ["id:same", "id:same,#2", "id:a%2Fb%5Dc"])
        #expect(view.elements.map(\.frame.origin.y) == [0, 44, 88])
        let first = view.elements[0], second = view.elements[1]
        view.render()
        #expect(view.elements[0] === first && view.elements[1] === second)
    }

    @Test("an element no longer drawn is detached: tapping it is an error, not a tap on what is there now")
    func droppedElementsDetach() throws {
        let model = Model()
        let (host, view) = try render(model)
        let shown = try #require(view.allElements.first { $0.ownText == "Shown" })
        model.flag = false
        view.render()
        #expect(shown.hostingView == nil && shown.parentElement == nil)
        #expect(throws: (any Error).self) { try host.driver.tap(shown) }
        #expect(model.taps.isEmpty)
    }

    @Test("HStack children share the width; a VStack stacks its children")
    func layout() throws {
        let (_, view) = try render(Model())
        let left = try #require(view.allElements.first { $0.ownText == "left" }).frameInHostingView
        let right = try #require(view.allElements.first { $0.ownText == "right" }).frameInHostingView
        #expect(left.origin.y == right.origin.y && left.width == right.width && right.origin.x == left.origin.x + left.width)
        let title = try #require(view.allElements.first { $0.ownText == "title" }).frameInHostingView
        #expect(title.origin.y < left.origin.y)
    }
}
