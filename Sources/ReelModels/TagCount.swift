/// A tag (or flag) with its stable id, so clients can link to `?tag=<id>` and a later change of
/// the tag's spelling does not break their links. `count` is how many ready posts carry it
/// where a count is meaningful (the tag cloud), and 0 where it is only a reference on a post.
public struct TagCount: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var count: Int

    public init(id: Int64, name: String, count: Int) {
        self.id = id
        self.name = name
        self.count = count
    }
}
