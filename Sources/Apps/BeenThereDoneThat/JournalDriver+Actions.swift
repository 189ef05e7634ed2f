import AccountStore
import FieldtestGSL
import Foundation
import ScenarioEngine

extension JournalDriver {
    /// The outcome of an account operation as a value.
    static func attempt<T>(_ body: () throws(AccountStoreError) -> T) -> Result<T, AccountStoreError> {
        do throws(AccountStoreError) { return .success(try body()) } catch { return .failure(error) }
    }

    /// Performs one user action at `time`.
    func perform(_ action: ActionSpec, run: RunContext, device name: String, at time: Double) throws {
        let q = action.parameters
        let now = Date(timeIntervalSince1970: time)
        guard let registry, var rng = accountRNG, var phone = phones[name] else { return }
        switch action.kind {
        case "sign-up":
            try signUp(q, registry: registry, now: now, rng: &rng)
        case "login":
            logIn(q, registry: registry, phone: phone, device: name, run: run, at: time, rng: &rng)
        case "post-entries":
            guard let user = currentUser[name] else {
                throw EmulatedDevices.BuildError(
                    description:
                        "\(run.scenario.file):\(action.line): error: post-entries before a successful login on device '\(name)'"
                )
            }
            try post(
                count: q["entries"]?.int ?? 1, category: q["category"]?.string, type: q["type"]?.string,
                user: user, phone: &phone, run: run, at: time)
            phones[name] = phone
            try sync(name, run: run, at: time)
        case "filter-entries":
            guard let user = currentUser[name] else { return }
            let type = q["type"]?.string.flatMap(EntryType.init(rawValue:))
            let category = q["category"]?.string
            let from = q["days"]?.int.map { now.addingTimeInterval(-Double($0) * 86_400) }
            let filter = JournalFilter(type: type, category: category, savedFrom: from)
            let store = phone.store
            let (found, seconds) = try ComputeTimer.measure { try store.entries(userID: user, filter: filter) }
            run.metrics.latency(Metric.filterLatency, seconds: seconds)
            let expected = savedOrder.compactMap { saved[$0] }.filter {
                $0.userID == user && (type == nil || $0.type == type) && (category == nil || $0.category == category)
                    && (from == nil || $0.savedAt >= from ?? now)
            }.sorted { $0.savedAt != $1.savedAt ? $0.savedAt > $1.savedAt : $0.id.uuidString < $1.id.uuidString }
            metrics.check(
                Metric.filterResultMismatches, found.map(\.id) == expected.map(\.id) && found == expected)
        case "browse-prompts":
            // What the app shows is checked against the collection it reads, not against itself.
            let collection = PromptCatalogue.collection
            metrics.check(Metric.promptGroupMismatches, Self.groupsFollowCollection(prompts, collection))
            var categories: [String] = []
            for d in collection where !categories.contains(d.category) { categories.append(d.category) }
            for category in categories {
                let recommended = prompts.recommended(in: category, count: 3, using: &rng)
                metrics.check(
                    Metric.promptGroupMismatches,
                    Self.recommendedFollowsCollection(recommended, category: category, collection))
            }
        case "crash":
            phone.transport.crashArmed = true
            phones[name] = phone
        default:
            break
        }
    }

    /// `sign-up`: registers the form of `q` and checks the account record (BTD-A1) or the refusal.
    func signUp(
        _ q: LocatedValue, registry: AccountRegistry, now: Date, rng: inout RandomStream
    ) throws {
        let username = q["username"]?.string ?? ""
        let password = q["password"]?.string ?? ""
        let email = q["email"]?.string
        let form = RegistrationForm(
            username: username, email: email, password: password,
            passwordConfirmation: q["confirm"]?.string ?? password)
        let expectAccept = q["expect"]?.string != "reject"
        let outcome: RegistrationOutcome
        switch Self.attempt({ () throws(AccountStoreError) in try registry.register(form, now: now, using: &rng) })
        {
        case .success(let o):
            outcome = o
        case .failure(let error):
            if case .registrationRejected = error {
                metrics.check(Metric.accountRecordMismatches, !expectAccept)
                return
            }
            throw error
        }
        do {
            guard case .created(let account) = outcome else {
                metrics.check(Metric.accountRecordMismatches, false)
                return
            }
            // A unique user ID, the email, the creation date, no sign-in yet; stored as returned.
            let stored = try registry.account(id: account.id)
            metrics.check(
                Metric.accountRecordMismatches,
                expectAccept && !userIDs.contains(account.id) && account.email == email
                    && account.createdAt == now && account.lastSignInAt == nil && stored == account)
            userIDs.insert(account.id)
            users[username] = (account.id, email)
        }
    }

