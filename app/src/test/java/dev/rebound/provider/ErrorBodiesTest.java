package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.json.Json;
import org.junit.jupiter.api.Test;

/** Error body shapes beyond the ones the provider tests send over HTTP. */
class ErrorBodiesTest {
    private final ErrorBodies bodies = new ErrorBodies(Json.newMapper());

    @Test
    void ollamaErrorIsAPlainString() {
        assertThat(bodies.parse("{\"error\":\"model \\\"llama9\\\" not found, try pulling it first\"}"))
                .isEqualTo(new ErrorBody("model \"llama9\" not found, try pulling it first", null, null, null));
    }

    @Test
    void fastApiDetailIsTheMessage() {
        assertThat(bodies.parse("{\"detail\":\"Not Found\"}").message()).isEqualTo("Not Found");
    }

    @Test
    void vllmFlatErrorWithNumericCode() {
        assertThat(bodies.parse("""
                {"object":"error","message":"The model `llama` does not exist.","type":"NotFoundError","param":null,"code":404}"""))
                .isEqualTo(new ErrorBody("The model `llama` does not exist.", "NotFoundError", "404", null));
    }

    @Test
    void aProxyWrappingItsUpstreamsJsonBodyIsReadThrough() {
        ErrorBody body = bodies.parse("""
                {"error":{"message":"{\\n  \\"error\\": {\\n    \\"code\\": 429,\\n    \\"message\\": \\"Resource has been exhausted (e.g. check quota).\\",\\n    \\"status\\": \\"RESOURCE_EXHAUSTED\\"\\n  }\\n}\\n","code":429,"status":"Too Many Requests"}}""");

        assertThat(body)
                .isEqualTo(new ErrorBody(
                        "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED", "429", null));
    }

    @Test
    void jsonWithoutAnyMessageIsKeptAsCompactText() {
        ErrorBody body = bodies.parse("{\n  \"status\": \"fail\",\n  \"reason\": 17\n}");

        assertThat(body.message()).isEqualTo("{ \"status\": \"fail\", \"reason\": 17 }");
    }

    @Test
    void brokenJsonIsKeptAsText() {
        assertThat(bodies.parse("{\"error\": {\"message\": \"cut").message())
                .isEqualTo("{\"error\": {\"message\": \"cut");
    }

    @Test
    void htmlLosesScriptsStylesCommentsAndTags() {
        ErrorBody body = bodies.parse("""
                <!DOCTYPE html><html><head><title>api.example.com | 524: A timeout occurred</title>
                <style>body { color: red; }</style><script>var x = "<b>";</script></head>
                <body><!-- cf --><h1>A timeout occurred</h1><p>Error code 524 &amp; more</p></body></html>""");

        assertThat(body.message())
                .isEqualTo("api.example.com | 524: A timeout occurred A timeout occurred Error code 524 & more");
    }

    @Test
    void longTextIsCutToOneShortLine() {
        String message = bodies.parse("line one\n\n" + "word ".repeat(200)).message();

        assertThat(message).startsWith("line one word word").endsWith("…").doesNotContain("\n");
        assertThat(message).hasSize(ErrorBodies.MAX_TEXT_CHARS);
    }

    @Test
    void blankBodiesSayNothing() {
        assertThat(bodies.parse("  \n")).isEqualTo(ErrorBody.EMPTY);
        assertThat(ErrorBody.EMPTY.qualifiers()).isEmpty();
    }
}
