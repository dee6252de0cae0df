import Foundation

/// The parts of the Pexels API (https://www.pexels.com/api/documentation/) we read, as it
/// documents them. Listings: `page`, `per_page`, `total_results`, `next_page` (a URL, absent
/// on the last page) and `videos[]` or `photos[]`. Optional fields are optional here too: a
/// field Pexels drops must cost that field, not the page.
enum PexelsWire {
    /// One listing page: `videos[]` or `photos[]` (whichever the endpoint lists) as `entries`,
    /// and the paging fields we use.
    struct Listing<Entry: Decodable>: Decodable {
        var totalResults: Int?
        var nextPage: String?
        var entries: [Entry]

        enum CodingKeys: String, CodingKey {
            case videos, photos
            case totalResults = "total_results"
            case nextPage = "next_page"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            totalResults = try container.decodeIfPresent(Int.self, forKey: .totalResults)
            nextPage = try container.decodeIfPresent(String.self, forKey: .nextPage)
            entries = try container.decodeIfPresent([Entry].self, forKey: .videos) ?? container.decode([Entry].self, forKey: .photos)
        }
    }

    /// The Video resource: `id`, `width`, `height`, `url` (its page), `duration` (seconds),
    /// `user {id, name, url}`, `video_files[]`. `tags` is not documented but present in
    /// answers; read when it is there.
    struct Video: Decodable {
        var id: Int
        var width: Int?
        var height: Int?
        var url: String?
        var duration: Double?
        var user: User?
        var videoFiles: [VideoFile]
        var tags: [String]?

        enum CodingKeys: String, CodingKey {
            case id, width, height, url, duration, user, tags
            case videoFiles = "video_files"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            width = try? container.decodeIfPresent(Int.self, forKey: .width)
            height = try? container.decodeIfPresent(Int.self, forKey: .height)
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            duration = try? container.decodeIfPresent(Double.self, forKey: .duration)
            user = try? container.decodeIfPresent(User.self, forKey: .user)
            videoFiles = (try? container.decodeIfPresent([VideoFile].self, forKey: .videoFiles)) ?? []
            tags = try? container.decodeIfPresent([String].self, forKey: .tags)
        }
    }

    struct User: Decodable {
        var id: Int?
        var name: String?
        var url: String?
    }

    /// One rendition: `quality` (`hd`, `sd`, `uhd`, `hls`, or null), `file_type`
    /// (`video/mp4`), `width`/`height` (null for HLS), `link`.
    struct VideoFile: Decodable {
        var id: Int?
        var quality: String?
        var fileType: String?
        var width: Int?
        var height: Int?
        var link: String?

        enum CodingKeys: String, CodingKey {
            case id, quality, width, height, link
            case fileType = "file_type"
        }
    }

    /// The Photo resource: `id`, `width`, `height`, `url`, `photographer`,
    /// `photographer_url`, `photographer_id`, `alt`, `src {original, large2x, large, medium,
    /// small, portrait, landscape, tiny}`.
    struct Photo: Decodable {
        var id: Int
        var width: Int?
        var height: Int?
        var url: String?
        var photographer: String?
        var photographerURL: String?
        var alt: String?
        var src: [String: String]

        enum CodingKeys: String, CodingKey {
            case id, width, height, url, photographer, alt, src
            case photographerURL = "photographer_url"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            width = try? container.decodeIfPresent(Int.self, forKey: .width)
            height = try? container.decodeIfPresent(Int.self, forKey: .height)
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            photographer = try? container.decodeIfPresent(String.self, forKey: .photographer)
            photographerURL = try? container.decodeIfPresent(String.self, forKey: .photographerURL)
            alt = try? container.decodeIfPresent(String.self, forKey: .alt)
            src = (try? container.decodeIfPresent([String: String].self, forKey: .src)) ?? [:]
        }
    }

    /// Pexels' error bodies: `{"error": "…"}` or `{"code": "…"}` (and plain text from its edge).
    struct ErrorBody: Decodable {
        var error: String?
        var code: String?
    }
}
