#!/usr/bin/env python3
"""VADER's own accuracy on the tweets a miCity run classified, computed without Fieldtest.

    python3 vader_accuracy.py AIRLINE_CSV N

miCity replays the airline tweets in file order and scores MIC-14 on the evaluation share: the
tweets whose FNV-1a 64-bit hash of their UTF-8 text is 0 modulo 10. This takes the first N tweets
(N = the run's tweets_classified), that share, and prints accuracy, macro-F1 and macro-recall of
VADER's labels (vader_sentiment.label) against the human labels.
"""
import csv
import sys

from vader_sentiment import analyzer, label

CLASSES = ["negative", "neutral", "positive"]


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:n]
    pairs = [(r["airline_sentiment"], label(analyzer.polarity_scores(r["text"])["compound"]))
             for r in rows if fnv1a(r["text"]) % 10 == 0]
    accuracy = sum(a == p for a, p in pairs) / len(pairs)
    recalls, f1s = [], []
    for c in CLASSES:
        tp = sum(a == c and p == c for a, p in pairs)
        actual = sum(a == c for a, _ in pairs)
        predicted = sum(p == c for _, p in pairs)
        recall = tp / actual if actual else 0.0
        precision = tp / predicted if predicted else 0.0
        recalls.append(recall)
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    print(f"accuracy={accuracy!r}")
    print(f"macro_f1={sum(f1s) / 3!r}")
    print(f"macro_recall={sum(recalls) / 3!r}")
    print(f"samples={len(pairs)}")


if __name__ == "__main__":
    main()
