import Foundation
import ReelModels

/// For You's real path over an offline log, exactly as the server runs it for one person:
/// `ProfileBuilder` over their training interactions, `CoVisitation` neighbours over everyone's
/// (positive histories, as the `recs.neighbors` job builds them), candidates = neighbours of the
/// anchors (`NeighborCandidates`) + the most popular (time-decayed `Popularity`), minus what
/// they met, scored by `ForYouScorer`; with exploration on, `FeedBlender` makes the page.
struct OursModel {
    var coVisitation = CoVisitation()
    var neighborCandidates = NeighborCandidates()
    var scorer = ForYouScorer()
    var profileBuilder = ProfileBuilder()
    /// Popular candidates added for everyone (what cold start serves).
    var popularCandidates = 50
    var exploreCandidates = 50

    struct Pages {
        var ranked: [Int64: [Int64]] = [:]
        var explored: [Int64: [Int64]] = [:]
    }

    func pages(_ data: EvalData, k: Int, seed: UInt64) -> Pages {
        var byUser: [Int64: [WatchEvent]] = [:]
        for entry in data.split.train { byUser[entry.userID, default: []].append(contentsOf: entry.events) }
        let neighbors = coVisitation.neighbors(histories: ProfileBuilder.positiveHistories(byUser))

        let now = Date(timeIntervalSince1970: data.split.trainEnd)
        var popularityKey: [Int64: Double] = [:]
        var trainCount: [Int64: Int] = [:]
        for interactions in byUser.values {
            for interaction in interactions {
                let weight = SignalWeights.weight(of: interaction)
                if weight > 0 { popularityKey[interaction.postID] = Popularity.adding(weight: weight, at: interaction.at, to: popularityKey[interaction.postID]) }
            }
        }
        for entry in data.split.train { trainCount[entry.itemID, default: 0] += 1 }
        let popularity = popularityKey.mapValues { Popularity.score(key: $0, now: now) }
        let popularFirst = popularity.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let explorePool = Self.rarelyMet(catalogue: data.catalogue, trainCount: trainCount)

        var generator = SeededGenerator(seed: seed)
        var pages = Pages()
        for user in data.testUsers {
            let interactions = byUser[user] ?? []
            let userNow = interactions.map(\.at).max() ?? now
            let profile = profileBuilder.build(events: interactions, now: userNow)
            let seen = Set(interactions.map(\.postID))
            let fromNeighbors = neighborCandidates.scores(profile: profile, exclude: seen) { neighbors[$0] ?? [] }

            var candidateIDs = Set(fromNeighbors.keys)
            for postID in popularFirst.lazy.filter({ !seen.contains($0) }).prefix(popularCandidates) { candidateIDs.insert(postID) }
            let topPopularity = candidateIDs.map { popularity[$0] ?? 0 }.max() ?? 0
            let candidates = candidateIDs.map { postID in
                let neighbor = fromNeighbors[postID]
                var sources: Set<CandidateSource> = neighbor == nil ? [] : [.neighbor]
                if (popularity[postID] ?? 0) > 0 { sources.insert(.popular) }
                return Candidate(
                    postID: postID, uploader: nil, tags: [], addedAt: .distantPast,
                    popularity: topPopularity > 0 ? (popularity[postID] ?? 0) / topPopularity : 0,
                    neighborScore: neighbor?.score ?? 0, strongestAnchor: neighbor?.strongestAnchor, sources: sources
                )
            }
            let ranked = scorer.rank(candidates, profile: profile, now: userNow)
            pages.ranked[user] = ranked.prefix(k).map(\.candidate.postID)

            let explore = explorePool.filter { !seen.contains($0) && !candidateIDs.contains($0) }
                .shuffled(using: &generator).prefix(exploreCandidates)
                .map { ScoredCandidate(candidate: Candidate(postID: $0, uploader: nil, tags: [], addedAt: .distantPast, sources: [.explore]), score: 0, reason: .explore) }
            let page = FeedBlender().blend(ranked: Array(ranked.prefix(k)), explore: Array(explore), limit: k, previousUploader: nil)
            pages.explored[user] = page.map(\.candidate.postID)
        }
        return pages
    }

    /// "Rarely shown" offline: the items met by at most the median number of people in training
    /// (items never met included) — where a person's next discovery would have to come from.
    static func rarelyMet(catalogue: [Int64], trainCount: [Int64: Int]) -> [Int64] {
        let counts = catalogue.map { trainCount[$0] ?? 0 }.sorted()
        let median = counts.isEmpty ? 0 : counts[counts.count / 2]
        return catalogue.filter { (trainCount[$0] ?? 0) <= median }
    }
}
