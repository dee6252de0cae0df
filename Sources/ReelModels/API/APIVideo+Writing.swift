import Foundation

// The wire shapes a feed page writes per item, through `JSONBytes`: the same members, in the
// same order and with the same omissions as their `Encodable` conformances, which stay the
// reference (`JSONBytesTests` decodes both and compares).

extension APIVideo.SharedPart {
    /// This part as `JSONEncoder` would encode it (`.withoutEscapingSlashes`).
    public func write(into json: inout JSONBytes) throws {
        typealias Key = APIVideo.CodingKeys
        try json.object { json in
            json.key(Key.id.rawValue); json.int(video.id)
            json.key(Key.folderName.rawValue); json.string(video.folderName)
            json.optional(Key.description.rawValue, video.description)
            json.key(Key.tags.rawValue); json.array(video.tags) { $0.write($1) }
            json.key(Key.flags.rawValue); json.array(video.flags) { $0.write($1) }
            json.optional(Key.shortcode.rawValue, video.shortcode)
            json.optional(Key.datePosted.rawValue, video.datePosted)
            json.optional(Key.uploader.rawValue, video.uploader)
            json.optional(Key.username.rawValue, video.username)
            json.optional(Key.dateAdded.rawValue, video.dateAdded)
            json.key(Key.kind.rawValue); json.string(video.kind.rawValue)
            json.optional(Key.sourceUrl.rawValue, video.sourceUrl)
            if let duration = video.duration {
                json.key(Key.duration.rawValue); try json.double(duration)
            }
            json.key(Key.width.rawValue); json.int(video.width)
            json.key(Key.height.rawValue); json.int(video.height)
            json.key(Key.media.rawValue); video.media.write(into: &json)
            if let captions = video.captions, !captions.isEmpty {
                json.key(Key.captions.rawValue)
                json.array(captions) { json, caption in
                    json.object { json in
                        json.key("language"); json.string(caption.language)
                        json.key("name"); json.string(caption.name)
                    }
                }
            }
        }
    }
}

extension APIMedia {
    func write(into json: inout JSONBytes) {
        json.object { json in
            json.optional(CodingKeys.master.rawValue, master)
            json.key(CodingKeys.encrypted.rawValue); json.bool(encrypted)
            if let poster { json.key(CodingKeys.poster.rawValue); json.write(poster) }
            if let thumbnail { json.key(CodingKeys.thumbnail.rawValue); json.write(thumbnail) }
            json.optional(CodingKeys.download.rawValue, download)
            if let prefetch {
                json.key(CodingKeys.prefetch.rawValue)
                json.object { json in
                    typealias Key = APIPrefetch.CodingKeys
                    json.key(Key.rendition.rawValue); json.string(prefetch.rendition)
                    json.key(Key.playlist.rawValue); json.string(prefetch.playlist)
                    json.key(Key.initSegment.rawValue); json.string(prefetch.initSegment)
                    json.key(Key.firstSegment.rawValue); json.string(prefetch.firstSegment)
                    json.optional(Key.key.rawValue, prefetch.key)
                }
            }
            json.key(CodingKeys.images.rawValue)
            json.array(images) { json, variants in json.array(variants) { $0.write($1) } }
            if let expiresAt { json.key(CodingKeys.expiresAt.rawValue); json.int(expiresAt) }
        }
    }
}

extension JSONBytes {
    /// `"name":"value"` when there is a value; nothing when it is nil, as `encodeIfPresent`.
    mutating func optional(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func write(_ tag: APITagRef) {
        object { json in
            json.key("id"); json.int(tag.id)
            json.key("name"); json.string(tag.name)
        }
    }

    mutating func write(_ image: APIImage) {
        object { json in
            json.key("url"); json.string(image.url)
            json.key("width"); json.int(image.width)
            json.key("height"); json.int(image.height)
        }
    }
}
