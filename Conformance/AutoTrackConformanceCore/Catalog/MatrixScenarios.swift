import AutoTrackInterception
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackRuntime
import AutoTrackTesting

/// Scenarios generated from the contract's matrix rather than written one by one: for
/// every interception point, each object-lifetime case (rule 6) and each call path
/// (rules 1, 4 and 5), with the same fixture.
///
/// Ids: `<point>-L<n>` for the lifetime cases, `<point>-T<n>` for the transcript of
/// calls the app's originals receive — compared with the same actions in an app that
/// has no hook — on every path.
enum MatrixScenarios {
    /// One user action at a point, with its objects made apart from their use: `make`
    /// builds them and returns the action, which holds them (typed, strongly — the host
    /// holds targets and delegates weakly, as UIKit does).
    struct LifetimeFixture: Sendable {
        let make: @Sendable (ScenarioRun) throws -> @Sendable (ScenarioRun) throws -> Void
        /// The log entry of the original the action runs.
        let original: AppLogEntry

        static func of(_ point: InterceptionPoint) -> LifetimeFixture {
            switch point {
            case .sendAction:
                LifetimeFixture(make: { run in
                    let button = try run.host.makeControl("UIButton", title: "Buy now", frame: Rect(x: 10, y: 500, width: 100, height: 40))
                    run.app.listScreen.view.addSubview(button)
                    try button.addTarget(run.app.listScreen, action: "buyTapped:", for: .touchUpInside)
                    return { run in try run.host.driver.tap(button) }
                }, original: .buy)
            case .gesture:
                LifetimeFixture(make: { run in
                    let image = try run.host.makeView("UIImageView", frame: Rect(x: 0, y: 500, width: 120, height: 120))
                    run.app.listScreen.view.addSubview(image)
                    image.addGestureRecognizer(try run.host.makeGestureRecognizer("UITapGestureRecognizer", target: run.app.listScreen, action: "bannerTapped:"))
                    return { run in try run.host.driver.tap(gesturesOn: image) }
                }, original: .bannerTap)
            case .alertAction:
                LifetimeFixture(make: { run in
                    let alert = try run.app.makeAlert()
                    return { run in
                        try run.host.driver.present(alert, from: run.app.listScreen)
                        try run.host.driver.tapAlertAction(titled: "OK")
                    }
                }, original: .alertOK)
            case .delegateSelection:
                LifetimeFixture(make: { run in
                    let delegate = try run.runtime.allocate(try run.host.lookUpClass("MyTableDelegate"))
                    let table = try PointFixture.makeTable(run, delegate: delegate)
                    return { run in
                        withExtendedLifetime(delegate) {}
                        try run.host.driver.select(IndexPath(row: 2, section: 0), in: table)
                    }
                }, original: .delegateSelect(IndexPath(row: 2, section: 0)))
            case .screenView:
                LifetimeFixture(make: { run in
                    let settings = try run.host.makeController("SettingsViewController", title: "Settings")
                    return { run in try run.host.driver.push(settings, on: run.app.navigation) }
                }, original: .viewDidAppear("SettingsViewController"))
            case .swiftUITap:
                LifetimeFixture(make: { run in
                    let shop = try run.app.makeShopScreen()
                    return { run in
                        if run.app.navigation.topViewController !== shop { try run.host.driver.push(shop, on: run.app.navigation) }
                        try run.host.driver.tap("Add to cart", in: try shop.requireHostingView())
                    }
                }, original: .addToCart)
            default:
                LifetimeFixture(make: { _ in throw PointFixture.MissingFixture(point: point) }, original: .noOriginal)
            }
        }
    }

    /// When the objects of the action are made and used, against the hook's lifetime.
    enum Lifetime: Int, CaseIterable {
        case madeBeforeInstall = 1, madeWhileInstalled, madeWhileInstalledUsedAfterUninstall, madeWhileInstalledUsedAfterReinstall
        case madeAfterUninstall, madeAfterReinstall, madeWhileInstalledUsedWhileDisabled

