import AutoTrackProperties
import Testing

/// Trees built to match the paths printed in the tutorials (ARCHITECTURE.md, “Slash paths” and “HubbleData paths”).
@Suite("Golden view paths from the tutorials")
struct ViewPathGoldenTests {
    @Test("slash style: WMMineViewController[0]/UIView[0]/UITableView[0]/UIView[1]/WMMineTopInfoView[0]/UIView[0]")
    func slashPlain() {
        let screen = Screen("WMMineViewController")
        let table = screen.rootView.addChild(Element("UITableView", role: .table))
        table.addChild(Element("UIView")) // background view
        table.addChild(Element("UIImageView", role: .image)) // another type: does not count
        let header = table.addChild(Element("UIView"))
        let info = header.addChild(Element("WMMineTopInfoView"))
        let target = info.addChild(Element("UIView"))
        #expect(ViewPathBuilder(style: .slash).path(for: target).text
            == "WMMineViewController[0]/UIView[0]/UITableView[0]/UIView[1]/WMMineTopInfoView[0]/UIView[0]")
    }

    @Test("slash style: nested cells as #[section,row], content views counted as their cell")
    func slashCells() {
        let screen = Screen("WMHomePageViewController")
        let collection = screen.rootView.addChild(Element("UICollectionView", role: .collection))
        collection.addChild(Element("WMHomePageNavCell", role: .collectionCell, listPosition: ListPosition(section: 0, index: 0)))
        let banner = collection.addChild(
            Element("WMHomePageBannerCell", role: .collectionCell, listPosition: ListPosition(section: 1, index: 0)))
        let content = banner.addChild(Element("UIView", role: .cellContentView))
        let cycle = content.addChild(Element("SDCycleScrollView"))
        let inner = cycle.addChild(Element("UICollectionView", role: .collection))
        inner.addChild(Element("SDCollectionViewCell", role: .collectionCell, listPosition: ListPosition(section: 0, index: 0)))
        let target = inner.addChild(Element("SDCollectionViewCell", role: .collectionCell, listPosition: ListPosition(section: 0, index: 1)))
        #expect(ViewPathBuilder(style: .slash).path(for: target).text
            == "WMHomePageViewController[0]/UIView[0]/UICollectionView[0]/WMHomePageBannerCell#[1,0]/UIView[0]/SDCycleScrollView[0]/UICollectionView[0]/SDCollectionViewCell#[0,1]")
    }

    @Test("hubble style: UIView(0)_UILabel(0), UIView(0)_UIButton(0), UIView(0)_UIButton(1) whatever the label's position")
    func hubbleSameTypeIndex() {
        for labelPosition in 0...2 {
            let root = Element("UIView")
            let first = root.addChild(Element("UIButton", role: .button))
            let second = root.addChild(Element("UIButton", role: .button))
            let label = root.insertChild(Element("UILabel", role: .label), at: labelPosition)
            let builder = ViewPathBuilder(style: .hubble)
            #expect(builder.path(for: label).text == "UIView(0)_UILabel(0)")
            #expect(builder.path(for: first).text == "UIView(0)_UIButton(0)")
            #expect(builder.path(for: second).text == "UIView(0)_UIButton(1)")
        }
    }

    @Test("hubble style: table and collection cells as (section: row:) and (section: item:)")
    func hubbleCells() {
        let root = Element("UIView")
        let table = root.addChild(Element("UITableView", role: .table))
        let cell = table.addChild(Element("MyTableViewCell", role: .tableCell, listPosition: ListPosition(section: 0, index: 7)))
        let collection = root.addChild(Element("UICollectionView", role: .collection))
        let item = collection.addChild(Element("MyCollectionViewCell", role: .collectionCell, listPosition: ListPosition(section: 0, index: 7)))
        let builder = ViewPathBuilder(style: .hubble)
        #expect(builder.path(for: cell).text == "UIView(0)_UITableView(0)_MyTableViewCell(section:0 row:7)")
        #expect(builder.path(for: item).text == "UIView(0)_UICollectionView(0)_MyCollectionViewCell(section:0 item:7)")
    }

    @Test("hubble style: navigation-bar buttons lose their index and are told apart by &actions(...)")
    func hubbleNavigationBar() {
        var roots: [Element] = [] // views hold their superviews weakly: keep the tops alive
        func bar(_ actionsInOrder: [String]) -> [Element] {
            let wrapper = Element("UIViewControllerWrapperView")
            roots.append(wrapper)
            let view = wrapper.addChild(Element("UIView"))
            let container = view.addChild(Element("UILayoutContainerView"))
            let navigationBar = container.addChild(Element("UINavigationBar", role: .navigationBar))
            return actionsInOrder.map { navigationBar.addChild(Element("UIButton", role: .button, actionNames: [$0])) }
        }
        let first = bar(["settingsClick:", "button1Click:", "button2Click:"])
        let second = bar(["settingsClick:", "button2Click:", "button1Click:"]) // reordered on another page
        let prefix = "path(UIViewControllerWrapperView(0)_UIView(0)_UILayoutContainerView(0)_UINavigationBar(0)_UIButton)"
        #expect(ElementIdentity(of: first[1], style: .hubble).descriptor == prefix + "&actions(button1Click:)")
        #expect(ElementIdentity(of: first[2], style: .hubble).descriptor == prefix + "&actions(button2Click:)")
        #expect(ElementIdentity(of: second[2], style: .hubble).elementID == ElementIdentity(of: first[1], style: .hubble).elementID,
                "the same action keeps its id wherever the button sits")
        #expect(ElementIdentity(of: first[1], style: .hubble).elementID != ElementIdentity(of: first[2], style: .hubble).elementID)
        #expect(roots.count == 2)
    }

    @Test("hubble style: page-container children as (indexx:N indexy:M) from centre and container size", arguments: 0..<4)
    func hubblePages(page: Int) {
        let container = Element("superview", role: .pageContainer, frame: Rect(x: 0, y: 64, width: 375, height: 603))
        // Pages are added in the order the user opened them: 0, 2, 3, 1.
        var pages: [Int: Element] = [:]
        for opened in [0, 2, 3, 1] {
            pages[opened] = container.addChild(
                Element("subControllerView", frame: Rect(x: Double(opened) * 375, y: 0, width: 375, height: 603)))
        }
        #expect(ViewPathBuilder(style: .hubble).path(for: pages[page]!).text == "superview(0)_subControllerView(indexx:\(page) indexy:0)")
    }

    @Test("hubble style: the alert action path with &controller(...)&message(...)&title(...)")
    func hubbleAlert() {
        let window = Element("UIWindow", role: .window)
        let alertView = window.addChild(Element("_UIAlertControllerView"))
        let level1 = alertView.addChild(Element("UIView"))
        let level2 = level1.addChild(Element("UIView"))
        let level3 = level2.addChild(Element("UIView"))
        let collection = level3.addChild(Element("UICollectionView", role: .collection))
        let cell = collection.addChild(
            Element("_UIAlertControllerCollectionViewCell", role: .collectionCell, listPosition: ListPosition(section: 0, index: 0)))
        let content = cell.addChild(Element("UIView", role: .cellContentView))
        let alert = AlertContext(controllerType: "UIAlertController", title: "退群", message: "確認退出群聊嗎？",
                                 actionTitle: "確定", actionStyle: "default")
        let action = content.addChild(Element("_UIAlertControllerActionView", role: .alertAction, alertContext: alert))
        #expect(ElementIdentity(of: action, style: .hubble).descriptor
            == "path(UIWindow(0)__UIAlertControllerView(0)_UIView(0)_UIView(0)_UIView(0)_UICollectionView(0)__UIAlertControllerCollectionViewCell(section:0 item:0)_UIView(0)__UIAlertControllerActionView(0))&controller(UIAlertController)&message(確認退出群聊嗎？)&title(退群)")
    }
}
