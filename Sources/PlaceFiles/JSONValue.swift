import Foundation

/// Any JSON, decoded by JSONDecoder: unlike JSONSerialization it reads every number as the exact Double.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    var isObject: Bool {
        if case .object = self { true } else { false }
    }
}
