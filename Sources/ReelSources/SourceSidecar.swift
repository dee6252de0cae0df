import Foundation

/// The metadata file written next to each downloaded item, in yt-dlp's `.info.json` shape
/// because the importer already reads that: `uploader` (the author) becomes the post's
/// uploader, `uploader_id` its username, `webpage_url` (the item's page) its source URL,
/// `description` and `tags` what they say. `uploader_url` is kept in the file for people
/// reading it; the importer has no field for it. `id` becomes the post's shortcode and folder name.
struct SourceSidecar: Encodable, Equatable {
    var id: String
    var extractor: String
    var extractorKey: String
    var title: String?
    var description: String?
    var uploader: String?
    var uploaderID: String?
    var uploaderURL: String?
    var webpageURL: String?
    var tags: [String]
    var duration: Double?
    var width: Int?
    var height: Int?

    enum CodingKeys: String, CodingKey {
        case id, extractor, title, description, uploader, tags, duration, width, height
        case extractorKey = "extractor_key"
        case uploaderID = "uploader_id"
        case uploaderURL = "uploader_url"
        case webpageURL = "webpage_url"
    }

    init(item: SourceItem) {
        // The stem (`pexels-video-2499611`), not the bare catalogue id: the importer names the
        // post's folder and URLs after `id`, and a bare number says nothing and would clash
        // with other catalogues' numbers. The catalogue id stays in the page URL.
        id = item.stem
        extractor = Slug.make(item.attribution.source)
        extractorKey = item.attribution.source
        title = item.description
        description = item.description
        uploader = item.attribution.author
        uploaderID = item.attribution.authorURL.flatMap(Self.handle)
        uploaderURL = item.attribution.authorURL
        webpageURL = item.attribution.pageURL
        tags = item.tags
        duration = item.duration
        width = item.width
        height = item.height
    }

    func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A profile link's `@handle` (Pexels: `https://www.pexels.com/@jane-doe`), the closest
    /// thing to a username the catalogue gives.
    static func handle(_ profile: String) -> String? {
        guard let path = URLComponents(string: profile)?.path else { return nil }
        let handle = path.split(separator: "/").first { $0.hasPrefix("@") && $0.count > 1 }
        return handle.map(String.init)
    }
}
