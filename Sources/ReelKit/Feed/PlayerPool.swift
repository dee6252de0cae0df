/// A player a feed page can show: an `AVPlayer` behind an adapter in an app, a recording
/// double in tests. The pool never creates or destroys one; it only reassigns them. Players
/// belong to the UI, so slots live on the main actor.
@MainActor
public protocol PlayerSlot: AnyObject {
    associatedtype Item: Identifiable where Item.ID: Sendable
    /// Replace whatever the slot shows with `item` (paused, ready to play). Given the item it
    /// already shows (fresh signed URLs after an expiry), keep its playback position.
    func load(_ item: Item)
    func unload()
    func play()
    func pause()
}

/// Applies `WindowPlan`s to a fixed set of slots, on the main actor with the players.
@MainActor
public final class PlayerPool<Slot: PlayerSlot> {
    public let slots: [Slot]
    public private(set) var activeSlot: Int?
    public private(set) var contents: [Slot.Item.ID?]

    public init(slots: [Slot]) {
        self.slots = slots
        contents = Array(repeating: nil, count: slots.count)
    }

    /// Loads and unloads what changed, then plays only the active slot. `item` looks an ID
    /// up in the app's model; a slot whose item cannot be found is left empty.
    public func apply(_ plan: WindowPlan<Slot.Item.ID>, item: (Slot.Item.ID) -> Slot.Item?) {
        for change in plan.changes {
            switch change {
            case .load(let slot, let id) where slots.indices.contains(slot):
                if let value = item(id) {
                    slots[slot].load(value)
                    contents[slot] = id
                } else {
                    slots[slot].unload()
                    contents[slot] = nil
                }
            case .unload(let slot) where slots.indices.contains(slot):
                slots[slot].unload()
                contents[slot] = nil
            default: continue
            }
        }
        if let old = activeSlot, old != plan.activeSlot, slots.indices.contains(old) { slots[old].pause() }
        if let new = plan.activeSlot, slots.indices.contains(new), contents[new] != nil { slots[new].play() }
        activeSlot = plan.activeSlot
    }
}
