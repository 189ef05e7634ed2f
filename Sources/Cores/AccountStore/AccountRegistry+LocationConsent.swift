import Foundation
import GRDB

/// Location consent and encrypted location history (NAV-PR1; navup-srs.txt §2.5: "asking the
/// data-subject for consent when the app is opened for the very first time and allowing
/// withdrawal of consent and destruction of identifiable data within a reasonable time").
///
/// No location is stored without active consent; withdrawal deletes the user's location
/// history at once (with `secure_delete`, the freed pages are zeroed). Grants and withdrawals
/// are kept as events (proof of consent) until the account itself is deleted.
extension AccountRegistry {
    /// Records that `userID` consents to location collection under privacy notice `policyVersion`.
    public func grantLocationConsent(userID: String, policyVersion: String, now: Date) throws(AccountStoreError) {
        _ = try account(id: userID)
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO location_consent (user_id, granted_at, withdrawn_at, policy_version) VALUES (?, ?, NULL, ?)
                    ON CONFLICT(user_id) DO UPDATE SET granted_at = excluded.granted_at, withdrawn_at = NULL,
                        policy_version = excluded.policy_version
                    """, arguments: [userID, now.timeIntervalSince1970, policyVersion])
            try db.execute(
                sql: "INSERT INTO consent_events (user_id, event, at, policy_version) VALUES (?, 'grant', ?, ?)",
                arguments: [userID, now.timeIntervalSince1970, policyVersion])
        }
    }

    /// Withdraws consent and deletes every stored location of `userID`; returns how many were deleted.
    @discardableResult
    public func withdrawLocationConsent(userID: String, now: Date) throws(AccountStoreError) -> Int {
        _ = try account(id: userID)
        return try write { db in
            let version =
                try String.fetchOne(
                    db, sql: "SELECT policy_version FROM location_consent WHERE user_id = ?",
                    arguments: [userID]) ?? "none"
            try db.execute(
                sql: """
                    INSERT INTO location_consent (user_id, granted_at, withdrawn_at, policy_version) VALUES (?, NULL, ?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET withdrawn_at = excluded.withdrawn_at
                    """, arguments: [userID, now.timeIntervalSince1970, version])
            try db.execute(
                sql: "INSERT INTO consent_events (user_id, event, at, policy_version) VALUES (?, 'withdraw', ?, ?)",
                arguments: [userID, now.timeIntervalSince1970, version])
            try db.execute(sql: "DELETE FROM location_history WHERE user_id = ?", arguments: [userID])
            return db.changesCount
        }
    }

    /// The consent state of `userID`, or `nil` if never asked.
    public func locationConsent(userID: String) throws(AccountStoreError) -> LocationConsent? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM location_consent WHERE user_id = ?", arguments: [userID])
            else {
                return nil
            }
            let granted: Double? = row["granted_at"]
            let withdrawn: Double? = row["withdrawn_at"]
            return LocationConsent(
                grantedAt: granted.map(Date.init(timeIntervalSince1970:)),
                withdrawnAt: withdrawn.map(Date.init(timeIntervalSince1970:)),
                policyVersion: row["policy_version"])
        }
    }

    /// Stores an encrypted location fix for `userID`.
    /// - Throws: ``AccountStoreError/noLocationConsent(userID:)`` without active consent.
    public func recordLocation(
        _ sample: LocationSample, userID: String, using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) {
        guard try locationConsent(userID: userID)?.isActive == true else { throw .noLocationConsent(userID: userID) }
        let sealed = try cipher.seal(sample.bytes, context: "location_history:\(userID)", using: &rng)
        try write { db in
            // Re-check inside the transaction so a concurrent withdrawal always wins.
            let active =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM location_consent WHERE user_id = ? AND granted_at IS NOT NULL
                            AND (withdrawn_at IS NULL OR granted_at > withdrawn_at))
                        """, arguments: [userID]) ?? false
            guard active else { throw AccountStoreError.noLocationConsent(userID: userID) }
            try db.execute(
                sql: "INSERT INTO location_history (user_id, sample_cipher) VALUES (?, ?)", arguments: [userID, sealed])
        }
    }

    /// The decrypted location history of `userID`, oldest first.
    public func locationHistory(userID: String) throws(AccountStoreError) -> [LocationSample] {
        try read { db in
            try Data.fetchAll(
                db, sql: "SELECT sample_cipher FROM location_history WHERE user_id = ? ORDER BY id",
                arguments: [userID]
            ).map { sealed in
                let bytes = try cipher.open(sealed, context: "location_history:\(userID)")
                guard let sample = LocationSample(bytes: bytes) else {
                    throw AccountStoreError.storageCorrupted(
                        "location sample of \(userID) has \(bytes.count) bytes, expected 32")
                }
                return sample
            }
        }
    }

    /// Deletes the account and everything identifiable about it (location history, consent
    /// records; throttle state is keyed by an HMAC of the identifier, and its row is deleted by
    /// the next failed sign-in after its window and lockout are over).
    public func deleteAccount(userID: String) throws(AccountStoreError) {
        _ = try account(id: userID)
        try write { db in
            try db.execute(sql: "DELETE FROM location_history WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "DELETE FROM consent_events WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "DELETE FROM location_consent WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [userID])
        }
    }
}
