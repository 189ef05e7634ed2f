"""The Fieldtest system protocol (docs/system-protocol.md), version 1, for the example systems.

`serve(capability, answer, load=None)` reads JSON Lines requests on standard input and writes one
answer line per request: the handshake, `load` setup messages (handed to `load(path, format)`), and
queries, single or batched in `rows`, each handed to `answer(row)` which returns the answer fields
(or a whole batch to `answer_rows(rows)`, when given, for a library that works faster on arrays).
"""
import json
import sys


def serve(capability, name, version, answer, load=None, answer_rows=None):
    operation = {"sun": "sun", "route": "route", "locate": "locate", "sentiment": "classify"}[capability]
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if op == "hello":
            ok = request.get("protocol") == 1 and request.get("capability") == capability
            reply = {"ok": True, "name": name, "version": version} if ok else {
                "ok": False, "error": f"this system answers {capability}, protocol 1"}
        elif op == "load":
            try:
                if load is None:
                    raise ValueError(f"{name} takes no setup files")
                load(request["dataset"]["path"], request["dataset"]["format"])
                reply = {"id": request.get("id"), "ok": True}
            except Exception as error:  # the harness reports the message and stops the run
                reply = {"id": request.get("id"), "ok": False, "error": str(error)}
        elif op == operation and "rows" in request:
            rows = request["rows"]
            answers = answer_rows(rows) if answer_rows else [answer(row) for row in rows]
            reply = {"id": request["id"], "rows": [dict(id=row["id"], **a) for row, a in zip(rows, answers)]}
        elif op == operation:
            reply = dict(id=request["id"], **answer(request))
        else:
            reply = {"id": request.get("id"), "ok": False, "error": f"unknown op {op}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
