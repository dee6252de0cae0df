import Foundation
import ReelModels

/// How much one interaction says about a person's taste: positive for long views, likes,
/// favorites, good ratings, downloads and shares; negative for skips, unlikes and "not
/// interested"; zero for impressions; a partial view by the share watched. The stored `label` of a (person, post) and the profile's
/// affinities are sums of these. (Placeholder weights: ReelRank's owner tunes them on eval.)
public enum SignalWeights {
    public static func weight(of interaction: WatchEvent) -> Double {
        switch interaction.type {
        case .impression: 0
        case .view:
            if let watched = interaction.watchedMs, let duration = interaction.durationMs, duration > 0 {
                if WatchLabel.isLongView(watchedMs: watched, durationMs: duration) {
                    1
                } else {
                    // A view that is not a long one says little, and how much depends on the
                    // share of the post watched, not its seconds (so long posts do not win by
                    // length): centred so that an average partial watch adds about nothing.
                    // A fixed reward for any view ≥ 2 s made whatever was shown most look liked
                    // (the simulator's neutral tags outgrew the liked ones).
                    0.6 * min(1, Double(watched) / Double(duration)) - 0.2
                }
            } else {
                0
            }
        case .skip: -0.5
        case .like, .favorite: 2
        case .unlike, .unfavorite: -2
        case .rating: Double((interaction.value ?? 0) - 3) * 0.75
        case .download, .share: 1.5
        case .notInterested: -4
        case .hideUploader: -4
        }
    }

    /// Whether the interaction is explicit approval (reason "because you liked …").
    public static func isExplicit(_ interaction: WatchEvent) -> Bool {
        switch interaction.type {
        case .like, .favorite, .download, .share: true
        case .rating: (interaction.value ?? 0) >= 4
        default: false
        }
    }
}
