import Foundation

/// The subset of ffprobe's `-print_format json` output we read. Every field is optional and
/// decoded leniently: ffprobe prints many numbers as strings, uses `"N/A"` for unknown values,
/// and different demuxers omit different fields. A field that does not parse is treated as
/// absent rather than failing the whole probe.
struct FFprobeOutput: Decodable {
    var streams: [FFprobeStream]?
    var format: FFprobeFormat?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        streams = container.lenient([FFprobeStream].self, .streams)
        format = container.lenient(FFprobeFormat.self, .format)
    }

    enum CodingKeys: String, CodingKey { case streams, format }
}

struct FFprobeFormat: Decodable {
    var formatName: String?
    var duration: Double?
    var size: Int64?
    var bitRate: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatName = container.lenient(String.self, .formatName)
        duration = container.lenient(FlexibleNumber.self, .duration)?.double
        size = container.lenient(FlexibleNumber.self, .size)?.int64
        bitRate = container.lenient(FlexibleNumber.self, .bitRate)?.int
    }

    enum CodingKeys: String, CodingKey {
        case formatName = "format_name", duration, size, bitRate = "bit_rate"
    }
}

struct FFprobeStream: Decodable {
    var codecType: String?
    var codecName: String?
    var width: Int?
    var height: Int?
    var sampleAspectRatio: String?
    var avgFrameRate: String?
    var rFrameRate: String?
    var frameCount: Int?
    var pixelFormat: String?
    var channels: Int?
    var sampleRate: Int?
    var duration: Double?
    var attachedPicture: Bool
    var rotateTag: Double?
    var displayMatrixRotation: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        codecType = container.lenient(String.self, .codecType)
        codecName = container.lenient(String.self, .codecName)
        width = container.lenient(FlexibleNumber.self, .width)?.int
        height = container.lenient(FlexibleNumber.self, .height)?.int
        sampleAspectRatio = container.lenient(String.self, .sampleAspectRatio)
        avgFrameRate = container.lenient(String.self, .avgFrameRate)
        rFrameRate = container.lenient(String.self, .rFrameRate)
        frameCount = container.lenient(FlexibleNumber.self, .frameCount)?.int
        pixelFormat = container.lenient(String.self, .pixelFormat)
        channels = container.lenient(FlexibleNumber.self, .channels)?.int
        sampleRate = container.lenient(FlexibleNumber.self, .sampleRate)?.int
        duration = container.lenient(FlexibleNumber.self, .duration)?.double
        let disposition = container.lenient([String: FlexibleNumber].self, .disposition)
        attachedPicture = (disposition?["attached_pic"]?.int ?? 0) != 0
        let tags = container.lenient([String: FlexibleNumber].self, .tags)
        rotateTag = tags?["rotate"]?.double
        let sideData = container.lenient([FFprobeSideData].self, .sideDataList) ?? []
        displayMatrixRotation = sideData.first { $0.type == "Display Matrix" && $0.rotation != nil }?.rotation
    }

    enum CodingKeys: String, CodingKey {
        case codecType = "codec_type", codecName = "codec_name", width, height
        case sampleAspectRatio = "sample_aspect_ratio", avgFrameRate = "avg_frame_rate"
        case rFrameRate = "r_frame_rate", frameCount = "nb_frames", pixelFormat = "pix_fmt"
        case channels, sampleRate = "sample_rate", duration, disposition, tags
        case sideDataList = "side_data_list"
    }
}

struct FFprobeSideData: Decodable {
    var type: String?
    var rotation: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = container.lenient(String.self, .type)
        rotation = container.lenient(FlexibleNumber.self, .rotation)?.double
    }

    enum CodingKeys: String, CodingKey { case type = "side_data_type", rotation }
}

/// A JSON number, or a string holding one (`"1920"`, `"3.000000"`); `"N/A"` and anything
/// unparsable decode as a number-less value rather than an error.
struct FlexibleNumber: Decodable {
    var double: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            double = number
        } else if let text = try? container.decode(String.self) {
            double = Double(text.trimmingCharacters(in: .whitespaces))
        } else {
            double = nil
        }
        if let value = double, !value.isFinite { double = nil }
    }

    var int: Int? { double.flatMap { Int(exactly: $0.rounded()) } }
    var int64: Int64? { double.flatMap { Int64(exactly: $0.rounded()) } }
}

extension KeyedDecodingContainer {
    /// The value if present and of the right shape; nil otherwise. Never throws.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
