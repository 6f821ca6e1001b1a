import AutoTrackProperties
import AutoTrackReferenceUI

/// A control that runs an action when tapped. Its label's text is its content.
public struct Button<Label: View>: View, PrimitiveView {
    let label: Label
    let action: () -> Void

    /// A button that runs `action`, labelled by `label`.
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    func nodes(in context: RenderContext) -> [RenderNode] {
        [Renderer.activatable(typeName: "Button", label: label, response: .button, in: context, perform: action)]
    }
}

extension Button where Label == Text {
    /// A button titled `title` that runs `action`.
    public init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

/// A control that shows `destination` when tapped: pushed on the navigation stack the
/// hosting controller is in.
public struct NavigationLink<Label: View, Destination: View>: View, PrimitiveView {
    let label: Label
    let destination: Destination

    /// A link to `destination`, labelled by `label`.
    public init(destination: Destination, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let destination = self.destination
        let navigate = context.navigate
        return [Renderer.activatable(typeName: "NavigationLink", label: label, response: .link, in: context) { navigate(destination) }]
    }
}

extension NavigationLink where Label == Text {
    /// A link titled `title` to `destination`.
    public init(_ title: String, destination: Destination) {
        self.init(destination: destination) { Text(title) }
    }
}

/// A switch bound to a Boolean value: a tap flips it.
public struct Toggle<Label: View>: View, PrimitiveView {
    let label: Label
    let isOn: Binding<Bool>

    /// A toggle of `isOn`, labelled by `label`.
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.label = label()
    }

    func nodes(in context: RenderContext) -> [RenderNode] {
        let isOn = self.isOn
        let node = Renderer.activatable(typeName: "Toggle", label: label, response: .toggle, in: context) {
            isOn.wrappedValue.toggle()
        }
        node.isOn = isOn.wrappedValue
        return [node]
    }
}

extension Toggle where Label == Text {
    /// A toggle titled `title` of `isOn`.
    public init(_ title: String, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(title) }
    }
}

/// A value owned elsewhere, read and written through closures — how a toggle changes
/// the app's state.
public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// The value.
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}

extension Renderer {
    /// A node that answers taps with `response`, its label's text and image drawn in.
    static func activatable(
        typeName: String, label: some View, response: HostedElement.TapResponse, in context: RenderContext, perform: @escaping () -> Void
    ) -> RenderNode {
        let drawn = Renderer.nodes(of: label, in: context.below).flatMap(\.subtree)
        let node = RenderNode(typeName: typeName, role: response == .toggle ? .toggle : .button, identity: context.identity, height: 44)
        node.text = drawn.compactMap(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        if node.text?.isEmpty == true { node.text = nil }
        node.imageName = drawn.lazy.compactMap(\.imageName).first
        node.tapResponse = response
        node.perform = perform
        return node
    }
}
