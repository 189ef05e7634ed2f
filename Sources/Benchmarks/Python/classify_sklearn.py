import sys, time, os
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import SGDClassifier
path, train_path = sys.argv[1], sys.argv[2]
with open(path, encoding='utf-8') as f: tweets = f.read().split('\n')
texts, labels = [], []
with open(train_path, encoding='utf-8') as f:
    for line in f.read().split('\n'):
        if '\t' in line:
            y, x = line.split('\t', 1); labels.append(int(y)); texts.append(x)
v = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False, norm=None, binary=True)
t0 = time.perf_counter()
clf = SGDClassifier(loss='log_loss', alpha=1e-5, max_iter=6, tol=None, random_state=42).fit(v.transform(texts), labels)
train = time.perf_counter() - t0
t0, c0 = time.perf_counter(), time.process_time()
n = 0
for i in range(0, len(tweets), 100000):
    chunk = tweets[i:i + 100000]
    clf.predict_proba(v.transform(chunk)); n += len(chunk)
print(n / (time.perf_counter() - t0)); print(train); print(n / (time.process_time() - c0))
