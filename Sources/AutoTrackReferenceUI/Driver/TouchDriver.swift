/// AutoTrackRuntime: `RuntimeError` appears in this file's public API.
public import AutoTrackRuntime
import AutoTrackProperties

/// Performs user actions the way UIKit delivers them, by element: every action goes
/// through the same runtime messages UIKit sends, so hooks see what they would see on
/// a device.
public struct TouchDriver {
    unowned let host: ReferenceHost

    var runtime: Runtime { host.runtime }

    func makeEvent() throws(RuntimeError) -> EventObject {
        guard let cls = runtime.lookUpClass("UIEvent"), let event = try host.make(cls) as? EventObject else {
            throw .classNotFound("UIEvent")
        }
        return event
    }

    /// A tap on a control: one touch sequence (one `UIEvent`) sending touch-down, then
    /// — for a switch after flipping it — value-changed, then touch-up-inside. Each
    /// registered pair goes through `sendAction:to:forEvent:` with the same event.
    public func tap(_ control: ControlObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("tap")
        defer { host.leaveUIThread(confinement) }
        try tap(control, segment: nil)
    }

    /// A tap on segment `index` of a segmented control: it is selected before
    /// value-changed is sent.
    public func select(segment index: Int, of control: ControlObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("select")
        defer { host.leaveUIThread(confinement) }
        try tap(control, segment: index)
    }

    private func tap(_ control: ControlObject, segment: Int?) throws(RuntimeError) {
        let event = try makeEvent()
        event.touchPhase = .began
        try touchBegan(on: control, event: event)
        try touchEnded(on: control, event: event, segment: segment)
    }

    /// What a finger going down on `control` does: touch-down (a stepper steps).
    func touchBegan(on control: ControlObject, event: EventObject) throws(RuntimeError) {
        try send(control, events: .touchDown, event: event)
        if control.role == .stepper {
            // UIStepper steps as the finger goes down.
            control.value += control.stepValue
            try send(control, events: .valueChanged, event: event)
        }
    }

    /// What a finger lifting from `control` does: value-changed for a switch or a
    /// segmented control, then touch-up-inside.
    func touchEnded(on control: ControlObject, event: EventObject, segment: Int?) throws(RuntimeError) {
        switch control.role {
        case .toggle:
            event.touchPhase = .ended
            control.switchIsOn.toggle()
            try send(control, events: .valueChanged, event: event)
        case .segmentedControl:
            event.touchPhase = .ended
            control.selectedSegmentIndex = segment ?? control.selectedSegmentIndex
            try send(control, events: .valueChanged, event: event)
        default:
            break
        }
        event.touchPhase = .ended
        try send(control, events: .touchUpInside, event: event)
    }

    /// Drags a slider from its value to `value` in one touch sequence, as a continuous
    /// `UISlider` reports it: touch-down, value-changed at each of `steps` moves
    /// (the last one in the ended phase, at `value`), then touch-up-inside.
    public func slide(_ slider: ControlObject, to value: Double, steps: Int = 4) throws(RuntimeError) {
        let confinement = host.enterUIThread("slide")
        defer { host.leaveUIThread(confinement) }
        let event = try makeEvent()
        event.touchPhase = .began
        try send(slider, events: .touchDown, event: event)
        let start = slider.value
        let count = max(1, steps)
        for step in 1...count {
            event.touchPhase = step == count ? .ended : .moved
            slider.value = step == count ? value : start + (value - start) * Double(step) / Double(count)
            try send(slider, events: .valueChanged, event: event)
        }
        try send(slider, events: .touchUpInside, event: event)
    }

    /// Types into a text field: editing began, changed once per character, ended.
    public func type(_ text: String, into field: ControlObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("type")
        defer { host.leaveUIThread(confinement) }
        try send(field, events: .editingDidBegin, event: try makeEvent())
        for character in text {
            field.text = (field.text ?? "") + String(character)
            try send(field, events: .editingChanged, event: try makeEvent())
        }
        try send(field, events: .editingDidEnd, event: try makeEvent())
    }

    private func send(_ control: ControlObject, events: ControlEvents, event: EventObject) throws(RuntimeError) {
        try runtime.send(control, "_sendActionsForEvents:withEvent:", MessageArguments(.int(events.rawValue), .object(event)))
    }

    /// A tap on a view with tap recognizers: each of them recognises.
    public func tap(gesturesOn view: ViewObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("tap")
        defer { host.leaveUIThread(confinement) }
        try recognizeTaps(on: view)
    }

