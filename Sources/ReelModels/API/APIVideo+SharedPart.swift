import Foundation

extension APIVideo {
    /// Every field of an item except the viewer's own (`is_favorited`, `rating`, `position`):
    /// the part that is the same for every viewer while the post and its token window stay the
    /// same, so a server can encode it once and append the viewer's fields per request.
    /// Encodes with the same keys and rules as `APIVideo` itself (nil optionals are omitted);
    /// `ViewerFields` writes the rest.
    public struct SharedPart: Encodable {
        public let video: APIVideo

        public init(_ video: APIVideo) {
            self.video = video
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(video.id, forKey: .id)
            try container.encode(video.folderName, forKey: .folderName)
            try container.encodeIfPresent(video.description, forKey: .description)
            try container.encode(video.tags, forKey: .tags)
            try container.encode(video.flags, forKey: .flags)
            try container.encodeIfPresent(video.shortcode, forKey: .shortcode)
            try container.encodeIfPresent(video.datePosted, forKey: .datePosted)
            try container.encodeIfPresent(video.uploader, forKey: .uploader)
            try container.encodeIfPresent(video.username, forKey: .username)
            try container.encodeIfPresent(video.dateAdded, forKey: .dateAdded)
            try container.encode(video.kind, forKey: .kind)
            try container.encodeIfPresent(video.sourceUrl, forKey: .sourceUrl)
            try container.encodeIfPresent(video.duration, forKey: .duration)
            try container.encode(video.width, forKey: .width)
            try container.encode(video.height, forKey: .height)
            try container.encode(video.media, forKey: .media)
            if let captions = video.captions, !captions.isEmpty { try container.encode(captions, forKey: .captions) }
        }
    }

    /// The viewer's fields as JSON members, each preceded by a comma:
    /// `,"is_favorited":true,"rating":4,"position":12.5` (position omitted when nil or not finite).
    /// Appended to an encoded `SharedPart` whose closing brace was dropped, it completes the item.
    public static func viewerMembers(isFavorited: Bool, rating: Int, position: Double?) -> String {
        var text = ""
        writeViewerMembers(isFavorited: isFavorited, rating: rating, position: position) { text += $0 }
        return text
    }

    /// `viewerMembers` in pieces, each short enough to be a small string that needs no heap
    /// allocation, for a writer that appends them straight into a response body.
    public static func writeViewerMembers(isFavorited: Bool, rating: Int, position: Double?, _ write: (String) -> Void) {
        write(",\"\(CodingKeys.isFavorited.rawValue)\":")
        write(isFavorited ? "true" : "false")
        write(",\"\(CodingKeys.rating.rawValue)\":")
        write(String(rating))
        if let position, position.isFinite {
            write(",\"\(CodingKeys.position.rawValue)\":")
            // Swift's shortest round-trip spelling ("12.5", "1e-05") is a valid JSON number.
            write(position.description)
        }
    }
}
