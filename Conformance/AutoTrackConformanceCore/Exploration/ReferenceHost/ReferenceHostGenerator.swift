import AutoTrackEvents

/// Generates sessions over the whole vocabulary of ``ReferenceHostStep``, keeping a model
/// of what the session has built so that every step refers to something that exists
/// and is reachable (a tap lands on the list screen only while it is on top, a row is
/// in range). Installs, uninstalls and tracking switches fall anywhere, mid-session
/// included.
///
/// Each session draws its own weights for the kinds of step (swarm testing): one
/// session builds many tables and selects rows, another toggles the SDK between taps.
/// Sessions that leave some kinds out altogether reach deep combinations — two
/// delegates of related classes, an alert made before an uninstall and answered after
/// it — that uniform weights make rare.
struct ReferenceHostGenerator {
    /// Weights of the kinds of step: building, user actions, programmatic calls,
    /// mutations, SDK operations.
    private var categoryWeights: [Int] = []
    /// Weights of what is built: buttons, closure buttons, raising buttons, nested
    /// buttons, gesture views, tables, defined classes.
    private var buildWeights: [Int] = []
    /// Weights of user actions: taps, gesture taps, presses and pans, selections,
    /// alerts, navigation, background.
    private var actionWeights: [Int] = []
    private var buttons: [Bool] = []       // alive, by index
    private var gestureViews = 0
    private var tableRows: [Int] = []
    private var definedClasses = 0
    private var definedScreens = 0
    private var otherLibraryStyles: Set<ReferenceHostStep.OtherLibraryStyle> = []
    private var screensAbove = 0            // pushed above the list screen
    private var settingsPushed = false
    private var modalPresented = false
    private var alertPrepared = false
    private var inBackground = false

    static let titles = ["Buy", "Pay now", "Share", "Go", "Next", "OK"]

    mutating func generate(length: Int, using random: inout SplitMix64) -> [ReferenceHostStep] {
        categoryWeights = [Int.random(in: 1...5, using: &random), Int.random(in: 1...6, using: &random), Int.random(in: 0...2, using: &random),
                           Int.random(in: 0...4, using: &random), Int.random(in: 0...4, using: &random)]
        buildWeights = (0..<7).map { _ in Int.random(in: 0...3, using: &random) }
        actionWeights = (0..<9).map { _ in Int.random(in: 0...3, using: &random) }
        var steps: [ReferenceHostStep] = Bool.random(using: &random) ? [.usePathStyle(.hubble)] : []
        // Most sessions set the SDK up before the app builds its UI, as apps do; the
        // rest install later, in the middle of whatever the app is doing.
        let installAt = (Int.random(in: 0..<100, using: &random) < 65 ? 0 : Int.random(in: 0..<max(1, length), using: &random)) + steps.count
        var misses = 0
        while steps.count < length {
            if steps.count == installAt {
                steps.append(.install)
                continue
            }
            if let step = next(using: &random) {
                steps.append(step)
                misses = 0
            } else {
                // The weights drawn can leave nothing to do (every kind that is left
                // has nothing to act on): the app goes to the background and back.
                misses += 1
                if misses == 32 {
                    steps.append(.background)
                    inBackground = true
                    misses = 0
                }
            }
        }
        return steps
    }

    private var aliveButtons: [Int] { buttons.indices.filter { buttons[$0] } }

