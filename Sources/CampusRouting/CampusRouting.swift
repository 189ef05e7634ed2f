/// Namespace of the CampusRouting module.
public enum CampusRoutingModule {}
