/// One timed caption: what a WebVTT or SubRip file says, in the shape both formats share.
public struct SubtitleCue: Sendable, Equatable {
    /// Seconds on the source video's timeline (0 = its first frame).
    public var start: Double
    public var end: Double
    /// WebVTT cue settings after the end time (`align:start position:0%`), kept as written.
    public var settings: String
    /// The cue's text lines joined by `\n`, markup (`<i>`, `<c>`, inline timestamps) untouched.
    public var text: String

    public init(start: Double, end: Double, settings: String = "", text: String) {
        self.start = start
        self.end = end
        self.settings = settings
        self.text = text
    }
}

/// Why a subtitle file cannot be used (`MediaError.invalidSubtitles`), phrased to follow
/// "subtitles clip.en.vtt".
public enum SubtitleProblem: Sendable, Equatable, CustomStringConvertible {
    case notUTF8
    case missingHeader
    case badTiming(line: Int, text: String)
    case endBeforeStart(line: Int)
    case noCues
    case tooLarge

    public var description: String {
        switch self {
        case .notUTF8: "is not UTF-8 text"
        case .missingHeader: "does not start with WEBVTT"
        case .badTiming(let line, let text): "has a malformed timing line \(line): \"\(text.prefix(60))\""
        case .endBeforeStart(let line): "has a cue ending before it starts (line \(line))"
        case .noCues: "holds no cues"
        case .tooLarge: "is too large to be subtitles"
        }
    }
}

/// WebVTT timestamps: `hh:mm:ss.ttt`, hours optional when reading (RFC-less, W3C WebVTT §4.5).
public enum SubtitleTime {
    /// Parses `mm:ss.ttt` or `h…h:mm:ss.ttt`; with `comma` SubRip's `,` is accepted as the
    /// decimal sign instead. Minutes and seconds must be below 60, milliseconds three digits.
    public static func parse(_ text: Substring, comma: Bool = false) -> Double? {
        let separator: Character = comma ? "," : "."
        guard let dot = text.lastIndex(of: separator) else { return nil }
        let fraction = text[text.index(after: dot)...]
        let clock = text[..<dot].split(separator: ":", omittingEmptySubsequences: false)
        guard fraction.count == 3, fraction.allSatisfy(\.isASCIIDigit), let millis = Int(fraction),
              (2...3).contains(clock.count), clock.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        let numbers = clock.compactMap { Int($0) }
        guard numbers.count == clock.count else { return nil }
        let (hours, minutes, seconds) = numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : (0, numbers[0], numbers[1])
        // WebVTT wants two-digit minutes and seconds; SubRip writers are sloppier (`0:00:01,000`).
        if !comma, clock.suffix(2).contains(where: { $0.count != 2 }) { return nil }
        guard minutes < 60, seconds < 60 else { return nil }
        return Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
    }

    /// `00:00:01.000`: always with hours, as players and validators expect in HLS.
    public static func format(_ seconds: Double) -> String {
        let totalMillis = max(0, Int((seconds * 1000).rounded()))
        let millis = totalMillis % 1000, totalSeconds = totalMillis / 1000
        let hours = totalSeconds / 3600, minutes = totalSeconds / 60 % 60, secs = totalSeconds % 60
        return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(secs, 2) + "." + pad(millis, 3)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
