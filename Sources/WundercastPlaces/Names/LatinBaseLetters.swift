/// Base letters of the Latin blocks, one space-separated entry per code point (`-`: none, the
/// scalar is only lower-cased): what ``NameFolding`` reduces `ø`, `ł`, `đ`, `æ`, `ß`, `ə` to.
///
/// Generated once from Unicode's data (canonical decomposition without combining marks, else
/// the letter the character's name gives: `LATIN SMALL LETTER O WITH STROKE` → `o`,
/// `LATIN SMALL LETTER SHARP S` → `ss`), so that folding needs neither Foundation nor the
/// standard library's scalar-name tables (touching those costs about 2 MB of resident memory).
enum LatinBaseLetters {
    /// The base letters of `scalar`, or nil when it is not in a Latin block or has none.
    static func of(_ scalar: Unicode.Scalar) -> Substring? {
        let v = Int(scalar.value)
        let entry: Substring
        switch v {
        case 0xC0...0x24F: entry = latin[v - 0xC0]
        case 0x1E00...0x1EFF: entry = latinAdditional[v - 0x1E00]
        default: return nil
        }
        return entry == "-" ? nil : entry
    }

    /// U+00C0 ... U+024F: Latin-1 Supplement letters, Latin Extended-A and -B.
    static let latin =
        ("a a a a a a ae c e e e e i i i i d n o o o o o - o u u u u y th ss a a a a a a ae c e e e e i i "
        + "i i d n o o o o o - o u u u u y th y a a a a a a c c c c c c c c d d d d e e e e e e e e e e g "
        + "g g g g g g g h h h h i i i i i i i i i i ij ij j j k k k l l l l l l l l l l n n n n n n - - - "
        + "o o o o o o oe oe r r r r r r s s s s s s s s t t t t t t u u u u u u u u u u u u w w y y y z z "
        + "z z z z s b b b b - - o c c - d d d - e e e f f g - hv - i k k l - - n n o o o oi oi p p yr - - "
        + "- - t t t t u u - v y y z z - - - - - - - - - - - - - dz d dz lj l lj nj n nj a a i i o o u u u "
        + "u u u u u u u e a a a a ae ae g g g g k k o o o o - - j dz d dz g g - - n n a a ae ae o o a a a "
        + "a e e e e i i i i o o o o r r r r u u u u s s t t - - h h n d ou ou z z a a e e o o o o o o o o "
        + "y y l n t j - - a c c l t s z - - b - - e e j j - q r r y y ").split(separator: " ")

    /// U+1E00 ... U+1EFF: Latin Extended Additional (Vietnamese and others).
    static let latinAdditional =
        ("a a b b b b b b c c d d d d d d d d d d e e e e e e e e e e f f g g h h h h h h h h h h i i i i "
        + "k k k k k k l l l l l l l l m m m m m m n n n n n n n n o o o o o o o o p p p p r r r r r r r r "
        + "s s s s s s s s s s t t t t t t t t u u u u u u u u u u v v v v w w w w w w w w w w x x x x y y "
        + "z z z z z z h t w y a s s s ss - a a a a a a a a a a a a a a a a a a a a a a a a e e e e e e e "
        + "e e e e e e e e e i i i i o o o o o o o o o o o o o o o o o o o o o o o o u u u u u u u u u u u "
        + "u u u y y y y y y y y - - - - y y ").split(separator: " ")
}
