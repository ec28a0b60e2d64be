package dev.rebound.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Named {@code Plugin*} so the plugin slice's test filter runs it. Proves that every permitted event type reaches its
 * own method, after the catch-all, so a new event added to {@link SessionEvent} without a route fails here (and the
 * switch in {@link SessionEventListener#dispatch} fails to compile).
 */
class PluginSessionEventListenerTest {

    static Stream<Class<?>> eventTypes() {
        return Arrays.stream(SessionEvent.class.getPermittedSubclasses());
    }

    @ParameterizedTest
    @MethodSource("eventTypes")
    void everyEventReachesTheCatchAllThenItsOwnMethod(Class<?> type) throws Exception {
        SessionEvent event = newWithDefaults(type);
        Recorder recorder = new Recorder();

        recorder.dispatch(event);

        assertThat(recorder.calls).containsExactly("onEvent", "on" + type.getSimpleName());
        assertThat(recorder.arguments).containsExactly(event, event);
    }

    @Test
    void allFourteenEventTypesAreCovered() {
        assertThat(eventTypes()).hasSize(14);
    }

    @Test
    void theDefaultListenerIgnoresEveryEvent() throws Exception {
        SessionEventListener noOp = new SessionEventListener() {};
        for (Class<?> type : SessionEvent.class.getPermittedSubclasses()) {
            noOp.dispatch(newWithDefaults(type));
        }
    }

    private static SessionEvent newWithDefaults(Class<?> type) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types =
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        Constructor<?> canonical = type.getDeclaredConstructor(types);
        Object[] args = Arrays.stream(types)
                .map(PluginSessionEventListenerTest::defaultValue)
                .toArray();
        return (SessionEvent) canonical.newInstance(args);
    }

    private static Object defaultValue(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == Map.class) {
            return Map.of();
        }
        return null;
    }

    /** Records every call by method name, overriding every method of the listener. */
    private static final class Recorder implements SessionEventListener {
        final List<String> calls = new ArrayList<>();
        final List<SessionEvent> arguments = new ArrayList<>();

        private void record(String name, SessionEvent e) {
            calls.add(name);
            arguments.add(e);
        }

        @Override
        public void onEvent(SessionEvent e) {
            record("onEvent", e);
        }

        @Override
        public void onAgentStart(AgentStart e) {
            record("onAgentStart", e);
        }

        @Override
        public void onMessageStart(MessageStart e) {
            record("onMessageStart", e);
        }

        @Override
        public void onMessageUpdate(MessageUpdate e) {
            record("onMessageUpdate", e);
        }

        @Override
        public void onMessageEnd(MessageEnd e) {
            record("onMessageEnd", e);
        }

        @Override
        public void onAgentEnd(AgentEnd e) {
            record("onAgentEnd", e);
        }

        @Override
        public void onModelChanged(ModelChanged e) {
            record("onModelChanged", e);
        }

        @Override
        public void onNotice(Notice e) {
            record("onNotice", e);
        }

        @Override
        public void onAutoRetryStart(AutoRetryStart e) {
            record("onAutoRetryStart", e);
        }

        @Override
        public void onAutoRetryEnd(AutoRetryEnd e) {
            record("onAutoRetryEnd", e);
        }

        @Override
        public void onRetryChainEnd(RetryChainEnd e) {
            record("onRetryChainEnd", e);
        }

        @Override
        public void onCredentialSwitched(CredentialSwitched e) {
            record("onCredentialSwitched", e);
        }

        @Override
        public void onRetryFallbackApplied(RetryFallbackApplied e) {
            record("onRetryFallbackApplied", e);
        }

        @Override
        public void onRetryFallbackSucceeded(RetryFallbackSucceeded e) {
            record("onRetryFallbackSucceeded", e);
        }

        @Override
        public void onRetryFallbackReverted(RetryFallbackReverted e) {
            record("onRetryFallbackReverted", e);
        }
    }
}
