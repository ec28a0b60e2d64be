package dev.rebound.itplugins.flood;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs thousands of lines for every event, at INFO and WARN. */
@Extension
public class FloodListener implements SessionEventListener {
    private static final Logger LOG = LoggerFactory.getLogger(FloodListener.class);

    @Override
    public void onEvent(SessionEvent event) {
        for (int i = 0; i < 2000; i++) {
            LOG.info("flood {} line {}: {}", event.type(), i, "x".repeat(100));
            if (i % 10 == 0) {
                LOG.warn("flood warning {} {}", event.type(), i);
            }
        }
    }
}
