import Foundation
import ReelModels
import ReelRank
import ReelStore

/// For You's rules for what watch events leave behind (ReelRank's weights, folds and labels), as
/// the store asks for them while it records and reads events: the same functions `reelhouse
/// eval` measures, so the served feed ranks with what the offline numbers saw.
public struct ForYouRules: EventAggregation {
    public init() {}

    public func effects(of events: [(event: WatchEvent, post: EventPostFacts)]) -> EventEffects {
        var effects = EventEffects()
        for (event, post) in events {
            let weight = SignalWeights.weight(of: event)
            effects.addSignal(for: event) { $0.add(event) }
            if weight != 0 {
                for tag in post.tags { effects.addAffinity(.tag, key: tag, weight: weight, at: event.at) }
                if let name = post.uploaderName {
                    effects.addAffinity(.uploader, key: UploaderKey.key(name), weight: weight, at: event.at)
                }
            }
            if weight > 0 { effects.addPopularity(postID: event.postID, weight: weight, at: event.at) }
            switch event.type {
            case .notInterested: effects.hidePost(event.postID, at: event.at)
            case .hideUploader: if let name = post.uploaderName { effects.hideUploader(named: name, at: event.at) }
            default: break
            }
        }
        return effects
    }

    public func affinity(stored: (score: Double, at: Date)?, adding additions: [EventEffects.Addition]) -> (score: Double, at: Date)? {
        var state = stored
        for addition in additions {
            state = Affinity.updated(score: state?.score, at: state?.at, adding: addition.weight, now: addition.at)
        }
        return state
    }

    public var affinityDecaySeconds: Double { Affinity.decaySeconds }

    public func popularityKey(stored: Double?, adding additions: [EventEffects.Addition]) -> Double? {
        var key = stored
        for addition in additions { key = Popularity.adding(weight: addition.weight, at: addition.at, to: key) }
        return key
    }

    public func isPositive(_ event: WatchEvent) -> Bool {
        SignalWeights.weight(of: event) > 0
    }

    /// Probed through `SignalWeights` itself (a long view, a good rating), so the filter follows
    /// the weights.
    public var positiveTypes: [EventType] { Self.positiveTypes }

    private static let positiveTypes: [EventType] = EventType.allCases.filter { type in
        [(18_000, 18_000, 5), (2_000, 60_000, 4), (0, 1, 0)].contains { watched, duration, value in
            SignalWeights.weight(of: WatchEvent(postID: 1, type: type, at: .distantPast, watchedMs: watched, durationMs: duration, value: value)) > 0
        }
    }

    public var lengthBucketEdges: [Double] { LengthPrior.edges }
}
