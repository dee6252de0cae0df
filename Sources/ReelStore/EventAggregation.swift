import Foundation
import ReelModels

/// For You's rules for what watch events leave behind, handed to the store with every call that
/// records or reads events by the service above it (ReelForYou's `ForYouRules`): the store keeps
/// the rows and runs them in its transactions, the ranking keeps the weights.
public protocol EventAggregation: Sendable {
    /// The new events' effects, each event with the facts of the post it names, gathered per row.
    func effects(of events: [(event: WatchEvent, post: EventPostFacts)]) -> EventEffects

    /// An affinity row after `additions`, folded in order onto the stored (score, instant).
    func affinity(stored: (score: Double, at: Date)?, adding additions: [EventEffects.Addition]) -> (score: Double, at: Date)?

    /// The affinity's decay time in seconds (an upsert that folds in SQL uses it): a score
    /// `s` at `t` is `s · exp((t − t') / affinityDecaySeconds)` at a later `t'`.
    var affinityDecaySeconds: Double { get }

    /// A popularity key (the log of a decayed score) after `additions`, folded in order onto the
    /// stored one. Keys combine by log-sum-exp, so an upsert may add two keys in SQL.
    func popularityKey(stored: Double?, adding additions: [EventEffects.Addition]) -> Double?

    /// Whether co-visitation learns from the event (its weight is above zero).
    func isPositive(_ event: WatchEvent) -> Bool

    /// The types `isPositive` can be true for (for some values): what a read of the log keeps.
    var positiveTypes: [EventType] { get }

    /// Upper edges of the length buckets, in seconds (the last bucket is everything longer).
    var lengthBucketEdges: [Double] { get }
}
