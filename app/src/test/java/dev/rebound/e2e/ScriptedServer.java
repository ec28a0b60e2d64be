package dev.rebound.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A loopback provider that answers per model and per API key: responses are queued for {@code model} or for
 * {@code model@key}; a request with nothing queued gets a plain streamed reply. Every request is logged as
 * {@code model@key} with its arrival time.
 */
final class ScriptedServer extends Dispatcher {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Deque<MockResponse>> queues = new ConcurrentHashMap<>();
    final List<String> log = new CopyOnWriteArrayList<>();
    final List<Long> arrivals = new CopyOnWriteArrayList<>();

    /** Queues responses for a model ({@code gpt-4.1-mini}) or a model and key ({@code claude@sk-ant-a}). */
    ScriptedServer on(String target, MockResponse... responses) {
        Deque<MockResponse> q = queues.computeIfAbsent(target, t -> new ArrayDeque<>());
        synchronized (q) {
            q.addAll(List.of(responses));
        }
        return this;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        arrivals.add(System.nanoTime());
        String model;
        try {
            model = JSON.readTree(request.getBody().utf8()).path("model").asText();
        } catch (IOException e) {
            return new MockResponse.Builder().code(400).body("bad json").build();
        }
        String auth = request.getHeaders().get("Authorization");
        String key = auth == null ? "-" : auth.substring("Bearer ".length());
        log.add(model + "@" + key);
        for (String target : List.of(model + "@" + key, model)) {
            Deque<MockResponse> q = queues.get(target);
            if (q != null) {
                synchronized (q) {
                    if (!q.isEmpty()) {
                        return q.poll();
                    }
                }
            }
        }
        return Sse.reply("reply from " + model);
    }

    static MockResponse status(int code, String body, String... headers) {
        MockResponse.Builder b = new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body);
        for (int i = 0; i < headers.length; i += 2) {
            b.addHeader(headers[i], headers[i + 1]);
        }
        return b.build();
    }

    static MockResponse overloaded(String... headers) {
        return status(
                529,
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
                headers);
    }

    static MockResponse usageLimit(String retryAfterSeconds) {
        return status(
                429,
                "{\"type\":\"error\",\"error\":{\"type\":\"usage_limit_error\",\"message\":\"You've hit "
                        + "your usage limit for this plan.\"}}",
                "retry-after",
                retryAfterSeconds);
    }

    static MockResponse insufficientQuota() {
        return status(
                429,
                "{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and "
                        + "billing details.\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}");
    }

    static MockResponse refusal() {
        return new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body("data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with that.\"},"
                        + "\"finish_reason\":null}]}\n\n"
                        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                        + "data: [DONE]\n\n")
                .build();
    }
}
