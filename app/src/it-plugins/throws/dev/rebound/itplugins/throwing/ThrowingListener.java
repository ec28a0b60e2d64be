package dev.rebound.itplugins.throwing;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;

/** Throws on every event. */
@Extension
public class ThrowingListener implements SessionEventListener {
    @Override
    public void onEvent(SessionEvent event) {
        throw new IllegalStateException("throws plugin refuses " + event.type());
    }
}
