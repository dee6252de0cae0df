import Foundation

/// How a post's length changes its chance of a long view here, learned from everyone's watching.
///
/// The label is KuaiRand's (`WatchLabel`): a complete watch of a post up to 18 s, or 18 s of a
/// longer one. Under it a 7 s clip and a 50 s film are not equally likely to be long-viewed by
/// the same person in the same mood, so a ranker that predicts long views has to know length;
/// one that ignores it ranks as if every post were the library's average length. The prior is
/// the long-view rate of each length bucket over the whole library's judged views (views and
/// skips), shrunk towards the overall rate so a bucket with little evidence says little, as a
/// lift: 1 = average, 1.4 = posts of this length are long-viewed 40 % more often than average.
///
/// Affinities stay length-neutral (`WatchLabel` normalises the watch ratio by length); this is
/// the one place length enters, as a measured rate, never as a preference written in the code.
public struct LengthPrior: Sendable, Equatable {
    /// Upper edges of the buckets, in seconds (the last bucket is everything longer). 18 s is
    /// the label's own edge.
    public static let edges: [Double] = [6, 9, 13, 18, 30, 60, 120]
    public static var bucketCount: Int { edges.count + 1 }
    /// Pseudo-views at the overall rate added to every bucket (the shrinkage).
    public static let priorWeight = 50.0
    /// Lifts stay within these bounds: one length never decides a page alone.
    public static let liftRange: ClosedRange<Double> = 0.5...2.0

    public struct Bucket: Sendable, Equatable {
        public var judged: Int
        public var longViews: Int
        public init(judged: Int, longViews: Int) {
            self.judged = judged
            self.longViews = longViews
        }
    }

    /// Evidence per bucket, `bucketCount` of them.
    public let buckets: [Bucket]
    /// The long-view rate over every bucket; nil without evidence. Summed once here: `lift` runs
    /// for every candidate of every For You page.
    private let overallRate: Double?

    public init(buckets: [Bucket]) {
        var buckets = Array(buckets.prefix(Self.bucketCount))
        buckets += Array(repeating: Bucket(judged: 0, longViews: 0), count: Self.bucketCount - buckets.count)
        self.buckets = buckets
        let judged = buckets.reduce(0) { $0 + $1.judged }
        let longViews = buckets.reduce(0) { $0 + $1.longViews }
        overallRate = judged > 0 && longViews > 0 ? Double(longViews) / Double(judged) : nil
    }

    /// No evidence: every lift is 1.
    public static let neutral = LengthPrior(buckets: [])

    /// The bucket of a length in seconds (`edges` are inclusive upper bounds).
    public static func bucket(seconds: Double) -> Int {
        edges.firstIndex { seconds <= $0 } ?? edges.count
    }

    /// The long-view rate of a post of this length relative to the overall rate; 1 without a
    /// length or without evidence.
    public func lift(seconds: Double?) -> Double {
        guard let seconds, seconds > 0, let overall = overallRate else { return 1 }
        let bucket = buckets[Self.bucket(seconds: seconds)]
        let rate = (Double(bucket.longViews) + Self.priorWeight * overall) / (Double(bucket.judged) + Self.priorWeight)
        return min(Self.liftRange.upperBound, max(Self.liftRange.lowerBound, rate / overall))
    }
}
