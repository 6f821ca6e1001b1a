import AutoTrackEvents
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import Testing

@Suite("Controls: target-actions, the application, the responder chain, closure actions")
struct ControlTests {
    let app: SampleApp
    init() throws {
        app = try SampleApp()
        try app.launch()
        app.log.clear()
    }

    @Test("making an object of a class the host lacks, or of a class of the wrong kind, is a typed error, not a trap")
    func makingUnknownClassesThrows() throws {
        let host = app.host
        #expect(throws: RuntimeError.classNotFound("NoSuchButton")) { try host.makeControl("NoSuchButton") }
        #expect(throws: RuntimeError.classNotFound("NoSuchController")) { try host.makeController("NoSuchController") }
        #expect(throws: RuntimeError.classNotFound("NoSuchCell")) { try host.makeCell("NoSuchCell") }
        #expect(throws: RuntimeError.classNotFound("NoSuchView")) { try host.makeLabel("x", className: "NoSuchView") }
        let wrongKind = #expect(throws: RuntimeError.self) { try host.makeControl("UITextView") }
        guard case .typeMismatch? = wrongKind else { Issue.record("expected a type mismatch, got \(String(describing: wrongKind))"); return }
        #expect(throws: RuntimeError.self) { try host.makeList("UIButton") }
        #expect(throws: RuntimeError.self) { try host.makeView("UIViewController") }
    }

    @Test("a tap on a control with 3 touch-up-inside targets calls sendAction:to:forEvent: 3 times with one event, each through UIApplication")
    func threeTargets() throws {
        let host = app.host
        let button = try host.makeControl("UIButton", title: "Go")
        app.listScreen.view.addSubview(button)
        let targets = try (0..<3).map { _ in try host.runtime.allocate(app.listScreen.realClass) }
        for target in targets { try button.addTarget(target, action: "buyTapped:", for: .touchUpInside) }
        let controlSends = CallCounter("sendAction:to:forEvent:", in: try host.lookUpClass("UIControl"), runtime: host.runtime)
        let applicationSends = CallCounter("sendAction:to:from:forEvent:", in: try host.lookUpClass("UIApplication"), runtime: host.runtime)
        try host.driver.tap(button)
        #expect(controlSends.count == 3)
        #expect(applicationSends.count == 3)
        #expect(app.log.count(.buy) == 3)
        let events = controlSends.arguments.map { $0[2].object.map(ObjectIdentifier.init) }
        #expect(Set(events).count == 1 && events[0] != nil, "the same UIEvent for every pair")
    }

    @Test("a nil target walks the responder chain from the button up to the view controller")
    func nilTargetWalksResponderChain() throws {
        let cell = try #require(app.table.cell(at: IndexPath(row: 0, section: 0)))
        let button = try app.host.makeControl("UIButton", title: "Chain")
        cell.contentView.addSubview(button)
        try button.addTarget(nil, action: "editTapped:", for: .touchUpInside)
        try app.host.driver.tap(button)
        #expect(app.log.count(.edit) == 1)
    }

    @Test("a switch flips before value-changed is sent; touch-down and touch-up-inside are sent too")
    func switchFlipsFirst() throws {
        let host = app.host
        try host.driver.tap(app.notificationsSwitch)
        #expect(app.notificationsSwitch.switchIsOn)
        let seen = Transcript()
        let sw = app.notificationsSwitch!
        try sw.addAction(for: .valueChanged) { _ in seen.record("value \(sw.switchIsOn)") }
        try sw.addAction(for: .touchDown) { _ in seen.record("down \(sw.switchIsOn)") }
        try sw.addAction(for: .touchUpInside) { _ in seen.record("up") }
        try host.driver.tap(sw)
        #expect(seen.all == ["down true", "value false", "up"])
        #expect(app.log.count(.switchChanged) == 2)
    }

    @Test("text fields send editing-began, one editing-changed per character, editing-ended")
    func textFieldEditing() throws {
        let seen = Transcript()
        let field = app.nameField!
        try field.addAction(for: .editingDidBegin) { _ in seen.record("begin") }
        try field.addAction(for: .editingDidEnd) { _ in seen.record("end") }
        try app.host.driver.type("abc", into: field)
        #expect(app.log.count(.nameChanged) == 3)
        #expect(seen.all == ["begin", "end"])
        #expect(field.text == "abc")
    }

    @Test("closure actions run through sendAction: and never through sendAction:to:forEvent:")
    func closureActions() throws {
        let host = app.host
        let button = try host.makeControl("UIButton", title: "Closure")
        let ran = Transcript()
        try button.addAction(for: .touchUpInside) { sender in ran.record(sender === button ? "ran" : "wrong sender") }
        let targetActionSends = CallCounter("sendAction:to:forEvent:", in: try host.lookUpClass("UIControl"), runtime: host.runtime)
        let closureSends = CallCounter("sendAction:", in: try host.lookUpClass("UIControl"), runtime: host.runtime)
        try host.driver.tap(button)
        #expect(ran.all == ["ran"])
        #expect(targetActionSends.count == 0)
        #expect(closureSends.count == 1)
    }

    @Test("sendActionsForControlEvents: goes through sendAction:to:forEvent: with a nil event")
    func programmaticSend() throws {
        let host = app.host
        let sends = CallCounter("sendAction:to:forEvent:", in: try host.lookUpClass("UIControl"), runtime: host.runtime)
        try host.runtime.call(app.themeSegments, "sendActionsForControlEvents:", ControlEvents.valueChanged.rawValue)
        #expect(sends.count == 1)
        if case .object(nil) = sends.arguments[0][2] {} else { Issue.record("expected a nil event") }
        #expect(app.log.count(.themeChanged) == 1)
    }

    @Test("a released target is skipped, as UIKit's weak target")
    func releasedTarget() throws {
        let host = app.host
        let button = try host.makeControl("UIButton")
        do {
            let target = try host.runtime.allocate(app.listScreen.realClass)
            try button.addTarget(target, action: "buyTapped:", for: .touchUpInside)
        }
        try host.driver.tap(button)
        #expect(app.log.count(.buy) == 0)
    }
}
