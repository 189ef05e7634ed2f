/// Namespace of the TweetSentiment module.
public enum TweetSentimentModule {}
