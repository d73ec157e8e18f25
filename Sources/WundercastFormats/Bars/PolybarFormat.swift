/// polybar's `custom/script` (`tail = true` for `watch`): one line per update. polybar reads
/// `%{…}` as formatting tags (actions included), so `%` is doubled; an empty line hides the
/// module (`--hide-offline`).
public enum PolybarFormat {
    public static func line(_ item: BarItem, hidden: Bool = false) -> String {
        if hidden { return "\n" }
        return item.text.replacingPercent() + "\n"
    }
}

extension String {
    fileprivate func replacingPercent() -> String {
        var out = ""
        for character in self {
            if character == "%" { out += "%%" } else { out.append(character) }
        }
        return out
    }
}
