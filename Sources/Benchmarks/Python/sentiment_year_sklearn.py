# A reference point for the sentiment model's hardest held-out part (Datasets/models/README.md): a
# standard scikit-learn model trained on the SemEval tweets of 2011-2014 and scored on those of 2015
# (the four SemEval-2016 files, the last 30,347 rows of the file), by macro-recall. The last model adds
# VADER's four scores (neg, neu, pos, compound; standardised) as features, as Fieldtest's model adds its
# lexicon features. The last line is NB-SVM (Wang & Manning 2012): binary n-gram indicators scaled by
# each class's log-count ratio, one logistic regression per class against the rest, plus VADER's scores.
# Usage: python3 sentiment_year_sklearn.py ../shared/datasets/sentiment-semeval-train/tweets.tsv
import sys
import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import recall_score
from sklearn.preprocessing import StandardScaler, normalize
from sklearn.svm import LinearSVC
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

rows = []
with open(sys.argv[1], encoding='utf-8') as f:
    next(f)
    for line in f:
        _, label, text = line.rstrip('\n').split('\t', 2)
        rows.append((label, text))
train, test = rows[:-30347], rows[-30347:]
words = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
chars = TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5), min_df=2, sublinear_tf=True)
x_train = hstack([words.fit_transform(t for _, t in train), chars.fit_transform(t for _, t in train)]).tocsr()
x_test = hstack([words.transform(t for _, t in test), chars.transform(t for _, t in test)]).tocsr()
vader = SentimentIntensityAnalyzer()
def scores(rows):
    return [[d['neg'], d['neu'], d['pos'], d['compound']] for d in (vader.polarity_scores(t) for _, t in rows)]
scaler = StandardScaler().fit(scores(train))
v_train = hstack([x_train, csr_matrix(scaler.transform(scores(train)))]).tocsr()
v_test = hstack([x_test, csr_matrix(scaler.transform(scores(test)))]).tocsr()
classes = ['negative', 'neutral', 'positive']
for name, model, x_train, x_test in [
    ('TF-IDF word 1-2 + char_wb 2-5, LogisticRegression(C=1, balanced)',
     LogisticRegression(C=1, class_weight='balanced', max_iter=2000), x_train, x_test),
    ('same features, LinearSVC(C=0.1, balanced)', LinearSVC(C=0.1, class_weight='balanced'), x_train, x_test),
    ('same features + VADER scores, LogisticRegression(C=1, balanced)',
     LogisticRegression(C=1, class_weight='balanced', max_iter=3000), v_train, v_test),
]:
    predicted = model.fit(x_train, [l for l, _ in train]).predict(x_test)
    truth = [l for l, _ in test]
    per_class = ' / '.join('%.3f' % r for r in recall_score(truth, predicted, average=None, labels=classes))
    print('%s: macro-recall %.3f (neg / neu / pos %s), %d train, %d test' % (
        name, recall_score(truth, predicted, average='macro'), per_class, len(train), len(test)))

# NB-SVM: each class gets its own log-count-ratio scaling of binary indicators and its own classifier.
binary_words = CountVectorizer(ngram_range=(1, 2), min_df=2, binary=True)
binary_chars = CountVectorizer(analyzer='char_wb', ngram_range=(2, 5), min_df=2, binary=True)
b_train = hstack([binary_words.fit_transform(t for _, t in train), binary_chars.fit_transform(t for _, t in train)]).tocsr()
b_test = hstack([binary_words.transform(t for _, t in test), binary_chars.transform(t for _, t in test)]).tocsr()
labels = np.array([l for l, _ in train])
decisions = []
for c in classes:
    inside = labels == c
    p = np.asarray(b_train[inside].sum(0)).ravel() + 1
    q = np.asarray(b_train[~inside].sum(0)).ravel() + 1
    ratio = np.log((p / p.sum()) / (q / q.sum()))
    r_train = hstack([normalize(b_train.multiply(ratio).tocsr()), csr_matrix(scaler.transform(scores(train)))]).tocsr()
    r_test = hstack([normalize(b_test.multiply(ratio).tocsr()), csr_matrix(scaler.transform(scores(test)))]).tocsr()
    model = LogisticRegression(C=1, class_weight='balanced', max_iter=3000).fit(r_train, inside)
    decisions.append(model.decision_function(r_test))
predicted = [classes[i] for i in np.stack(decisions, 1).argmax(1)]
truth = [l for l, _ in test]
per_class = ' / '.join('%.3f' % r for r in recall_score(truth, predicted, average=None, labels=classes))
print('NB-SVM, binary word 1-2 + char_wb 2-5 + VADER scores, one LogisticRegression(C=1, balanced) per class: '
      'macro-recall %.3f (neg / neu / pos %s), %d train, %d test' % (
          recall_score(truth, predicted, average='macro'), per_class, len(train), len(test)))
