import WundercastSupport

/// Renders the `value_template`s wundercast writes, `{{ P if T1 and … and Tn else None }}` with
/// each `Ti` of the form `Q is defined`, against a state as Jinja would: conditions in order,
/// stopping at the first false; reading a member of a missing value is an error (Home Assistant
/// then keeps the entity's old state), a missing last member or list index is undefined.
enum ValueTemplateEvaluator {
    struct TemplateError: Error, CustomStringConvertible {
        var description: String
    }

    /// The value rendered, or `nil` for `None` (Home Assistant's "unknown").
    static func render(_ template: String, _ state: JSONValue) throws -> JSONValue? {
        guard template.hasPrefix("{{ "), template.hasSuffix(" else None }}"),
            let ifRange = template.range(of: " if ")
        else { throw TemplateError(description: "not of the form {{ P if … else None }}: \(template)") }
        let path = String(template[template.index(template.startIndex, offsetBy: 3)..<ifRange.lowerBound])
        let conditions = template[ifRange.upperBound...].dropLast(" else None }}".count)
            .components(separatedBy: " and ")
        for condition in conditions {
            guard condition.hasSuffix(" is defined") else { throw TemplateError(description: "condition \(condition)") }
            guard try resolve(String(condition.dropLast(" is defined".count)), in: state) != nil else { return nil }
        }
        guard let value = try resolve(path, in: state) else { throw TemplateError(description: "\(path) undefined") }
        return value
    }

    /// `value_json.a.b[0].c` in `state`: `nil` when only the last step is missing.
    private static func resolve(_ path: String, in state: JSONValue) throws -> JSONValue? {
        guard path.hasPrefix("value_json") else { throw TemplateError(description: "path \(path)") }
        var steps: [String] = []
        for part in path.dropFirst("value_json".count).split(separator: ".") {
            let pieces = part.split(separator: "[")
            steps.append(String(pieces[0]))
            steps += pieces.dropFirst().map { "[" + $0 }
        }
        var current: JSONValue? = state
        for step in steps {
            guard let value = current else { throw TemplateError(description: "\(path): a member of undefined") }
            if step.hasPrefix("[") {
                guard case .array(let items) = value, let index = Int(step.dropFirst().dropLast()) else {
                    throw TemplateError(description: "\(path): \(step) of \(value.kind)")
                }
                current = items.indices.contains(index) ? items[index] : nil
            } else {
                current = value[step]
            }
        }
        return current
    }
}