        var title: String {
            switch self {
            case .madeBeforeInstall: "objects made before the hook was installed"
            case .madeWhileInstalled: "objects made while the hook is installed"
            case .madeWhileInstalledUsedAfterUninstall: "objects made while installed, used after uninstall"
            case .madeWhileInstalledUsedAfterReinstall: "objects made while installed, used after uninstall and reinstall"
            case .madeAfterUninstall: "objects made after uninstall"
            case .madeAfterReinstall: "objects made after uninstall and reinstall"
            case .madeWhileInstalledUsedWhileDisabled: "objects made while installed, used while tracking is disabled, then enabled"
            }
        }

        var failure: String {
            switch self {
            case .madeBeforeInstall: "SDK set up late (after the first screen): the app's existing objects break or double-record."
            case .madeWhileInstalled: "The ordinary case, as a baseline for the others."
            case .madeWhileInstalledUsedAfterUninstall: "A wrapper, proxy or tracking target left in an object keeps recording after opt-out."
            case .madeWhileInstalledUsedAfterReinstall: "Objects wrapped by an earlier installation report to it, not to the new one: clicks lost after opt-in."
            case .madeAfterUninstall: "Unhooking leaves a hook on new objects."
            case .madeAfterReinstall: "A reinstall that half-works: new objects not hooked, or hooked twice."
            case .madeWhileInstalledUsedWhileDisabled: "Opt-out at run time ignored by state captured earlier, or not undone by opt-in."
            }
        }

        /// The interactions one use may record (made before install: a hook may or may
        /// not reach objects it never saw set up, but never twice).
        var interactions: ClosedRange<Int> {
            switch self {
            case .madeBeforeInstall: 0...1
            case .madeWhileInstalled, .madeWhileInstalledUsedAfterReinstall, .madeAfterReinstall: 1...1
            case .madeWhileInstalledUsedAfterUninstall, .madeAfterUninstall, .madeWhileInstalledUsedWhileDisabled: 0...0
            }
        }
    }

    static let prefixes: [InterceptionPoint: String] = [
        .sendAction: "SA", .gesture: "GR", .alertAction: "AA", .delegateSelection: "DS", .screenView: "SV", .swiftUITap: "SU",
    ]

    static func lifetime(_ lifetime: Lifetime, at point: InterceptionPoint) -> Scenario {
        Scenario(
            id: "\(prefixes[point]!)-L\(lifetime.rawValue)", point: point, title: lifetime.title, failure: lifetime.failure,
            rules: [.lifecycle, .originalOnce, .oneInteraction]
        ) { run in
            let fixture = LifetimeFixture.of(point)
            var use: (@Sendable (ScenarioRun) throws -> Void)?
            func make() throws {
                use = try fixture.make(run)
                try run.app.launch()
            }
            switch lifetime {
            case .madeBeforeInstall:
                try make()
                try run.install()
            case .madeWhileInstalled:
                try run.install()
                try make()
            case .madeWhileInstalledUsedAfterUninstall:
                try run.install()
                try make()
                try run.handles.forEach { try $0.uninstall() }
            case .madeWhileInstalledUsedAfterReinstall:
                try run.install()
                try make()
                try run.handles.forEach { try $0.uninstall() }
                try run.install()
            case .madeAfterUninstall:
                try run.install()
                try run.handles.forEach { try $0.uninstall() }
                try make()
            case .madeAfterReinstall:
                try run.install()
                try run.handles.forEach { try $0.uninstall() }
                try run.install()
                try make()
            case .madeWhileInstalledUsedWhileDisabled:
                try run.install()
                try make()
                run.context.isEnabled = false
            }
            run.resetCounts()
            try use?(run)
            let clicks = run.clicks
            run.expect(.originalOnce, "calls of \(fixture.original)", expected: 1, observed: run.log.count(fixture.original))
            run.expectTrue(.oneInteraction, "interactions (\(clicks)) within \(lifetime.interactions)", lifetime.interactions.contains(clicks))
            if clicks == 1 {
                let order = run.log.all.filter { $0 == .click || $0 == fixture.original }
                run.expect(.recordThenForward, "order of click and original", expected: [.click, fixture.original], observed: order)
            }
            if lifetime == .madeWhileInstalledUsedWhileDisabled {
                // Enabled again: the same objects record again.
                run.context.isEnabled = true
                run.resetCounts()
                try use?(run)
                run.expectCounts(original: fixture.original, originals: 1, interactions: 1)
            }
        }
    }

