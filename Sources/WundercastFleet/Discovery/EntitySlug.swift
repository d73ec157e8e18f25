/// The object part of a Home Assistant entity id (`sensor.<object>`): lower-case ASCII letters,
/// digits and `_`, not starting or ending with `_` (homeassistant/core.py, `VALID_ENTITY_ID`).
enum EntitySlug {
    /// `text` with ASCII letters lower-cased, digits kept, every run of other characters one `_`,
    /// and no `_` at either end: `"Van 2 (Ø)"` → `van_2`. May be empty.
    static func make(_ text: String) -> String {
        var slug = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": slug.unicodeScalars.append(scalar)
            case "A"..."Z": slug.unicodeScalars.append(Unicode.Scalar(scalar.value + 32) ?? "_")
            default: if !slug.isEmpty && !slug.hasSuffix("_") { slug += "_" }
            }
        }
        while slug.hasSuffix("_") { slug.removeLast() }
        return slug
    }
}
