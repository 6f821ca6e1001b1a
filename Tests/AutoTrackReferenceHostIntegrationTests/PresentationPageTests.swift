import AutoTrack
import AutoTrackProperties
import AutoTrackReferenceUI
import AutoTrackSampleApp
import AutoTrackTesting
import Testing

/// Page time across presentations that hold screens of their own: a navigation stack
/// inside a sheet, a full-screen presentation from a sheet, a sheet over a sheet, a
/// sheet the settings ignore. The page under a presentation resumes when that
/// presentation is dismissed — not when a screen inside it disappears.
@Suite("Page time across nested presentations")
struct PresentationPageTests {
    typealias Session = PageTimeTests.Session

    /// A navigation controller holding `screens`, off screen, to be presented.
    static func navigation(_ session: Session, holding screens: [String], style: ScreenPresentation) throws -> ViewControllerObject {
        let navigation = try session.host.makeController("UINavigationController")
        navigation.modalPresentationStyle = style
        for name in screens {
            try session.host.driver.push(try session.host.makeController(name, title: name), on: navigation)
        }
        return navigation
    }

    func pushSettings(_ session: Session) throws {
        try session.host.driver.push(try session.host.makeController("SettingsViewController", title: "Settings"), on: session.app.navigation)
    }

    @Test("pushing and popping inside a sheet's navigation stack moves its page; the page under the sheet resumes only at its dismissal",
          arguments: [ScreenPresentation.pageSheet, .formSheet, .overFullScreen, .popover])
    func navigationInsideASheet(style: ScreenPresentation) throws {
        let session = try Session()
        try session.host.defineClass("ComposeViewController", superclass: "UIViewController")
        try session.host.defineClass("AttachViewController", superclass: "UIViewController")
        session.wait(2)
        let sheet = try Self.navigation(session, holding: ["ComposeViewController"], style: style)
        try session.host.driver.present(sheet, from: session.app.listScreen)
        session.wait(1)
        try session.host.driver.push(try session.host.makeController("AttachViewController", title: "Attach"), on: sheet)
        session.wait(2)
        try session.host.driver.pop(sheet)
        session.wait(4)
        try session.host.driver.dismiss(sheet)
        session.wait(3)
        try pushSettings(session)
        #expect(PageTimeTests.describe(session.leaves) == [
            "ViewController 2.0", "ComposeViewController 1.0", "AttachViewController 2.0", "ComposeViewController 4.0", "ViewController 3.0",
        ])
    }

    @Test("a controller's presentation state, read in one walk, answers as its three properties do", arguments: [ScreenPresentation.formSheet, .fullScreen])
    func presentationStateAgrees(style: ScreenPresentation) throws {
        let session = try Session()
        try session.host.defineClass("ComposeViewController", superclass: "UIViewController")
        let sheet = try Self.navigation(session, holding: ["ComposeViewController"], style: style)
        try session.host.driver.present(sheet, from: session.app.listScreen)
        let compose = try #require(sheet.topViewController)
        for controller in [compose, sheet, session.app.listScreen, session.app.navigation].compactMap({ $0 }) {
            let state = controller.presentationState
            #expect(state.presentation == controller.presentation)
            #expect(state.root.map { ObjectIdentifier($0) } == controller.presentationRoot.map { ObjectIdentifier($0) })
            #expect(state.isBeingDismissed == controller.isBeingDismissed)
        }
        #expect(compose.presentationState.root.map { ObjectIdentifier($0) } == ObjectIdentifier(sheet))
        #expect(compose.presentationState.presentation == style)
        #expect(session.app.listScreen.presentationState.root == nil)
    }

    @Test("a full-screen presentation from a sheet ends the sheet's page; dismissed, the sheet's screen reopens and the page under the sheet waits for the sheet")
    func fullScreenFromASheet() throws {
        let session = try Session()
        session.wait(2)
        let sheet = session.app.filterSheet!
        try session.host.driver.present(sheet, from: session.app.listScreen)
        session.wait(1)
        let login = try session.host.makeController("LoginViewController", title: "Login")
        try session.host.driver.present(login, from: sheet)
        session.wait(5)
        try session.host.driver.dismiss(login)
        session.wait(2)
        try session.host.driver.dismiss(sheet)
        session.wait(3)
        try pushSettings(session)
        #expect(PageTimeTests.describe(session.leaves) == [
            "ViewController 2.0", "FilterViewController 1.0", "LoginViewController 5.0", "FilterViewController 2.0", "ViewController 3.0",
        ])
    }

    @Test("a sheet over a sheet pauses the first sheet's page, which resumes before the page under both")
    func sheetOverASheet() throws {
        let session = try Session()
        try session.host.defineClass("ColorPickerViewController", superclass: "UIViewController")
        session.wait(2)
        let sheet = session.app.filterSheet!
        try session.host.driver.present(sheet, from: session.app.listScreen)
        session.wait(1)
        let picker = try session.host.makeController("ColorPickerViewController", title: "Colour")
        picker.modalPresentationStyle = .formSheet
        try session.host.driver.present(picker, from: sheet)
        session.wait(4)
        try session.host.driver.dismiss(picker)
        session.wait(2)
        try session.host.driver.dismiss(sheet)
        session.wait(3)
        try pushSettings(session)
        #expect(PageTimeTests.describe(session.leaves) == [
            "ViewController 2.0", "FilterViewController 1.0", "ColorPickerViewController 4.0", "FilterViewController 2.0", "ViewController 3.0",
        ])
    }

    @Test("a sheet the settings ignore pauses the page under it, which resumes at its dismissal")
    func ignoredSheet() throws {
        let session = try Session()
        session.memory.tracker.autoTrackSettings.ignoredScreenTypes = ["FilterViewController"]
        session.wait(2)
        try session.host.driver.present(session.app.filterSheet, from: session.app.listScreen)
        session.wait(5)
        try session.host.driver.dismiss(session.app.filterSheet)
        session.wait(3)
        try pushSettings(session)
        #expect(PageTimeTests.describe(session.leaves) == ["ViewController 2.0", "ViewController 3.0"])
        #expect(session.screenViews == ["ViewController", "SettingsViewController"])
    }

    @Test("an ignored screen pushed inside a sheet ends the sheet's page; the page under the sheet still waits for the dismissal")
    func ignoredScreenInsideASheet() throws {
        let session = try Session()
        try session.host.defineClass("ComposeViewController", superclass: "UIViewController")
        try session.host.defineClass("PrivacyViewController", superclass: "UIViewController")
        session.memory.tracker.autoTrackSettings.ignoredScreenTypes = ["PrivacyViewController"]
        session.wait(2)
        let sheet = try Self.navigation(session, holding: ["ComposeViewController"], style: .pageSheet)
        try session.host.driver.present(sheet, from: session.app.listScreen)
        session.wait(1)
        try session.host.driver.push(try session.host.makeController("PrivacyViewController", title: "Privacy"), on: sheet)
        session.wait(4)
        try session.host.driver.dismiss(sheet)
        session.wait(3)
        try pushSettings(session)
        #expect(PageTimeTests.describe(session.leaves) == ["ViewController 2.0", "ComposeViewController 1.0", "ViewController 3.0"])
    }
}