    /// `login`: signs in over the emulated network, timing the verification and the whole request
    /// (BTD-A2), and checks the outcome and the recorded sign-in (BTD-A1).
    func logIn(
        _ q: LocatedValue, registry: AccountRegistry, phone: Phone, device name: String, run: RunContext,
        at time: Double, rng: inout RandomStream
    ) {
        let now = Date(timeIntervalSince1970: time)
        let username = q["username"]?.string ?? ""
        let password = q["password"]?.string ?? ""
        let expectAccept = q["expect"]?.string != "reject"
        let request = phone.device.request(bytes: 1_000, uploadBytes: 600, at: time)
        guard request.delivered else { return }
        let (result, seconds) = ComputeTimer.measure {
            Self.attempt({ () throws(AccountStoreError) in
                try registry.login(identifier: username, password: password, now: now, using: &rng)
            })
        }
        // Verification (the key derivation and the lookups) is checked against 0.5 s; the end-to-end
        // time adds the emulated request, where a lost packet costs the 10 s timeout.
        run.metrics.latency(Metric.loginVerification, seconds: seconds)
        run.metrics.latency(Metric.loginEndToEnd, seconds: request.latencySeconds + seconds)
        switch result {
        case .success(let account):
            metrics.check(Metric.loginOutcomeMismatches, expectAccept)
            // The last sign-in is recorded (BTD-A1).
            let known =
                users[username]?.id ?? users.values.first { $0.email?.lowercased() == username.lowercased() }?.id
            metrics.check(Metric.accountRecordMismatches, account.id == known && account.lastSignInAt == now)
            currentUser[name] = account.id
        case .failure(let error):
            metrics.check(
                Metric.loginOutcomeMismatches,
                !expectAccept && error == .incorrectCredentials && error.description == Self.loginFailureMessage)
        }
    }

    /// Writes `count` entries, one second apart, each committed locally at once
    /// (BTD-J2, measured) and read back (BTD-J1), and queues them for sync.
    func post(
        count: Int, category: String?, type: String?, user: String, phone: inout Phone, run: RunContext,
        at time: Double
    ) throws {
        guard var rng = entryRNG else { return }
        let catalogue = prompts
        for i in 0..<count {
            let n = saved.count
            let body = bodies.isEmpty ? "Entry \(n)" : bodies[n % bodies.count]
            let title = body.split(separator: " ").prefix(6).joined(separator: " ")
            let cat = category ?? catalogue.categories[n % max(1, catalogue.categories.count)]
            let kind = type.flatMap(EntryType.init(rawValue:)) ?? (n % 3 == 0 ? .pictureDiary : .journal)
            let prompt = catalogue.recommended(in: cat, count: 1, using: &rng).first
            let savedAt = Date(timeIntervalSince1970: time + Double(i))
            let entry = JournalEntry(
                id: AccountRandomness.uuid(using: &rng), userID: user, title: title, body: body,
                savedAt: savedAt, category: cat, prompt: prompt, type: kind,
                photoReference: kind == .pictureDiary ? "photos/\(n).jpg" : nil)
            let store = phone.store
            let (stored, seconds) = try ComputeTimer.measure { try store.save(entry) }
            run.metrics.latency(Metric.localCommit, seconds: seconds)
            let readBack = try store.entry(id: entry.id)
            var expected = entry
            expected.revision = 1
            metrics.check(Metric.entryRecordMismatches, stored == expected && readBack == expected)
            saved[entry.id] = stored
            savedOrder.append(entry.id)
            phone.client.noteLocalChange(now: savedAt)
        }
    }

    /// BTD-P1 (5.2.3.6): the groups shown hold exactly the collection's prompts, each once, in the group
    /// of its document's category; one group per category, none empty.
    static func groupsFollowCollection(_ shown: PromptCatalogue, _ collection: [PromptCatalogue.Document]) -> Bool {
        let shownPairs = shown.groups.flatMap { g in g.prompts.map { [g.category, $0] } }
        let expectedPairs = collection.map { [$0.category, $0.prompt] }
        let categories = shown.groups.map(\.category)
        return !collection.isEmpty && shown.groups.allSatisfy { !$0.prompts.isEmpty }
            && Set(categories).count == categories.count
            && shownPairs.sorted { $0.lexicographicallyPrecedes($1) }
                == expectedPairs.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// BTD-P1 (5.2.3.5): the prompts recommended for `category` are distinct documents of that category,
    /// as many as asked (3) or all of them when fewer.
    static func recommendedFollowsCollection(
        _ recommended: [String], category: String, _ collection: [PromptCatalogue.Document]
    ) -> Bool {
        let ofCategory = Set(collection.filter { $0.category == category }.map(\.prompt))
        return recommended.count == min(3, ofCategory.count) && Set(recommended).count == recommended.count
            && recommended.allSatisfy { ofCategory.contains($0) }
    }
}
