package dev.rebound.e2e;

import mockwebserver3.MockResponse;

/** Server-sent-event bodies in the OpenAI Chat Completions wire format, for MockWebServer. */
public final class Sse {
    private Sse() {}

    public static String chunk(String content) {
        return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                + quote(content) + "},\"finish_reason\":null}]}\n\n";
    }

    /** A chunk of reasoning, as DeepSeek and vLLM stream it ({@code reasoning_content}). */
    public static String reasoning(String content) {
        return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
                + "{\"reasoning_content\":" + quote(content) + "},\"finish_reason\":null}]}\n\n";
    }

    public static String finish() {
        return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},"
                + "\"finish_reason\":\"stop\"}]}\n\n"
                + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}\n\n"
                + "data: [DONE]\n\n";
    }

    /** A complete streamed reply made of these pieces. */
    public static MockResponse reply(String... pieces) {
        StringBuilder body = new StringBuilder();
        for (String p : pieces) {
            body.append(chunk(p));
        }
        body.append(finish());
        return new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "text/event-stream")
                .body(body.toString())
                .build();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
