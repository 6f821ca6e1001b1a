import AutoTrackEvents
import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Screen-view scenarios (`SV-`).
enum ScreenViewScenarios {
    static func scenario(_ id: String, _ title: String, _ failure: String, _ rules: [ContractRule], body: @escaping @Sendable (ScenarioRun) throws -> Void) -> Scenario {
        Scenario(id: id, point: .screenView, title: title, failure: failure, rules: rules) { run in
            try run.install()
            try body(run)
        }
    }

    static func screens(_ run: ScenarioRun) -> [String] { run.sink.interactions.map { $0.screen?.typeName ?? "?" } }

    static let all: [Scenario] = [
        scenario("SV-01", "launch inside a navigation controller", "Containers (UINavigationController) counted as screens: extra $AppViewScreen at launch.", [.filters, .oneInteraction]) { run in
            try run.app.launch()
            run.expect(.oneInteraction, "screen views", expected: ["ViewController"], observed: screens(run))
        },
        scenario("SV-02", "push then pop", "Screen views missing on back navigation.", [.oneInteraction]) { run in
            try run.app.launch()
            try run.host.driver.push(run.app.settingsScreen, on: run.app.navigation)
            try run.host.driver.pop(run.app.navigation)
            run.expect(.oneInteraction, "screen views", expected: ["ViewController", "SettingsViewController", "ViewController"], observed: screens(run))
        },
        scenario("SV-03", "a swipe back cancelled half-way", "The top screen's viewDidAppear: runs again: a duplicate screen view for a screen that never left.", [.oneInteraction, .originalOnce]) { run in
            try run.app.launch()
            try run.host.driver.push(run.app.settingsScreen, on: run.app.navigation)
            run.resetCounts()
            try run.host.driver.cancelledSwipeBack(run.app.navigation)
            run.expectCounts(original: .viewDidAppear("SettingsViewController"), originals: 1, interactions: 0)
        },
        scenario("SV-04", "background, then foreground", "No screen view on return from background: sessions start without a screen (a problem the tutorials leave open).", [.oneInteraction]) { run in
            try run.app.launch()
            run.resetCounts()
            run.host.driver.background()
            run.host.driver.foreground()
            run.expect(.oneInteraction, "screen views", expected: ["ViewController"], observed: screens(run))
        },
        scenario("SV-05", "a child controller contained in a screen", "Child view controllers counted as separate screens alongside their parent.", [.oneInteraction]) { run in
            let parent = try run.host.makeController("SettingsViewController")
            let child = try run.host.makeController("CollectionViewController")
            try run.runtime.call(parent, "addChildViewController:", child)
            parent.view.addSubview(child.view)
            try run.host.transitions.setRoot(parent)
            run.expect(.oneInteraction, "screen views", expected: ["SettingsViewController"], observed: screens(run))
            run.expect(.originalOnce, "calls of the child's viewDidAppear:", expected: 1, observed: run.log.count(.viewDidAppear("CollectionViewController")))
        },
        scenario("SV-06", "pages of a page container", "Pages never counted because their parent container is ignored.", [.oneInteraction]) { run in
            try run.app.launch()
            try run.host.driver.push(run.app.pagesScreen, on: run.app.navigation)
            try run.host.driver.swipe(toPage: 1, in: run.app.pagesScreen)
            run.expect(.oneInteraction, "screen views", expected: ["ViewController", "PageChildViewController", "PageChildViewController"], observed: screens(run))
        },
        // Installed on the variant only: a process holds one UIKit, and a native hook's
        // installation is process state (the outer run's would be a second host).
        Scenario(id: "SV-07", point: .screenView, title: "an ignored screen class and its subclasses", failure: "A blacklist matching class names exactly misses subclasses.", rules: [.filters]) { outer in
            let run = try outer.variant(exclusions: TrackingExclusions(screenTypes: TrackingExclusions.systemScreenTypes.union(["UIViewController"])))
            try run.install()
            try run.app.launch()
            try run.host.driver.push(run.app.settingsScreen, on: run.app.navigation)
            run.expect(.filters, "screen views", expected: [String](), observed: screens(run))
            outer.adopt(run)
        },
        scenario("SV-08", "an override of viewDidAppear: that runs code before calling super", "Hooking only UIViewController records after the app's own code: its events come first.", [.recordThenForward]) { run in
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.push(run.app.settingsScreen, on: run.app.navigation)
            let order = run.log.all.filter { $0 == .click || $0 == .viewDidAppear("SettingsViewController") }
            run.expect(.recordThenForward, "order", expected: [.click, .viewDidAppear("SettingsViewController")], observed: order)
        },
        scenario("SV-09", "an alert presented over a screen", "System alerts counted as screens.", [.filters]) { run in
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.present(try run.app.makeAlert(), from: run.app.listScreen)
            run.expect(.filters, "screen views", expected: [String](), observed: screens(run))
        },
        scenario("SV-10", "screens that leave are told once each; a dismissed sheet as being dismissed", "Hooks that never report disappearances leave page time running under a sheet and across pushes.", [.oneInteraction]) { run in
            try run.app.launch()
            run.resetCounts()
            try run.host.driver.push(run.app.settingsScreen, on: run.app.navigation)
            try run.host.driver.present(run.app.filterSheet, from: run.app.navigation)
            try run.host.driver.dismiss(run.app.filterSheet)
            try run.host.driver.present(try run.app.makeAlert(), from: run.app.settingsScreen)
            try run.host.driver.tapAlertAction(titled: "OK")
            let told = run.sink.disappearances.map { "\($0.typeName)\($0.isBeingDismissed ? " dismissed" : "")" }
            run.expect(.oneInteraction, "disappearances", expected: ["ViewController", "FilterViewController dismissed"], observed: told)
        },
    ]
}
