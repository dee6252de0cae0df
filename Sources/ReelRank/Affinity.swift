import Foundation

/// A profile's tag and uploader scores as exponentially decayed sums: the score of weights wᵢ
/// added at tᵢ is Σ wᵢ·e^(−(now−tᵢ)/τ). Stored as (score, updated_at): the sum as of the latest
/// event added, so one update needs only that row, and events that arrive out of order (a
/// client flushes late) add exactly what they would have added in order. The store updates it on
/// every event; For You reads it through `score(_:at:now:)`; eval builds profiles the same way.
public enum Affinity {
    /// τ: an interest halves in about three weeks (τ·ln 2) without new events.
    public static let decaySeconds: Double = 30 * 86_400

    /// The stored pair after adding `weight` at `now` to `score` as of `at` (nil: no row yet).
    /// An event older than the row is decayed to the row's time instead of moving it back.
    public static func updated(score: Double?, at: Date?, adding weight: Double, now: Date) -> (score: Double, at: Date) {
        guard let score, let at else { return (weight, now) }
        if now >= at {
            return (score * decay(now.timeIntervalSince(at)) + weight, now)
        }
        return (score + weight * decay(at.timeIntervalSince(now)), at)
    }

    /// The decayed value at `now` of a score stored as of `at`.
    public static func score(_ score: Double, at: Date, now: Date) -> Double {
        score * decay(max(0, now.timeIntervalSince(at)))
    }

    private static func decay(_ seconds: TimeInterval) -> Double {
        exp(-seconds / decaySeconds)
    }
}
