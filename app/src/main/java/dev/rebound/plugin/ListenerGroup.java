package dev.rebound.plugin;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import java.util.List;

/**
 * The listeners of one plugin that has several, delivered to as one: each event goes to each listener in the order
 * PF4J found them, on the plugin's one delivery thread. A throw stops that event's delivery to the rest and counts as
 * one failure of the plugin. Closing closes every {@link AutoCloseable} listener; the first failure is rethrown.
 */
final class ListenerGroup implements SessionEventListener, AutoCloseable {
    private final List<SessionEventListener> listeners;

    ListenerGroup(List<SessionEventListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void dispatch(SessionEvent event) {
        for (SessionEventListener listener : listeners) {
            listener.dispatch(event);
        }
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        for (SessionEventListener listener : listeners) {
            if (listener instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
