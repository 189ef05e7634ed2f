import sys, time
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
path, n = sys.argv[1], int(sys.argv[2])
with open(path, encoding='utf-8') as f: tweets = f.read().split('\n')[:n]
a = SentimentIntensityAnalyzer()
t0, c0 = time.perf_counter(), time.process_time()
s = 0.0
for t in tweets: s += a.polarity_scores(t)['compound']
print(len(tweets) / (time.perf_counter() - t0)); print(len(tweets) / (time.process_time() - c0))
