/// A first-in, first-out queue of keys over one growable ring buffer: append and pop are O(1),
/// and nothing is ever moved but on growth (which doubles, so it is rare and amortized).
@usableFromInline
struct KeyRing<Key> {
    @usableFromInline var storage: [Key?] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable mutating func append(_ key: Key) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = key
        count += 1
    }

    @inlinable mutating func popFirst() -> Key? {
        guard count > 0 else { return nil }
        let key = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return key
    }

    /// Keeps, in order, the keys `keep` says yes to.
    @inlinable mutating func filter(_ keep: (Key) -> Bool) {
        var kept = KeyRing()
        while let key = popFirst() {
            if keep(key) { kept.append(key) }
        }
        self = kept
    }

    @inlinable mutating func removeAll() {
        self = KeyRing()
    }

    @inlinable mutating func grow() {
        var larger = [Key?](repeating: nil, count: max(16, storage.count * 2))
        for offset in 0..<count { larger[offset] = storage[(head + offset) % storage.count] }
        storage = larger
        head = 0
    }
}
