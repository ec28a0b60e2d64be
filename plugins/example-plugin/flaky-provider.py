#!/usr/bin/env python3
"""A local OpenAI-compatible provider that fails on purpose, to make Rebound retry (see docs/plugins.md).

Each prompt's first FAILURES calls get 529 Overloaded; the next one streams a short reply. Standard library only:
    python3 flaky-provider.py [--port 8529] [--failures 3]
"""
import argparse
import http.server
import json

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--port", type=int, default=8529)
parser.add_argument("--failures", type=int, default=3, help="529 answers before each success")
args = parser.parse_args()
calls = 0


class FlakyProvider(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        global calls
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        calls += 1
        if calls % (args.failures + 1) != 0:
            body = json.dumps({"error": {"type": "overloaded_error", "message": "Overloaded"}}).encode()
            self.send_response(529)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        for chunk in ({"choices": [{"index": 0, "delta": {"content": "Hello, after %d retries." % args.failures}}]},
                      {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}):
            self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")
        self.close_connection = True


print("Flaky provider on http://127.0.0.1:%d/v1 (%d x 529, then a reply)" % (args.port, args.failures), flush=True)
http.server.ThreadingHTTPServer(("127.0.0.1", args.port), FlakyProvider).serve_forever()
