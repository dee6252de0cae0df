import Foundation

/// An item-to-item neighbour with its similarity.
public struct Neighbor: Sendable, Equatable {
    public var postID: Int64
    public var score: Double

    public init(postID: Int64, score: Double) {
        self.postID = postID
        self.score = score
    }
}
