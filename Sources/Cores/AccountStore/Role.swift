/// The kinds of NavUP user (NAV-F26, navup-srs.txt F26 "Privilege management and authentication").
public enum Role: String, Sendable, Equatable, CaseIterable, Codable {
    /// A student or visitor using the mobile application.
    case mobileUser = "mobile-user"
    /// A NavUP agent: the system side that integrates user data.
    case agent
    /// An administrator.
    case admin

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .mobileUser: return "mobile user"
        case .agent: return "agent"
        case .admin: return "administrator"
        }
    }
}

/// What a role wants to do with a resource.
public enum AccessAction: String, Sendable, Equatable, CaseIterable {
    /// Read the data.
    case read
    /// Create, change or delete the data.
    case write
}

/// Data whose access is controlled by role.
public enum ProtectedResource: String, Sendable, Equatable, CaseIterable {
    /// Pedestrian congestion data (F26's example).
    case congestionData = "congestion-data"
    /// Account roles; changing someone's role (Fieldtest: administrators only).
    case userRoles = "user-roles"

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .congestionData: return "congestion data"
        case .userRoles: return "user roles"
        }
    }
}

/// Role-based access rules as data (NAV-F26).
///
/// F26: "mobile users will only have read access to congestion data, agents will have read
/// and write data and administrators will have read and write access on the data."
/// Everything not granted is denied.
public struct AccessPolicy: Sendable, Equatable {
    /// One permission: `role` may perform `action` on `resource`.
    public struct Grant: Sendable, Equatable, Hashable {
        /// The role granted.
        public let role: Role
        /// The action allowed.
        public let action: AccessAction
        /// The resource concerned.
        public let resource: ProtectedResource

        /// Creates a grant.
        public init(_ role: Role, _ action: AccessAction, _ resource: ProtectedResource) {
            self.role = role
            self.action = action
            self.resource = resource
        }
    }

    /// The permissions; anything absent is denied.
    public let grants: Set<Grant>

    /// Creates a policy from its grants.
    public init(grants: Set<Grant>) {
        self.grants = grants
    }

    /// NavUP's F26 table, plus Fieldtest's rule that only administrators read or change roles.
    public static let navUP = AccessPolicy(grants: [
        Grant(.mobileUser, .read, .congestionData),
        Grant(.agent, .read, .congestionData),
        Grant(.agent, .write, .congestionData),
        Grant(.admin, .read, .congestionData),
        Grant(.admin, .write, .congestionData),
        Grant(.admin, .read, .userRoles),
        Grant(.admin, .write, .userRoles),
    ])

    /// Whether `role` may perform `action` on `resource`. O(1).
    public func allows(_ role: Role, _ action: AccessAction, _ resource: ProtectedResource) -> Bool {
        grants.contains(Grant(role, action, resource))
    }

    /// Throws ``AccountStoreError/accessDenied(role:action:resource:)`` unless allowed.
    public func authorize(_ role: Role, _ action: AccessAction, _ resource: ProtectedResource) throws(AccountStoreError)
    {
        guard allows(role, action, resource) else {
            throw .accessDenied(role: role, action: action, resource: resource)
        }
    }
}
