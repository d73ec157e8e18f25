/// Marks `text` as a message of wundercastctl's catalogue where it is written in a table (the
/// English text is the msgid of `po/wundercast.pot`, which `po/extract.py` finds by this name),
/// and returns it unchanged: it is translated where it is shown (`UserLocale.tr`). The daemon
/// shows such texts untranslated (English, for admins and the journal).
@inlinable public func N_(_ text: String) -> String { text }

/// As ``N_(_:)`` for a message with a context (`msgctxt`) that tells it from the same English
/// text elsewhere (`compass point` `E`); translated with `UserLocale.trp`.
@inlinable public func NP_(_ context: String, _ text: String) -> String { text }
