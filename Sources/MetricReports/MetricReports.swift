/// Namespace of the MetricReports module.
public enum MetricReportsModule {}
