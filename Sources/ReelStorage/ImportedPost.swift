/// The post a generation or an upload became, and the jobs that make its media.
public struct ImportedPost: Codable, Sendable, Equatable {
    public var postID: Int64
    public var jobIDs: [Int64]

    public init(postID: Int64, jobIDs: [Int64]) {
        self.postID = postID
        self.jobIDs = jobIDs
    }
}
