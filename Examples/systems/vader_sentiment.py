#!/usr/bin/env python3
"""Tweet sentiment by VADER (Hutto & Gilbert 2014; PyPI `vaderSentiment`), as a Fieldtest system.

    fieldtest run Scenarios/micity-city-day.yaml --system sentiment='python3 Examples/systems/vader_sentiment.py'

label: VADER's usual thresholds on the compound score (≥ 0.05 positive, ≤ −0.05 negative, else
neutral); score: the compound score itself, in [−1, 1].
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib.metadata import version  # noqa: E402

from protocol import serve  # noqa: E402
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer  # noqa: E402

THRESHOLD = 0.05
analyzer = SentimentIntensityAnalyzer()


def label(compound):
    return "positive" if compound >= THRESHOLD else "negative" if compound <= -THRESHOLD else "neutral"


def classify(row):
    compound = analyzer.polarity_scores(row["text"])["compound"]
    return {"label": label(compound), "score": compound}


if __name__ == "__main__":
    serve("sentiment", "vader", version("vaderSentiment"), classify)