    /// Each tap recognizer of `view` recognises.
    func recognizeTaps(on view: ViewObject) throws(RuntimeError) {
        for recognizer in view.gestureRecognizers where recognizer.kind == .tap {
            try runtime.call(recognizer, "_setState:", GestureState.ended.rawValue)
            recognizer.state = .possible
        }
    }

    /// A long press on a view: began, `changes` times changed, ended.
    public func longPress(_ view: ViewObject, changes: Int = 2) throws(RuntimeError) {
        let confinement = host.enterUIThread("longPress")
        defer { host.leaveUIThread(confinement) }
        for recognizer in view.gestureRecognizers where recognizer.kind == .longPress {
            try runtime.call(recognizer, "_setState:", GestureState.began.rawValue)
            for _ in 0..<changes { try runtime.call(recognizer, "_setState:", GestureState.changed.rawValue) }
            try runtime.call(recognizer, "_setState:", GestureState.ended.rawValue)
            recognizer.state = .possible
        }
    }

    /// A tap on the row (or item) at `indexPath`.
    public func select(_ indexPath: IndexPath, in list: ListViewObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("select")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(list, "_userSelectItemAtIndexPath:", indexPath)
    }

    /// Scrolls a list by `distance` points.
    public func scroll(_ list: ListViewObject, by distance: Double) throws(RuntimeError) {
        let confinement = host.enterUIThread("scroll")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(list, "_scrollBy:", distance)
    }

    /// Taps the action titled `title` in the presented alert.
    /// - Throws: `RuntimeError.exception(name:reason:)` when no alert
    ///   with such an action is presented.
    public func tapAlertAction(titled title: String) throws(RuntimeError) {
        let confinement = host.enterUIThread("tapAlertAction")
        defer { host.leaveUIThread(confinement) }
        guard let alert = host.visibleController, alert.kind == .alert,
              let action = alert.alertActions.first(where: { $0.title == title })
        else { throw .exception(name: "TouchDriver", reason: "no presented alert has an action titled '\(title)'") }
        try runtime.call(alert, "_dismissAnimated:triggeringAction:", true, action)
    }

    /// Pushes `controller` on `navigation`.
    public func push(_ controller: ViewControllerObject, on navigation: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("push")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(navigation, "pushViewController:animated:", controller, true)
    }

    /// Pops the top of `navigation` (the back button).
    public func pop(_ navigation: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("pop")
        defer { host.leaveUIThread(confinement) }
        _ = try runtime.call(navigation, "popViewControllerAnimated:", true, returning: RuntimeObject?.self)
    }

    /// Starts a swipe back on `navigation` and abandons it half-way.
    public func cancelledSwipeBack(_ navigation: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("cancelledSwipeBack")
        defer { host.leaveUIThread(confinement) }
        try host.transitions.cancelledSwipeBack(in: navigation)
    }

    /// Presents `controller` from `presenting`.
    public func present(_ controller: ViewControllerObject, from presenting: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("present")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(presenting, "presentViewController:animated:completion:", controller, true, RuntimeBlock?.none)
    }

    /// Dismisses what `controller` presented (or `controller` itself).
    public func dismiss(_ controller: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("dismiss")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(controller, "dismissViewControllerAnimated:completion:", true, RuntimeBlock?.none)
    }

    /// Taps the tab bar button of tab `index`, as a user switches tabs (the button's
    /// touch-up-inside selects the tab); when the tabs are not on screen, selects it in
    /// code.
    public func selectTab(_ index: Int, in tabs: ViewControllerObject) throws(RuntimeError) {
        if tabs.isVisible { try host.transitions.layOutTabBar(of: tabs) }
        if tabs.isVisible, let button = tabs.tabBar?.subviews.compactMap({ $0 as? ControlObject }).first(where: { $0.tabIndex == index }) {
            try tap(button)
            return
        }
        let confinement = host.enterUIThread("selectTab")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(tabs, "setSelectedIndex:", index)
    }

    /// Swipes a page container to page `index`.
    public func swipe(toPage index: Int, in pages: ViewControllerObject) throws(RuntimeError) {
        let confinement = host.enterUIThread("swipe")
        defer { host.leaveUIThread(confinement) }
        try runtime.call(pages, "_scrollToPage:", index)
    }

    /// Sends the app to the background: notifications only, no appearance callbacks.
    public func background() {
        let confinement = host.enterUIThread("background")
        defer { host.leaveUIThread(confinement) }
        host.isInBackground = true
        host.post(.didEnterBackground)
    }

    /// Brings the app back: notifications only — UIKit sends no `viewDidAppear:` here.
    public func foreground() {
        let confinement = host.enterUIThread("foreground")
        defer { host.leaveUIThread(confinement) }
        host.isInBackground = false
        host.post(.willEnterForeground)
        host.post(.didBecomeActive)
    }
}
