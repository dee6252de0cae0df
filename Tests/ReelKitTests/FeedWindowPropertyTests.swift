import ReelKit
import Testing

/// SplitMix64: a tiny seeded generator, so a failing sequence can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct FeedWindowPropertyTests {
    enum Step: CustomStringConvertible {
        case swipe(Int), flick(Int), settle, jump(Int), remove, page(Int), pageFails
        var description: String {
            switch self {
            case .swipe(let d): "swipe(\(d))"
            case .flick(let d): "flick(\(d))"
            case .settle: "settle"
            case .jump(let i): "jump(\(i))"
            case .remove: "remove"
            case .page(let n): "page(\(n))"
            case .pageFails: "pageFails"
            }
        }
    }

    static func randomStep(_ rng: inout SeededGenerator) -> Step {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<45: .swipe(Bool.random(using: &rng) ? 1 : -1)
        case 45..<60: .flick(Int.random(in: -4...6, using: &rng))
        case 60..<67: .settle
        case 67..<72: .jump(Int.random(in: 0..<200, using: &rng))
        case 72..<80: .remove
        case 80..<95: .page(Int.random(in: 0...8, using: &rng))
        default: .pageFails
        }
    }

    /// Random sessions of swipes, flicks, jumps, removals and pages (with repeats from a
    /// small id space) must keep the pool's invariants after every single step.
    @Test(arguments: Array(UInt64(1)...UInt64(40)))
    func invariantsHoldForRandomSessions(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let poolSize = Int.random(in: 1...5, using: &rng)
        var window = FeedWindow<Int>(configuration: FeedWindowConfiguration(poolSize: poolSize, dedupeHorizon: 30))
        var slots: [Int?] = Array(repeating: nil, count: poolSize)
        var outstandingPage = false
        var history: [String] = []

        func check(_ plan: WindowPlan<Int>, _ step: String) {
            history.append(step)
            let context = "seed \(seed), steps \(history.suffix(8))"
            // Applying the changes to what the slots held gives what the plan says they hold.
            for change in plan.changes {
                switch change {
                case .load(let slot, let id):
                    #expect(slots[slot] != id, "reloaded an item its slot already shows (\(context))")
                    slots[slot] = id
                case .unload(let slot): slots[slot] = nil
                }
            }
            #expect(slots == plan.slots, "changes do not add up to the plan (\(context))")
            #expect(plan.slots.count == poolSize, "the pool changed size (\(context))")
            let shown = plan.slots.compactMap { $0 }
            #expect(shown.count == Set(shown).count, "an item is in two slots (\(context))")
            #expect(shown.allSatisfy(window.items.contains), "a slot shows an item that left the feed (\(context))")
            if let current = plan.current {
                #expect(plan.activeSlot.map { plan.slots[$0] } == current, "the current item has no player (\(context))")
            } else {
                #expect(window.items.isEmpty && plan.activeSlot == nil, "(\(context))")
            }
            #expect(!plan.prefetch.contains { $0 == plan.current }, "prefetching what is on screen (\(context))")
            if plan.requestNextPage {
                #expect(!outstandingPage, "asked for a page twice (\(context))")
                outstandingPage = true
            }
        }

        check(window.start(), "start")
        for _ in 0..<300 {
            let step = Self.randomStep(&rng)
            switch step {
            case .swipe(let delta): check(window.move(to: window.currentIndex + delta), "\(step)")
            case .flick(let delta): check(window.move(to: window.currentIndex + delta, settled: false), "\(step)")
            case .settle: check(window.move(to: window.currentIndex), "\(step)")
            case .jump(let index): check(window.move(to: index), "\(step)")
            case .remove:
                guard !window.items.isEmpty else { continue }
                let id = window.items[Int.random(in: 0..<window.items.count, using: &rng)]
                check(window.remove(id), "\(step) \(id)")
            case .page(let count):
                guard outstandingPage else { continue }
                outstandingPage = false
                let page = (0..<count).map { _ in Int.random(in: 0..<60, using: &rng) }
                check(window.append(page: page, hasMore: true), "\(step) \(page)")
            case .pageFails:
                guard outstandingPage else { continue }
                outstandingPage = false
                window.pageFailed()
            }
        }
    }
}
