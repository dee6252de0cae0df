import Foundation

/// Time-decayed popularity as one number that can be indexed: for events of weight wᵢ at tᵢ,
/// the score at `now` is Σ wᵢ·e^(−(now−tᵢ)/τ) = e^(−now/τ) · Σ wᵢ·e^(tᵢ/τ). The second factor
/// does not depend on `now`, so its logarithm (`key`) orders posts by decayed score at any
/// instant, and an event adds to it with one log-sum-exp.
public enum Popularity {
    /// τ: a post's popularity halves in about five days (τ·ln 2).
    public static let decaySeconds: Double = 7 * 86_400

    /// The key after adding an event of `weight` (> 0) at `at` to `key` (nil: no events yet).
    public static func adding(weight: Double, at: Date, to key: Double?) -> Double {
        let term = log(max(weight, 1e-9)) + at.timeIntervalSince1970 / decaySeconds
        guard let key else { return term }
        let high = max(key, term)
        let low = min(key, term)
        return high + log1p(exp(low - high))
    }

    /// The decayed score a key stands for at `now`.
    public static func score(key: Double, now: Date) -> Double {
        exp(key - now.timeIntervalSince1970 / decaySeconds)
    }
}
