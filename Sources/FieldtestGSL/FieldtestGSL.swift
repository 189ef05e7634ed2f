/// Namespace of the FieldtestGSL module.
public enum FieldtestGSLModule {}
