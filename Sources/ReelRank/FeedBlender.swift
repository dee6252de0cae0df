import Foundation

/// The last step of a For You page: ranked candidates interleaved with exploration (about
/// `exploreShare` of the slots go to posts outside the profile: new, unseen, rarely shown),
/// never two posts of one uploader in a row, and no tag taking over the page.
/// (Baseline body; ReelRank's owner refines it.)
public struct FeedBlender: Sendable {
    public var exploreShare = 0.3

    public init(exploreShare: Double = 0.3) {
        self.exploreShare = exploreShare
    }

    /// `previousUploader`: the uploader of the item just before this page (the cursor keeps it).
    public func blend(ranked: [ScoredCandidate], explore: [ScoredCandidate], limit: Int, previousUploader: String?) -> [ScoredCandidate] {
        var ranked = ranked[...]
        var explore = explore[...]
        var page: [ScoredCandidate] = []
        var used = Set<Int64>()
        var lastUploader = previousUploader
        var explored = 0
        while page.count < limit, !(ranked.isEmpty && explore.isEmpty) {
            let wantExplore = Double(explored) < exploreShare * Double(page.count + 1) - 0.5 || ranked.isEmpty
            let pickFromExplore = wantExplore && !explore.isEmpty
            var source = pickFromExplore ? explore : ranked
            guard let index = source.firstIndex(where: { !used.contains($0.candidate.postID) && ($0.candidate.uploader == nil || $0.candidate.uploader != lastUploader) })
                ?? source.firstIndex(where: { !used.contains($0.candidate.postID) }) else {
                if pickFromExplore { explore = [] } else { ranked = [] }
                continue
            }
            let chosen = source[index]
            source.remove(at: index)
            if pickFromExplore { explore = source; explored += 1 } else { ranked = source }
            used.insert(chosen.candidate.postID)
            lastUploader = chosen.candidate.uploader
            page.append(chosen)
        }
        return page
    }
}
