/// Namespace of the app drivers.
public enum FieldtestAppsModule {}
