package dev.rebound.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.history.TitleEntry;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.ProviderRequest;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SessionTitlerTest {
    private static final ModelRef CHAT = new ModelRef("local", "chat");
    private static final ModelRef TITLER = new ModelRef("local", "nano");
    private final List<ProviderRequest> requests = new CopyOnWriteArrayList<>();
    private final List<String> askedRoles = new CopyOnWriteArrayList<>();
    private ChatSession session;

    @AfterEach
    void close() {
        session.close();
    }

    private ChatSession session(Map<String, ModelRef> roles, String titleAnswer, StopReason titleStop) {
        ProviderConfig local = new ProviderConfig(
                "local",
                ProviderApi.OPENAI_COMPLETIONS,
                "http://127.0.0.1:9/v1",
                List.of(new ModelConfig("chat", null), new ModelConfig("nano", null)));
        Settings settings = new Settings(CHAT, roles, Map.of("local", local), null, null);
        ChatProvider provider = (r, listener, control) -> {
            requests.add(r);
            boolean title = r.model().equals(TITLER);
            return new AssistantMessage(
                    r.messageId(),
                    List.of(new ContentBlock.Text(title ? titleAnswer : "Sure.")),
                    "local",
                    r.model().id(),
                    "openai-completions",
                    null,
                    null,
                    title ? titleStop : StopReason.STOP,
                    title && titleStop != StopReason.STOP ? "503" : null,
                    null,
                    null,
                    0);
        };
        session = ChatSession.builder()
                .settings(() -> settings)
                .providers(api -> Optional.of(provider))
                .model(CHAT)
                .build();
        RoleCalls direct = (role, model, prompt) -> {
            askedRoles.add(role);
            return Optional.of(provider.stream(
                    new ProviderRequest(
                            "title",
                            local,
                            model,
                            List.of(new UserMessage("ask", prompt, 0)),
                            null,
                            settings.timeouts()),
                    dev.rebound.provider.StreamListener.IGNORE,
                    new dev.rebound.provider.CallControl()));
        };
        session.subscribe(new SessionTitler(session, () -> settings, direct, Runnable::run));
        return session;
    }

    private void prompt(String text) throws Exception {
        ((PromptResult.Accepted) session.prompt(text, null)).completion().get(5, TimeUnit.SECONDS);
    }

    @Test
    void withoutATitleModelTheFirstWordsOfTheFirstPromptBecomeTheTitleOnce() throws Exception {
        session(Map.of(), null, StopReason.STOP);
        prompt("How do I **configure** exponential backoff for a flaky upstream server in production?");
        prompt("And jitter?");
        assertThat(session.title()).isEqualTo("How do I configure exponential backoff for a flaky upstream…");
        assertThat(session.history()).filteredOn(e -> e instanceof TitleEntry).hasSize(1);
        assertThat(requests).hasSize(2);
    }

    @Test
    void aTitleModelImprovesTheTitleAndItsQuotesArePeeledOff() throws Exception {
        session(Map.of("title", TITLER), "\"Backoff for flaky servers.\"\nExtra line", StopReason.STOP);
        prompt("How do I configure exponential backoff?");
        assertThat(session.title()).isEqualTo("Backoff for flaky servers");
        assertThat(askedRoles).containsExactly(SessionTitler.ROLE);
        ProviderRequest ask = requests.stream()
                .filter(r -> r.model().equals(TITLER))
                .findFirst()
                .orElseThrow();
        assertThat(((UserMessage) ask.context().getFirst()).text()).contains("How do I configure exponential backoff?");
    }

    @Test
    void aFailingTitleModelLeavesTheFirstWordsTitle() throws Exception {
        session(Map.of("title", TITLER), "", StopReason.ERROR);
        prompt("Explain jitter");
        assertThat(session.title()).isEqualTo("Explain jitter");
    }
}
