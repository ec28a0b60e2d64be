#!/usr/bin/env python3
"""Writes three saved chats into CONFIG/sessions for the screenshots of docs/desktop.md: a reply with syntax-highlighted
code that needed three retries (its record line and timeline), and two more chats for the sidebar's search. The files
are what Rebound itself writes (docs/history.md); the replies are the built-in simulator's model, so no key is needed."""
import json
import sys
from pathlib import Path

config = Path(sys.argv[1])
sessions = config / "sessions"
sessions.mkdir(parents=True, exist_ok=True)
T0 = 1796200000000
MODEL = {"provider": "simulator", "model": "rebound-simulator", "api": "simulator"}


def user(mid, text, ts):
    return {"type": "message", "id": mid, "ts": ts, "message": {"role": "user", "id": mid, "text": text, "timestamp": ts}}


def reply(mid, text, start, end, tokens_in, tokens_out):
    message = {"role": "assistant", "id": mid, "content": [{"type": "text", "text": text}], **MODEL,
               "credential": "primary",
               "usage": {"inputTokens": tokens_in, "outputTokens": tokens_out, "cacheReadTokens": 0,
                         "cacheWriteTokens": 0},
               "stopReason": "stop", "timestamp": end, "startedAt": start}
    return {"type": "message", "id": mid, "ts": end, "message": message}


def overloaded(mid, start, end, request_id):
    message = {"role": "assistant", "id": mid, "content": [], **MODEL, "credential": "primary",
               "usage": {"inputTokens": 0, "outputTokens": 0, "cacheReadTokens": 0, "cacheWriteTokens": 0},
               "stopReason": "error", "errorMessage": "529 Overloaded: Overloaded (type: overloaded_error)",
               "failure": {"kind": "http", "httpStatus": 529, "errorType": "overloaded_error",
                           "headers": {"request-id": request_id}},
               "timestamp": end, "startedAt": start}
    return {"type": "message", "id": mid, "ts": end, "message": message}


def write(sid, title, entries):
    lines = [{"type": "session", "version": 1, "id": sid, "created": entries[0]["ts"], "title": title}] + entries
    (sessions / (sid + ".jsonl")).write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


CODE_REPLY = """Add **full jitter** to an exponential backoff, so clients that failed together do not retry together:

```python
import random
import time


def retry(call, attempts=5, base=0.5, cap=8.0):
    \"\"\"Calls `call` until it succeeds, sleeping a jittered, doubling delay in between.\"\"\"
    for attempt in range(attempts):
        try:
            return call()
        except OverloadedError as error:  # 529: the provider is busy
            if attempt == attempts - 1:
                raise
            delay = min(cap, base * 2 ** attempt)
            time.sleep(random.uniform(0.75 * delay, delay))
```

The same in Java, honouring the provider's `retry-after` when it asks for longer:

```java
long delay = Math.min(capMs, baseMs << attempt);
long wait = Math.max(retryAfterMs, (long) (delay * (0.75 + 0.25 * random.nextDouble())));
Thread.sleep(wait); // Rebound waits on a timer instead, so Esc can cancel it
```
"""

t = T0
write("demo-jitter", "Retry with jitter in Python", [
    user("u1", "How do I add jitter to retries in Python?", t),
    overloaded("f1", t + 10, t + 420, "req_011CVa1"),
    {"type": "retried", "id": "r1", "ts": t + 421, "messageId": "f1", "retried": True},
    overloaded("f2", t + 900, t + 1300, "req_011CVa2"),
    {"type": "retried", "id": "r2", "ts": t + 1301, "messageId": "f2", "retried": True},
    overloaded("f3", t + 2250, t + 2700, "req_011CVa3"),
    {"type": "retried", "id": "r3", "ts": t + 2701, "messageId": "f3", "retried": True},
    reply("a1", CODE_REPLY, t + 4550, t + 9800, 412, 318),
    {"type": "retry_chain", "id": "k1", "ts": t + 9801, "chain": {
        "type": "retry_chain_end", "turnId": "t1", "reason": "succeeded", "startedAt": t + 420, "endedAt": t + 9801,
        "attempts": [
            {"attempt": 0, "errorKind": "transient", "httpStatus": 529, "model": "simulator/rebound-simulator",
             "credential": "primary", "delayMs": 480, "decidedBy": "backoff",
             "errorMessage": "529 Overloaded: Overloaded (type: overloaded_error)"},
            {"attempt": 1, "errorKind": "transient", "httpStatus": 529, "model": "simulator/rebound-simulator",
             "credential": "primary", "delayMs": 950, "decidedBy": "backoff",
             "errorMessage": "529 Overloaded: Overloaded (type: overloaded_error)"},
            {"attempt": 2, "errorKind": "transient", "httpStatus": 529, "model": "simulator/rebound-simulator",
             "credential": "primary", "delayMs": 1850, "decidedBy": "provider_hint",
             "errorMessage": "529 Overloaded: Overloaded (type: overloaded_error)"}]}},
])
t = T0 - 86_400_000
write("demo-json", "Parse JSON Lines in Java", [
    user("u1", "How do I read a JSON Lines file in Java?", t),
    reply("a1", "Read it line by line and parse each line on its own; a line cut by a crash is skipped:\n\n"
                "```java\ntry (var lines = Files.lines(path)) {\n    lines.map(mapper::readTree).forEach(this::apply);\n}\n```\n",
          t + 10, t + 3000, 120, 64),
])
t = T0 - 2 * 86_400_000
write("demo-shell", "Shell one-liners for logs", [
    user("u1", "Count the 529 errors in a log, per hour", t),
    reply("a1", "```bash\ngrep ' 529 ' rebound.log | cut -c1-13 | sort | uniq -c\n```\n", t + 10, t + 1500, 80, 30),
])
print(sessions / "demo-jitter.jsonl")