    /// One step, or `nil` when the category drawn has nothing to act on yet.
    private mutating func next(using random: inout SplitMix64) -> ReferenceHostStep? {
        if inBackground {
            inBackground = false
            return .foreground
        }
        let onList = screensAbove == 0 && !modalPresented
        switch Self.pick(categoryWeights, using: &random) {
        case 0: return build(using: &random)
        case 1: return userAction(onList: onList, using: &random)
        case 2:
            guard let button = aliveButtons.randomElement(using: &random) else { return nil }
            return Bool.random(using: &random) ? .sendActions(button: button) : .callAction(button: button)
        case 3: return mutation(using: &random)
        default:
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return .install
            case 1: return .uninstall
            case 2:
                let style: ReferenceHostStep.OtherLibraryStyle = Bool.random(using: &random) ? .exchange : .replace
                guard otherLibraryStyles.insert(style).inserted else { return nil }
                return .otherLibraryHooks(style)
            default: return .setTracking(Bool.random(using: &random))
            }
        }
    }

    /// An index drawn with the given weights (uniform when they are all 0).
    static func pick(_ weights: [Int], using random: inout SplitMix64) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0 else { return Int.random(in: 0..<weights.count, using: &random) }
        var drawn = Int.random(in: 0..<total, using: &random)
        for (index, weight) in weights.enumerated() {
            if drawn < weight { return index }
            drawn -= weight
        }
        return weights.count - 1
    }

    private mutating func build(using random: inout SplitMix64) -> ReferenceHostStep? {
        let title = Self.titles.randomElement(using: &random)!
        switch Self.pick(buildWeights, using: &random) {
        case 0:
            guard buttons.count < 6 else { return nil }
            buttons.append(true)
            return .addButton(title: title, targets: Int.random(in: 0...3, using: &random))
        case 1:
            guard buttons.count < 6 else { return nil }
            buttons.append(true)
            return .addClosureButton(title: title)
        case 2:
            guard buttons.count < 6 else { return nil }
            buttons.append(true)
            return .addThrowingButton(title: title)
        case 3:
            guard buttons.count < 6, let inner = aliveButtons.randomElement(using: &random) else { return nil }
            buttons.append(true)
            return .addNestedButton(title: title, inner: inner)
        case 4:
            guard gestureViews < 4 else { return nil }
            gestureViews += 1
            return .addGesture([.tap, .tap, .longPress, .pan].randomElement(using: &random)!)
        case 5:
            guard tableRows.count < 3 else { return nil }
            let rows = Int.random(in: 2...6, using: &random)
            tableRows.append(rows)
            return .addTable(rows: rows, delegate: delegate(using: &random))
        default:
            if Bool.random(using: &random) {
                guard definedScreens < 3 else { return nil }
                definedScreens += 1
                return .defineScreen(callsSuper: Bool.random(using: &random))
            }
            guard definedClasses < 3 else { return nil }
            definedClasses += 1
            return .defineDelegateSubclass(callsSuper: Bool.random(using: &random))
        }
    }

    private mutating func userAction(onList: Bool, using random: inout SplitMix64) -> ReferenceHostStep? {
        switch Self.pick(actionWeights, using: &random) {
        case 0:
            guard onList, let button = aliveButtons.randomElement(using: &random) else { return nil }
            return .tap(button: button)
        case 1:
            guard onList, gestureViews > 0 else { return nil }
            return .tapGesture(view: Int.random(in: 0..<gestureViews, using: &random))
        case 2:
            guard onList, gestureViews > 0 else { return nil }
            let view = Int.random(in: 0..<gestureViews, using: &random)
            let changes = Int.random(in: 0...3, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .pan(view: view)
            case 1:
                let interruptions: [ReferenceHostStep.Interruption] = [.install, .uninstall, .trackingOff, .trackingOn]
                return .longPressAround(view: view, changes: changes, interruptions.randomElement(using: &random)!)
            default: return .longPress(view: view, changes: changes)
            }
        case 3:
            guard onList, let table = tableRows.indices.randomElement(using: &random) else { return nil }
            return .select(table: table, row: Int.random(in: 0..<tableRows[table], using: &random))
        case 4:
            guard onList else { return nil }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                alertPrepared = true
                return .prepareAlert
            case 1 where alertPrepared:
                alertPrepared = false
                return .answerPreparedAlert(action: Int.random(in: 0...1, using: &random))
            default:
                return .answerAlert(action: Int.random(in: 0...1, using: &random))
            }
        case 5:
            if modalPresented {
                modalPresented = false
                return .dismissModal
            }
            if definedScreens > 0, Int.random(in: 0..<4, using: &random) == 0 {
                modalPresented = true
                return .presentDefinedScreen(Int.random(in: 0..<definedScreens, using: &random))
            }
            if screensAbove > 0, screensAbove == 3 || Bool.random(using: &random) {
                screensAbove -= 1
                if screensAbove == 0 { settingsPushed = false }
                return .pop
            }
            if definedScreens > 0, settingsPushed || Bool.random(using: &random) {
                screensAbove += 1
                return .pushDefinedScreen(Int.random(in: 0..<definedScreens, using: &random))
            }
            guard !settingsPushed else { return nil }
            settingsPushed = true
            screensAbove += 1
            return .pushSettings
        case 6:
            guard onList else { return nil }
            return .tapInShop(ReferenceHostStep.ShopTarget.allCases.randomElement(using: &random)!)
        case 7:
            return Bool.random(using: &random)
                ? .openLink(Int.random(in: 0..<ReferenceHostStep.links.count, using: &random))
                : .openNotification(dismissed: Int.random(in: 0..<4, using: &random) == 0)
        default:
            inBackground = true
            return .background
        }
    }

    private mutating func mutation(using random: inout SplitMix64) -> ReferenceHostStep? {
        switch Int.random(in: 0..<10, using: &random) {
        case 8: return .reorderShop
        case 9: return .toggleShopPromotion
        case 6:
            guard let button = aliveButtons.randomElement(using: &random) else { return nil }
            return .unmarkIgnored(button: button)
        case 7:
            guard let table = tableRows.indices.randomElement(using: &random) else { return nil }
            return .relabelRows(table: table, prefix: ["Item", "Row", "Deal"].randomElement(using: &random)!)
        case 0:
            guard let button = aliveButtons.randomElement(using: &random) else { return nil }
            return .rename(button: button, title: Self.titles.randomElement(using: &random)! + "!")
        case 1:
            guard let button = aliveButtons.randomElement(using: &random) else { return nil }
            buttons[button] = false
            return .remove(button: button)
        case 2:
            guard gestureViews > 1 else { return nil }
            let from = Int.random(in: 0..<gestureViews, using: &random)
            let to = (from + Int.random(in: 1..<gestureViews, using: &random)) % gestureViews
            return .moveGestures(from: from, to: to)
        case 3:
            guard let table = tableRows.indices.randomElement(using: &random) else { return nil }
            return .setDelegate(table: table, delegate(using: &random))
        case 4:
            guard let table = tableRows.indices.randomElement(using: &random) else { return nil }
            return .reload(table: table)
        default:
            guard let button = aliveButtons.randomElement(using: &random) else { return nil }
            return .markIgnored(button: button)
        }
    }

    private func delegate(using random: inout SplitMix64) -> ReferenceHostStep.DelegateChoice {
        var choices: [ReferenceHostStep.DelegateChoice] = [.plain, .plain, .subclass, .subclass, .listScreen, .none, .bare, .raising, .deep]
        if definedClasses > 0 { choices.append(.defined(Int.random(in: 0..<definedClasses, using: &random))) }
        return choices.randomElement(using: &random)!
    }
}
