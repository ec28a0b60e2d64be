package dev.rebound.session;

import dev.rebound.event.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** Records every event a session emits, for tests asserting exact sequences. */
final class RecordingListener implements SessionListener {
    private final List<SessionEvent> events = new ArrayList<>();

    @Override
    public synchronized void onEvent(SessionEvent event) {
        events.add(event);
    }

    synchronized List<SessionEvent> events() {
        return List.copyOf(events);
    }

    synchronized List<String> types() {
        return events.stream().map(SessionEvent::type).toList();
    }
}
