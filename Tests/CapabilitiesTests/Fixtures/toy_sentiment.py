#!/usr/bin/env python3
"""A dependency-free sentiment system for the tests, speaking docs/system-protocol.md.

Labels a tweet by counting a few cue words; optionally misbehaves, as chosen by its first
argument, so the harness's fault handling can be tested:

  good            answers every request correctly (the default)
  crash-after N   exits abruptly when asked its (N+1)-th query request
  hang-after N    stops answering (sleeps) from its (N+1)-th query request on
  out-of-order    answers with another request's id
  malformed       answers with a line that is not JSON
  wrong-type      answers with a number for 'label'
  refuse          answers {"ok":false,"error":...}
  bad-hello       answers the handshake without 'name'
  silent-hello    never answers the handshake
  grandchild      starts a child process that sleeps (and would outlive a careless harness),
                  writes its pid to stderr, then hangs on the first query
"""
import json
import os
import subprocess
import sys
import time

POSITIVE = {"good", "great", "love", "thanks", "awesome"}
NEGATIVE = {"bad", "late", "delayed", "worst", "hate", "cancelled"}


def classify(text):
    words = [w.strip(".,!?@#").lower() for w in text.split()]
    score = sum(w in POSITIVE for w in words) - sum(w in NEGATIVE for w in words)
    label = "positive" if score > 0 else "negative" if score < 0 else "neutral"
    return {"label": label, "score": max(-1.0, min(1.0, score / 3))}


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    queries = 0
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if op == "hello":
            if mode == "silent-hello":
                time.sleep(3600)
            answer = {"ok": True, "name": "toy-sentiment", "version": "1.0"}
            if mode == "bad-hello":
                del answer["name"]
        elif op == "classify":
            queries += 1
            if mode == "crash-after" and queries > limit:
                os._exit(3)
            if mode == "hang-after" and queries > limit:
                time.sleep(3600)
            if mode == "grandchild":
                child = subprocess.Popen(["sleep", "3600"])
                sys.stderr.write(f"grandchild {child.pid}\n")
                sys.stderr.flush()
                time.sleep(3600)
            if "rows" in request:
                answer = {"id": request["id"],
                          "rows": [dict(id=r["id"], **classify(r["text"])) for r in request["rows"]]}
            else:
                answer = dict(id=request["id"], **classify(request["text"]))
            if mode == "out-of-order":
                answer["id"] = "x" + answer["id"]
            elif mode == "malformed":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            elif mode == "wrong-type":
                if "rows" in answer:
                    for r in answer["rows"]:
                        r["label"] = 7
                else:
                    answer["label"] = 7
            elif mode == "refuse":
                answer = {"id": request["id"], "ok": False, "error": "refused on purpose"}
        else:
            answer = {"ok": False, "error": f"unknown op {op}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
