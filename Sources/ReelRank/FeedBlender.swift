import Foundation

/// The last step of a For You page: ranked candidates interleaved with exploration (about
/// `exploreShare` of the slots go to posts outside the profile: new, unseen, rarely shown),
/// never two posts of one uploader in a row, and no tag taking over the page.
///
/// Each slot first decides its source (explore whenever the page is behind its share, so the
/// explore items are spread through the page rather than bunched at its end), then takes that
/// source's best item that keeps the rules; when none does, the other source's best that does;
/// only when no item anywhere keeps them are the rules relaxed (tag cap first, then uploader),
/// so a page is never cut short by them.
public struct FeedBlender: Sendable {
    public var exploreShare = 0.3
    /// No tag on more than this share of a page's items (when other items exist).
    public var maxTagShare = 0.4

    public init(exploreShare: Double = 0.3, maxTagShare: Double = 0.4) {
        self.exploreShare = exploreShare
        self.maxTagShare = maxTagShare
    }

    /// `previousUploader`: the uploader of the item just before this page (the cursor keeps it).
    public func blend(ranked: [ScoredCandidate], explore: [ScoredCandidate], limit: Int, previousUploader: String?) -> [ScoredCandidate] {
        guard limit > 0 else { return [] }
        var pools = [ranked, explore]
        var page: [ScoredCandidate] = []
        var used = Set<Int64>()
        var tagCounts: [String: Int] = [:]
        var lastUploader = previousUploader
        var explored = 0
        let tagCap = max(1, Int((maxTagShare * Double(limit)).rounded(.down)))

        func keepsUploaderRule(_ item: ScoredCandidate) -> Bool {
            item.candidate.uploader == nil || item.candidate.uploader != lastUploader
        }
        func keepsTagCap(_ item: ScoredCandidate) -> Bool {
            Set(item.candidate.tags).allSatisfy { tagCounts[$0, default: 0] < tagCap }
        }
        let rules: [(ScoredCandidate) -> Bool] = [
            { keepsUploaderRule($0) && keepsTagCap($0) },
            { keepsUploaderRule($0) },
            { _ in true },
        ]

        while page.count < limit {
            let behind = Double(explored) < exploreShare * Double(page.count + 1) - 0.5
            let preferred = behind ? 1 : 0
            var pick: (pool: Int, index: Int)?
            search: for rule in rules {
                for pool in [preferred, 1 - preferred] {
                    if let index = pools[pool].firstIndex(where: { !used.contains($0.candidate.postID) && rule($0) }) {
                        pick = (pool, index)
                        break search
                    }
                }
            }
            guard let pick else { break }
            let chosen = pools[pick.pool].remove(at: pick.index)
            if pick.pool == 1 { explored += 1 }
            used.insert(chosen.candidate.postID)
            lastUploader = chosen.candidate.uploader
            for tag in Set(chosen.candidate.tags) { tagCounts[tag, default: 0] += 1 }
            page.append(chosen)
        }
        return page
    }
}
