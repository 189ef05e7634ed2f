/// The bundled "Recommended Prompts" collection, grouped by category (BTD-P1;
/// BeenThereDoneThat 5.2.3.5–5.2.3.6). Written for Fieldtest.
public struct PromptCatalogue: Sendable, Equatable {
    /// A category and its prompts, in display order.
    public struct Group: Sendable, Equatable {
        /// Category name.
        public let category: String
        /// The prompts of the category.
        public let prompts: [String]
    }

    /// Groups in display order.
    public let groups: [Group]

    /// Creates a catalogue.
    public init(groups: [Group]) {
        self.groups = groups
    }

    /// One document of the "Recommended Prompts" collection (5.2.3.5): a prompt and its category.
    public struct Document: Sendable, Equatable {
        /// Category name.
        public let category: String
        /// The prompt.
        public let prompt: String

        /// A document.
        public init(category: String, prompt: String) {
            self.category = category
            self.prompt = prompt
        }
    }

    /// The catalogue the app shows for a collection (5.2.3.6): one group per category, in order of
    /// first appearance, each with its prompts in collection order. O(n).
    public init(documents: [Document]) {
        var order: [String] = []
        var prompts: [String: [String]] = [:]
        for d in documents {
            if prompts[d.category] == nil { order.append(d.category) }
            prompts[d.category, default: []].append(d.prompt)
        }
        groups = order.map { Group(category: $0, prompts: prompts[$0] ?? []) }
    }

    /// Category names in display order.
    public var categories: [String] { groups.map(\.category) }

    /// The prompts of `category` (case-insensitive), empty for an unknown category.
    public func prompts(in category: String) -> [String] {
        groups.first { $0.category.lowercased() == category.lowercased() }?.prompts ?? []
    }

    /// The category a prompt belongs to, if it is in the catalogue.
    public func category(of prompt: String) -> String? {
        groups.first { $0.prompts.contains(prompt) }?.category
    }

    /// Up to `count` distinct prompts of `category` in random order from `rng`. O(p).
    public func recommended(in category: String, count: Int, using rng: inout some RandomNumberGenerator) -> [String] {
        Array(prompts(in: category).shuffled(using: &rng).prefix(max(0, count)))
    }

    /// Fieldtest's bundled prompt list (six categories of five prompts), grouped by the app.
    public static let bundled = PromptCatalogue(documents: collection)

    /// Fieldtest's bundled "Recommended Prompts" collection, as documents.
    public static let collection: [Document] = bundledGroups.flatMap { g in
        g.prompts.map { Document(category: g.category, prompt: $0) }
    }

    /// The bundled prompts, written by category.
    private static let bundledGroups: [Group] = [
        Group(
            category: "Gratitude",
            prompts: [
                "What made you smile today?",
                "Who helped you recently, and how?",
                "Name three small things you are thankful for.",
                "What comfort do you usually take for granted?",
                "Which place are you glad to have visited?",
            ]),
        Group(
            category: "Travel",
            prompts: [
                "Describe the first thing you noticed when you arrived.",
                "What local food did you try, and what was it like?",
                "Which view would you like to remember in ten years?",
                "Who did you meet on the way?",
                "What surprised you about this place?",
            ]),
        Group(
            category: "Reflection",
            prompts: [
                "What did you learn about yourself this week?",
                "What would you do differently if today started again?",
                "Which decision are you proud of?",
                "What has been on your mind lately?",
                "How have you changed since last year?",
            ]),
        Group(
            category: "Goals",
            prompts: [
                "What is one step you took toward a goal today?",
                "What is stopping you, and how could you get past it?",
                "Where do you want to be a year from now?",
                "Which habit would you like to build?",
                "What would make tomorrow a success?",
            ]),
        Group(
            category: "Memories",
            prompts: [
                "Describe a childhood place in detail.",
                "What song brings back a memory, and which one?",
                "Write about a friend you have not seen for a long time.",
                "What is the best meal you remember?",
                "Which photo on your phone tells a story?",
            ]),
        Group(
            category: "Nature",
            prompts: [
                "What was the sky like today?",
                "Describe the weather using all five senses.",
                "Which plant or animal caught your attention?",
                "Where did you go outside today?",
                "Write about a sunrise or sunset you watched.",
            ]),
    ]
}