    /// A path a call can take through a hook.
    enum Path: Int, CaseIterable {
        case recorded = 1, disabled, sinkThrows, installedTwice, screenIgnored, underAnotherLibrary, overAnotherLibrary

        var title: String {
            switch self {
            case .recorded: "the originals receive exactly the app's calls, arguments included"
            case .disabled: "tracking disabled: the originals receive exactly the app's calls"
            case .sinkThrows: "a throwing sink: the originals receive exactly the app's calls"
            case .installedTwice: "installed twice: the originals receive exactly the app's calls"
            case .screenIgnored: "every screen ignored (filtered): the originals receive exactly the app's calls"
            case .underAnotherLibrary: "another library's hook stacked on ours: the originals receive exactly the app's calls"
            case .overAnotherLibrary: "ours installed over another library's exchange: the originals receive exactly the app's calls"
            }
        }
    }

    static func transcript(_ path: Path, at point: InterceptionPoint) -> Scenario {
        Scenario(
            id: "\(prefixes[point]!)-T\(path.rawValue)", point: point, title: path.title,
            failure: "A hook that alters, drops or swaps an argument (a nil event, another sender, a copied index path, a changed flag) on its way to the original.",
            rules: [.originalOnce, .transparency, .failOpen]
        ) { outer in
            let fixture = LifetimeFixture.of(point)
            // The same actions in an app without the hook.
            let baseline = try outer.variant()
            let baselineUse = try fixture.make(baseline)
            try baseline.app.launch()
            baseline.resetCounts()
            try baselineUse(baseline)
            // And with it, on the path.
            let run: ScenarioRun = switch path {
            case .sinkThrows: try outer.variant(sink: InMemoryInteractionSink(failingWith: InMemoryInteractionSink.Failure()))
            case .screenIgnored: try outer.variant(exclusions: TrackingExclusions(screenTypes: ["UIViewController"]))
            default: outer
            }
            if path == .overAnotherLibrary {
                for hooked in run.subject.hookedMethods { OtherLibraryHooks.exchange(hooked, as: .otherLibrary, runtime: run.runtime, log: run.log) }
            }
            try run.install()
            if path == .installedTwice { try run.install() }
            if path == .underAnotherLibrary {
                for hooked in run.subject.hookedMethods { OtherLibraryHooks.replace(hooked, as: .otherLibrary, runtime: run.runtime, log: run.log) }
            }
            let use = try fixture.make(run)
            try run.app.launch()
            if path == .disabled { run.context.isEnabled = false }
            run.resetCounts()
            try use(run)
            outer.expect(.transparency, "calls the originals received", expected: baseline.log.calls, observed: run.log.calls)
            outer.expect(.originalOnce, "calls of \(fixture.original)", expected: 1, observed: run.log.count(fixture.original))
            let expected = [.recorded, .installedTwice, .underAnotherLibrary, .overAnotherLibrary].contains(path) ? 1 : 0
            outer.expect(.oneInteraction, "interactions", expected: expected, observed: run.clicks)
            if expected == 1 {
                let order = run.log.all.filter { $0 == .click || $0 == fixture.original }
                outer.expect(.recordThenForward, "order of click and original", expected: [.click, fixture.original], observed: order)
            }
            if run !== outer { outer.adopt(run) }
        }
    }

    static let all: [Scenario] = InterceptionPoint.uiKit.flatMap { point in
        Lifetime.allCases.map { lifetime($0, at: point) } + Path.allCases.map { transcript($0, at: point) }
    } + VarietyScenarios.all
}
