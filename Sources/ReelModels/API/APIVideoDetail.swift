import Foundation

/// `GET /api/v1/videos/{id}` (and `PUT`'s answer): the feed item plus what a detail sheet shows.
/// On the wire it is one flat object, the `APIVideo` keys and these beside them (captions are
/// the item's own `captions`, omitted when a post has none).
public struct APIVideoDetail: Codable, Sendable, Equatable {
    public struct CollectionRef: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String

        public init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }
    }

    public var video: APIVideo
    public var title: String
    public var libraryId: Int64
    public var collections: [CollectionRef]

    enum CodingKeys: String, CodingKey {
        case title
        case libraryId = "library_id"
        case collections
    }

    public init(video: APIVideo, title: String, libraryId: Int64, collections: [CollectionRef]) {
        self.video = video
        self.title = title
        self.libraryId = libraryId
        self.collections = collections
    }

    public init(from decoder: any Decoder) throws {
        video = try APIVideo(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        libraryId = try container.decode(Int64.self, forKey: .libraryId)
        collections = try container.decode([CollectionRef].self, forKey: .collections)
    }

    public func encode(to encoder: any Encoder) throws {
        try video.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(libraryId, forKey: .libraryId)
        try container.encode(collections, forKey: .collections)
    }

    /// What a post is called in grids and A–Z: the first line of its description, else its
    /// shortcode, else its folder name (docs/catalog-api.md).
    public static func title(description: String?, shortcode: String?, folderName: String) -> String {
        if let line = description?.split(whereSeparator: \.isNewline).lazy
            .map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { !$0.isEmpty }) {
            return line
        }
        if let shortcode, !shortcode.trimmingCharacters(in: .whitespaces).isEmpty { return shortcode }
        return folderName
    }
}

/// `PUT /api/v1/videos/{id}` body: absent (or null) fields are left as they are.
public struct APIVideoEditRequest: Codable, Sendable, Equatable {
    /// Empty clears the description.
    public var description: String?
    /// Replaces the tag set; empty removes every tag.
    public var tags: [String]?

    public init(description: String? = nil, tags: [String]? = nil) {
        self.description = description
        self.tags = tags
    }

    public static let maxDescriptionLength = 5000
    public static let maxTags = 50
}
