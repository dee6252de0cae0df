import Foundation

/// EXIF orientation of JPEG files. ffmpeg 5.1 decodes JPEGs as stored and ignores this tag, so
/// phone photos taken sideways would come out sideways; we read it and rotate ourselves.
public enum ExifOrientation {
    /// 1…8 from the first APP1 `Exif` segment's IFD0 tag 0x0112; 1 if absent, not a JPEG, or
    /// malformed. Reads both TIFF byte orders (`II` little, `MM` big endian). Only the header
    /// is needed: pass the first 64–256 kB.
    public static func read(jpeg: Data) -> Int {
        let bytes = [UInt8](jpeg)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 1 }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return 1 }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return 1 }  // image data starts: no EXIF
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return 1 }
            let body = offset + 4
            if marker == 0xE1, length >= 8, Array(bytes[body..<body + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return orientation(tiff: bytes[(body + 6)..<(offset + 2 + length)]) ?? 1
            }
            offset += 2 + length
        }
        return 1
    }

    /// The ffmpeg filter that makes an image with this orientation upright; nil for 1 (and for
    /// values outside 1…8).
    public static func filter(for orientation: Int) -> String? {
        switch orientation {
        case 2: "hflip"
        case 3: "hflip,vflip"  // 180°
        case 4: "vflip"
        case 5: "transpose=0"  // transpose across the main diagonal (90° CCW + vertical flip)
        case 6: "transpose=1"  // 90° clockwise
        case 7: "transpose=3"  // anti-transpose (90° CW + vertical flip)
        case 8: "transpose=2"  // 90° counter-clockwise
        default: nil
        }
    }

    /// Orientations 5–8 swap width and height.
    public static func swapsDimensions(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    private static func orientation(tiff: ArraySlice<UInt8>) -> Int? {
        let t = Array(tiff)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= t.count else { return nil }
            return little ? Int(t[at]) | Int(t[at + 1]) << 8 : Int(t[at]) << 8 | Int(t[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
