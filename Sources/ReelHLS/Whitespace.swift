extension StringProtocol {
    /// Spaces, tabs, CR and LF trimmed; avoids Foundation in hot, simple parsing paths.
    /// `package`: ReelMedia's progress parser reads ffmpeg's `key=value` lines the same way.
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
