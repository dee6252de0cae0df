/// The pure part of the shuffled feed, shared by every store implementation.
///
/// Every post carries `keyCount` independent random 63-bit keys, fixed at insert. Sorting by
/// one key column is a uniformly random permutation of the library; starting that sorted order
/// at a random offset and wrapping round (optionally walking it backwards) gives a rotation of
/// it. An epoch picks one such (column, offset, direction) from (seed, epoch) alone, so:
/// - an epoch is a keyset walk over an index: O(log n) to find a page, no OFFSET, no random();
/// - no post repeats within an epoch, whatever is inserted or deleted meanwhile, because keys
///   never change and the walk only moves forward;
/// - consecutive epochs always use different columns (`column` advances by one per epoch), so
///   the next walk is an independent permutation, not the same one shifted.
public enum FeedShuffle {
    /// How many key columns each post has.
    public static let keyCount = 8

    /// How one epoch orders the library.
    public struct EpochOrder: Sendable, Equatable {
        /// Which key column (0 ..< keyCount).
        public var column: Int
        /// Phase 0 covers keys ≥ start when ascending (keys < start when descending); phase 1
        /// the rest.
        public var start: Int64
        public var descending: Bool

        public init(column: Int, start: Int64, descending: Bool) {
            self.column = column
            self.start = start
            self.descending = descending
        }
    }

    public static func order(seed: UInt64, epoch: Int) -> EpochOrder {
        let epochBits = UInt64(bitPattern: Int64(epoch))
        let column = Int((mix(seed) &+ epochBits) % UInt64(keyCount))
        let hash = mix(seed ^ mix(epochBits &+ 0x632B_E59B_D9B4_E019))
        return EpochOrder(column: column, start: Int64(hash >> 1), descending: (mix(hash) & 1) == 1)
    }

    /// Fresh keys for a new post: uniform over 0 ... Int64.max.
    public static func randomKeys<Generator: RandomNumberGenerator>(using generator: inout Generator) -> [Int64] {
        (0..<keyCount).map { _ in Int64.random(in: 0 ... Int64.max, using: &generator) }
    }

    public static func randomKeys() -> [Int64] {
        var generator = SystemRandomNumberGenerator()
        return randomKeys(using: &generator)
    }

    /// SplitMix64's finaliser: a cheap bijection whose output bits all depend on every input
    /// bit, so neighbouring seeds and epochs give unrelated orders.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
