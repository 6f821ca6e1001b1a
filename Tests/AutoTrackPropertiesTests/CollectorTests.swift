import AutoTrackEvents
import AutoTrackProperties
import Foundation
import Testing

@Suite("Collectors: preset, screen, element, content, control attributes, exclusions")
struct CollectorTests {
    @Test("preset properties come in the documented order")
    func presets() {
        let properties = Fixtures.device.presetProperties
        #expect(properties.keys == [
            "$lib", "$lib_version", "$os", "$os_version", "$model", "$manufacturer", "$app_version",
            "$screen_width", "$screen_height", "$timezone_offset",
        ])
        #expect(properties["$model"] == "x86_64")
        #expect(properties["$timezone_offset"] == -480)
    }

    @Test("the default device is this machine: uname and the time zone")
    func currentDevice() throws {
        let device = DeviceInfo.current(appVersion: "2.0")
        #expect(!device.operatingSystem.isEmpty)
        #expect(!device.model.isEmpty && device.model != "unknown")
        #expect(device.appVersion == "2.0")
        #expect(device.timezoneOffsetMinutes == -TimeZone.current.secondsFromGMT() / 60)
        #if os(Linux)
        #expect(device.operatingSystem == "Linux")
        let release = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)
        #expect(device.operatingSystemVersion == release.trimmingCharacters(in: .whitespacesAndNewlines))
        #endif
    }

    @Test("$title prefers the tracking title, then the navigation title, then the title")
    func screenTitle() {
        let screen = Screen("ViewController", title: "Title", navigationTitle: "Nav")
        #expect(ScreenProperties.collect(for: screen)["$title"] == "Nav")
        screen.navigationTitle = ""
        #expect(ScreenProperties.collect(for: screen)["$title"] == "Title")
        screen.screenTracking = ScreenTracking(customTitle: "商品详情", extraProperties: ["product_id": "P-1"], url: "app://product/1")
        let properties = ScreenProperties.collect(for: screen, referrer: "app://home")
        #expect(properties.keys == ["$screen_name", "$title", "$url", "$referrer", "product_id"])
        #expect(properties["$screen_name"] == "ViewController")
        #expect(properties["$title"] == "商品详情")
        #expect(properties["$referrer"] == "app://home")
    }

    @Test("a tracking page name replaces $screen_name on the screen's views and on clicks in it; an empty one does not")
    func screenNameOverride() {
        let (screen, cell) = Self.tableScreen()
        screen.screenTracking = ScreenTracking(screenName: "ProductList")
        #expect(ScreenProperties.collect(for: screen)["$screen_name"] == "ProductList")
        #expect(ClickProperties(device: Fixtures.device).collect(for: cell)["$screen_name"] == "ProductList")
        screen.screenTracking = ScreenTracking(screenName: "")
        #expect(ScreenProperties.collect(for: screen)["$screen_name"] == "ViewController")
    }

    /// The list screen of the tutorial: a cell with a label and a button inside.
    static func tableScreen() -> (screen: Screen, cell: Element) {
        let screen = Screen("ViewController")
        let table = screen.rootView.addChild(Element("UITableView", role: .table))
        var target: Element!
        for row in 0..<8 {
            let cell = table.addChild(Element("MyTableViewCell", role: .tableCell, listPosition: ListPosition(section: 0, index: row)))
            let content = cell.addChild(Element("UITableViewCellContentView", role: .cellContentView))
            content.addChild(Element("UILabel", role: .label, text: "CELL"))
            content.addChild(Element("UILabel", role: .label, text: "hidden", isHidden: true))
            content.addChild(Element("UILabel", role: .label, text: "transparent", alpha: 0))
            content.addChild(Element("UIButton", role: .button, text: "Buy \(row)"))
            content.addChild(Element("UITextField", role: .textField, text: "typed secret"))
            if row == 5 { target = cell }
        }
        return (screen, target)
    }

    @Test("a cell yields the tutorial's values: content joined with '-', position 0:5, screen ViewController")
    func cellProperties() {
        let (screen, cell) = Self.tableScreen()
        let properties = ClickProperties(device: Fixtures.device).collect(for: cell)
        #expect(properties["$element_content"] == "CELL-Buy 5")
        #expect(properties["$element_position"] == "0:5")
        #expect(properties["$screen_name"] == "ViewController")
        #expect(properties["$element_type"] == "UITableView", "Sensors' convention: the list class for a cell selection")
        #expect(properties["$element_class_name"] == "MyTableViewCell", "the cell's own class is kept")
        #expect(properties["$element_path"] == "ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5]")
        let seedForm = ClickProperties(device: Fixtures.device, elements: ElementProperties(typeConvention: .className)).collect(for: cell)
        #expect(seedForm["$element_type"] == "MyTableViewCell" && seedForm["$element_class_name"] == nil)
        let expectedID = SHA256.hexDigest("path(ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,5])&page(ViewController)")
        #expect(properties["$element_id"] == .string(expectedID))
        #expect(properties.keys.prefix(10) == Fixtures.device.presetProperties.keys[...])
        #expect(screen.rootView.children.count == 1)
    }

    @Test("content: switches read checked/unchecked; text, secure and search fields are never read")
    func contentRules() {
        let extractor = ElementContentExtractor()
        #expect(extractor.content(of: Element("UISwitch", role: .toggle, isOn: true)) == "checked")
        #expect(extractor.content(of: Element("UISwitch", role: .toggle, isOn: false)) == "unchecked")
        for role in [ElementRole.textField, .secureTextField, .searchField] {
            let field = Element("Field", role: role, text: "password123")
            field.addChild(Element("UILabel", role: .label, text: "placeholder"))
            #expect(extractor.content(of: field) == nil)
        }
        let button = Element("UIButton", role: .button)
        button.addChild(Element("UILabel", role: .label, text: "from child"))
        #expect(extractor.content(of: button) == "from child", "a button without a title reads its children")
        #expect(extractor.content(of: Element("UIView")) == nil)
    }

    @Test("control attributes use their fixed formats")
    func controlAttributes() {
        let button = Element(
            "UIButton", role: .button, frame: Rect(x: 16, y: 100.5, width: 343, height: 44), text: "Log in",
            titleColor: Color(red: 1, green: 0.5, blue: 0, alpha: 0.75), imageName: "like_on")
        let properties = ControlAttributes.collect(for: button)
        #expect(properties["$element_title"] == "Log in")
        #expect(properties["$element_title_color"] == "rgba(255, 128, 0, 0.75)")
        #expect(properties["$element_image_name"] == "like_on")
        #expect(properties["$element_frame"] == "rect(16, 100.5, 343, 44)")
        #expect(ControlAttributes.collect(for: Element("UISwitch", role: .toggle, isOn: true))["$element_switch_state"] == true)
        #expect(ControlAttributes.rect(Rect(x: 1.0 / 3, y: -2, width: 0.1 + 0.2, height: 1e20)) == "rect(0.333, -2, 0.3, 9000000000000)")
    }

    @Test("frame numbers: at most three decimals, no trailing zeros, for 20 000 seeded values")
    func frameNumbers() {
        /// The rule in words, with strings: what the byte-level writer must match.
        func reference(_ value: Double) -> String {
            guard value.isFinite else { return "0" }
            let scaled = (value * 1000).rounded()
            let magnitude = Int64(min(abs(scaled), 9.0e15))
            var text = (scaled < 0 && magnitude != 0 ? "-" : "") + String(magnitude / 1000)
            var fraction = magnitude % 1000
            if fraction != 0 {
                var digits = 3
                while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
                let fractionText = String(fraction)
                text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
            }
            return text
        }
        var random = SplitMix64(seed: 3)
        let specials: [Double] = [0, -0.0, 0.0004, -0.0004, 0.0005, 0.05, -0.05, 0.1, 0.001, 1e15, -1e20, .infinity, -.infinity, .nan, 123.4565]
        let values = specials + (0..<20_000).map { _ in
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return (unit - 0.5) * pow(10, Double(random.next() % 9))
        }
        for value in values {
            let rect = ControlAttributes.rect(Rect(x: value, y: 0, width: 1, height: -value))
            #expect(rect == "rect(\(reference(value)), 0, 1, \(reference(-value)))", "\(value)")
        }
    }

    @Test("search text is captured only when editing ends; text fields never")
    func searchText() {
        let search = Element("UISearchBarTextField", role: .searchField, text: "running shoes")
        #expect(ControlAttributes.collect(for: search, action: "_searchFieldBeginEditing", searchText: "running shoes").isEmpty)
        #expect(ControlAttributes.collect(for: search, action: "_searchFieldEndEditing", searchText: "running shoes")["$search_text"]
            == "running shoes")
        let secure = Element("UITextField", role: .secureTextField, text: "hunter2")
        #expect(ControlAttributes.collect(for: secure, action: "_searchFieldEndEditing", searchText: "hunter2").isEmpty)
    }

    @Test("alert actions carry their alert's title, message, action title and style")
    func alertAttributes() {
        let alert = AlertContext(controllerType: "UIAlertController", title: "退群", message: "確認退出群聊嗎？", actionTitle: "確定", actionStyle: "destructive")
        let properties = ControlAttributes.collect(for: Element("_UIAlertControllerActionView", role: .alertAction, alertContext: alert))
        #expect(properties.keys == ["$alert_title", "$alert_message", "$alert_action_title", "$alert_action_style"])
        #expect(properties["$alert_action_style"] == "destructive")
    }

    @Test("exclusions: element types with subclasses, accessibility ids, screens with subclasses, system containers by default")
    func exclusions() {
        let exclusions = TrackingExclusions(elementTypes: ["UIStepper"], accessibilityIdentifiers: ["debug-menu"],
                                            screenTypes: TrackingExclusions.systemScreenTypes.union(["BaseDebugController"]))
        let debugScreen = Screen("DebugDetailController", superTypeNames: ["BaseDebugController", "UIViewController"])
        let normal = Screen("ViewController", superTypeNames: ["UIViewController"])
        #expect(exclusions.ignores(screen: debugScreen))
        #expect(!exclusions.ignores(screen: normal))
        #expect(exclusions.ignores(screen: Screen("MyNavigationController", superTypeNames: ["UINavigationController"])))
        let stepper = normal.rootView.addChild(Element("FancyStepper", role: .control, superTypeNames: ["UIStepper", "UIControl"]))
        let menu = normal.rootView.addChild(Element("UIButton", role: .button, accessibilityIdentifier: "debug-menu"))
        let plain = normal.rootView.addChild(Element("UIButton", role: .button))
        let onDebug = debugScreen.rootView.addChild(Element("UIButton", role: .button))
        #expect(exclusions.ignores(element: stepper))
        #expect(exclusions.ignores(element: menu))
        #expect(!exclusions.ignores(element: plain))
        #expect(exclusions.ignores(element: onDebug))
    }
}
