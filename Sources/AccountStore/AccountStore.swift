/// Namespace of the AccountStore module.
public enum AccountStoreModule {}
