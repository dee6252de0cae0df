import Foundation

/// Dates as `PostMetadata.datePosted` wants them: ISO 8601 in UTC, whole seconds.
enum PostDate {
    /// Seconds since 1970. Values outside 1970…9999 are nonsense (or milliseconds) and ignored.
    static func iso(fromSeconds seconds: Double) -> String? {
        guard seconds.isFinite, seconds > 0, seconds < 253_402_300_800 else { return nil }
        return Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// yt-dlp's `upload_date`, `YYYYMMDD`, as midnight UTC.
    static func iso(fromCompactDate text: String) -> String? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let year = Int(digits.prefix(4))!, month = Int(digits.dropFirst(4).prefix(2))!, day = Int(digits.suffix(2))!
        return iso(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, offsetSeconds: 0)
    }

    /// gallery-dl's `2023-01-02 03:04:05` (UTC), also accepting a `T` separator, fractional
    /// seconds and a trailing `Z` or `±HH:MM` offset, which is converted to UTC.
    static func iso(fromDateTime text: String) -> String? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = text.trimmingCharacters(in: .whitespaces).wholeMatch(of: pattern) else { return nil }
        var offset = 0
        if let zone = match.7, zone != "Z" {
            let digits = zone.dropFirst().filter(\.isNumber)
            offset = (Int(digits.prefix(2))! * 3600 + Int(digits.suffix(2))! * 60) * (zone.first == "-" ? -1 : 1)
        }
        return iso(
            year: Int(match.1)!, month: Int(match.2)!, day: Int(match.3)!,
            hour: Int(match.4)!, minute: Int(match.5)!, second: Int(match.6)!, offsetSeconds: offset
        )
    }

    private static func iso(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // `isValidDate` rejects 2023-02-30 instead of rolling it over to March.
        guard year >= 1970, components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return iso(fromSeconds: date.timeIntervalSince1970 - Double(offsetSeconds))
    }
}
