package dev.rebound.provider.openai;

import static dev.rebound.provider.openai.CompletionsFixture.delta;
import static dev.rebound.provider.openai.CompletionsFixture.eventStream;
import static dev.rebound.provider.openai.CompletionsFixture.finish;
import static dev.rebound.provider.openai.CompletionsFixture.text;
import static dev.rebound.provider.openai.CompletionsFixture.usage;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.json.Json;
import dev.rebound.provider.CallControl;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiCompletionsStreamingTest {
    private final ObjectMapper mapper = Json.newMapper();
    private CompletionsFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new CompletionsFixture();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void streamsTextChunksWithUsageAndDoneAndSendsTheConversation() throws Exception {
        fixture.enqueue(eventStream(
                delta("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}"),
                text("Hel"),
                text("lo"),
                text(" world"),
                finish("stop"),
                usage(20, 3, 8),
                "[DONE]"));
        List<ChatMessage> context = List.of(
                new UserMessage("u1", "Hi", 1),
                assistant("m1", List.of(new ContentBlock.Thinking("hmm", false), new ContentBlock.Text("Hello!"))),
                assistant("m2", List.of(new ContentBlock.Thinking("only thinking", false))),
                new UserMessage("u2", "Say \"hello world\"", 3));
        ProviderRequest request = CompletionsFixture.request(
                fixture.baseUrl(),
                CompletionsFixture.credential(CompletionsFixture.KEY),
                CompletionsFixture.QUICK,
                context);

        CompletionsFixture.Result result = fixture.stream(request, new CallControl());

        AssistantMessage message = result.message();
        assertThat(result.recorder().events).containsExactly("text:Hel", "text:lo", "text: world");
        assertThat(message.content()).containsExactly(new ContentBlock.Text("Hello world"));
        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.errorMessage()).isNull();
        assertThat(message.failure()).isNull();
        assertThat(message.stopDetails()).isNull();
        assertThat(message.usage()).isEqualTo(new Usage(12, 3, 8, 0));
        assertThat(message.id()).isEqualTo("a1");
        assertThat(message.provider()).isEqualTo("openai");
        assertThat(message.model()).isEqualTo("gpt-4.1-mini");
        assertThat(message.api()).isEqualTo("openai-completions");
        assertThat(message.credential()).isEqualTo("work");
        assertThat(message.timestamp()).isEqualTo(CompletionsFixture.CLOCK.millis());

        RecordedRequest sent = fixture.server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(sent.getMethod()).isEqualTo("POST");
        assertThat(sent.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer " + CompletionsFixture.KEY);
        assertThat(sent.getHeaders().get("Accept")).isEqualTo("text/event-stream");
        assertThat(sent.getHeaders().get("Content-Type")).startsWith("application/json");
        assertThat(mapper.readTree(sent.getBody().utf8())).isEqualTo(mapper.readTree("""
                {"model":"gpt-4.1-mini",
                 "messages":[{"role":"user","content":"Hi"},
                             {"role":"assistant","content":"Hello!"},
                             {"role":"user","content":"Say \\"hello world\\""}],
                 "stream":true,
                 "stream_options":{"include_usage":true}}"""));
    }

    @Test
    void anUnreadableLineAfterTheFinishReasonDoesNotTurnTheAnswerIntoAFailure() {
        fixture.enqueue(eventStream(text("Complete answer"), finish("stop"), "{not json"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.text()).isEqualTo("Complete answer");
    }

    @Test
    void aBaseUrlWithTrailingSlashGetsTheSameEndpoint() throws Exception {
        fixture.enqueue(eventStream(text("ok"), finish("stop"), "[DONE]"));

        AssistantMessage message = fixture.stream(
                        fixture.request(
                                fixture.baseUrl() + "/",
                                CompletionsFixture.credential(CompletionsFixture.KEY),
                                CompletionsFixture.QUICK),
                        new CallControl())
                .message();

        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(fixture.server.takeRequest(1, TimeUnit.SECONDS).getUrl().encodedPath())
                .isEqualTo("/v1/chat/completions");
    }

    @Test
    void withoutACredentialNoAuthorizationHeaderIsSent() throws Exception {
        fixture.enqueue(eventStream(text("local"), finish("stop"), "[DONE]"));

        AssistantMessage message = fixture.stream(
                        fixture.request(fixture.baseUrl(), null, CompletionsFixture.QUICK), new CallControl())
                .message();

        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.credential()).isNull();
        assertThat(fixture.server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization"))
                .isNull();
    }

    @Test
    void reasoningContentStreamsAsThinkingBeforeTheAnswer() {
        fixture.enqueue(eventStream(
                delta("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"Let me\"}"),
                delta("{\"content\":null,\"reasoning_content\":\" think.\"}"),
                delta("{\"content\":\"42\",\"reasoning_content\":null}"),
                finish("stop"),
                "[DONE]"));

        CompletionsFixture.Result result = fixture.stream();

        assertThat(result.recorder().events).containsExactly("thinking:Let me", "thinking: think.", "text:42");
        assertThat(result.message().content())
                .containsExactly(new ContentBlock.Thinking("Let me think.", false), new ContentBlock.Text("42"));
        assertThat(result.message().stopReason()).isEqualTo(StopReason.STOP);
    }

    @Test
    void openRouterReasoningFieldIsThinkingAndBlocksFollowArrivalOrder() {
        fixture.enqueue(eventStream(
                delta("{\"content\":\"\",\"reasoning\":\"First \"}"),
                delta("{\"content\":\"\",\"reasoning\":\"idea\"}"),
                text("Answer"),
                delta("{\"content\":\"\",\"reasoning\":\"second thought\"}"),
                text(" more"),
                finish("stop")));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.content())
                .containsExactly(
                        new ContentBlock.Thinking("First idea", false),
                        new ContentBlock.Text("Answer"),
                        new ContentBlock.Thinking("second thought", false),
                        new ContentBlock.Text(" more"));
    }

    @Test
    void finishReasonLengthEndsWithStopReasonLengthEvenWithoutDone() {
        fixture.enqueue(eventStream(text("Once upon a"), finish("length")));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.LENGTH);
        assertThat(message.text()).isEqualTo("Once upon a");
        assertThat(message.errorMessage()).isNull();
    }

    @Test
    void doneWithoutFinishReasonIsAComplete() {
        fixture.enqueue(eventStream(text("Short"), "[DONE]"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.STOP);
        assertThat(message.text()).isEqualTo("Short");
    }

    @Test
    void contentFilterIsAnErrorWithSensitiveStopDetails() {
        fixture.enqueue(eventStream(text("Here is how to"), finish("content_filter"), "[DONE]"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.stopDetails().type()).isEqualTo(StopDetails.SENSITIVE);
        assertThat(message.stopDetails().isRefusal()).isTrue();
        assertThat(message.errorMessage())
                .isEqualTo(
                        "The provider's content filter stopped the reply after 14 characters (finish_reason: content_filter)");
        assertThat(message.text()).isEqualTo("Here is how to");
        assertThat(message.failure()).isNull();
    }

    @Test
    void aRefusalIsAnErrorWithRefusalStopDetails() {
        fixture.enqueue(eventStream(
                delta("{\"role\":\"assistant\",\"content\":null,\"refusal\":\"\"}"),
                delta("{\"refusal\":\"I'm sorry, \"}"),
                delta("{\"refusal\":\"I can't help with that.\"}"),
                finish("stop"),
                "[DONE]"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.stopDetails())
                .isEqualTo(new StopDetails(StopDetails.REFUSAL, "I'm sorry, I can't help with that."));
        assertThat(message.errorMessage()).isEqualTo("The model refused to answer: I'm sorry, I can't help with that.");
        assertThat(message.content()).isEmpty();
    }

    @Test
    void toolCallDeltasAreGatheredByIndex() {
        fixture.enqueue(eventStream(
                delta("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_a\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}"),
                delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]}"),
                delta("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_time\",\"arguments\":\"{}\"}}]}"),
                delta("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"Paris\\\"}\"}}]}"),
                finish("tool_calls"),
                "[DONE]"));

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(message.content())
                .containsExactly(
                        new ContentBlock.ToolCall("call_a", "get_weather", "{\"city\":\"Paris\"}"),
                        new ContentBlock.ToolCall("call_b", "get_time", "{}"));
    }

    @Test
    void aNonStreamedChatCompletionIsAcceptedAsTheReply() {
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "application/json")
                .body("""
                        {"id":"chatcmpl-9","object":"chat.completion","created":1764583200,"model":"gpt-4.1-mini",
                         "choices":[{"index":0,"message":{"role":"assistant","content":"Whole answer","refusal":null},
                                     "logprobs":null,"finish_reason":"stop"}],
                         "usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}""")
                .build());

        CompletionsFixture.Result result = fixture.stream();

        assertThat(result.recorder().events).containsExactly("text:Whole answer");
        assertThat(result.message().stopReason()).isEqualTo(StopReason.STOP);
        assertThat(result.message().usage()).isEqualTo(new Usage(9, 2, 0, 0));
    }

    @Test
    void aSuccessfulResponseThatIsNeitherStreamNorCompletionIsAProtocolError() {
        fixture.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/html")
                .body("<html><body><h1>Welcome to nginx!</h1></body></html>")
                .build());

        AssistantMessage message = fixture.stream().message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.PROTOCOL);
        assertThat(message.errorMessage())
                .isEqualTo(
                        "Expected an event stream (text/event-stream) but the server "
                                + "sent text/html that is not a reply of openai-completions: <html><body><h1>Welcome to nginx!</h1></body></html>");
    }

    @Test
    void theListenerIsCalledOnTheCallingThread() {
        fixture.enqueue(eventStream(delta("{\"reasoning_content\":\"hm\"}"), text("a"), text("b"), finish("stop")));

        CompletionsFixture.Result result = fixture.stream();

        assertThat(result.recorder().threads).hasSize(3).containsOnly(Thread.currentThread());
    }

    @Test
    void aProviderWithoutBaseUrlIsAConfigurationErrorAndSendsNothing() {
        AssistantMessage message = fixture.stream(
                        fixture.request(
                                null, CompletionsFixture.credential(CompletionsFixture.KEY), CompletionsFixture.QUICK),
                        new CallControl())
                .message();

        assertThat(message.stopReason()).isEqualTo(StopReason.ERROR);
        assertThat(message.failure().kind()).isEqualTo(FailureKind.CONFIGURATION);
        assertThat(message.errorMessage())
                .isEqualTo("Provider 'openai' has no baseUrl: set providers.openai.baseUrl "
                        + "in settings.json (for example https://api.openai.com/v1)");
        assertThat(fixture.server.getRequestCount()).isZero();
    }

    @Test
    void anInvalidBaseUrlIsAConfigurationError() {
        AssistantMessage message = fixture.stream(
                        fixture.request("ftp://example.com/v1", null, CompletionsFixture.QUICK), new CallControl())
                .message();

        assertThat(message.failure().kind()).isEqualTo(FailureKind.CONFIGURATION);
        assertThat(message.errorMessage())
                .startsWith("Provider 'openai' has an invalid baseUrl 'ftp://example.com/v1'");
    }

    private static AssistantMessage assistant(String id, List<ContentBlock> content) {
        return new AssistantMessage(
                id,
                content,
                "openai",
                "gpt-4.1-mini",
                "openai-completions",
                null,
                null,
                StopReason.STOP,
                null,
                null,
                null,
                2);
    }
}
