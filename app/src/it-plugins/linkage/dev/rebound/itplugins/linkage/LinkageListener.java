package dev.rebound.itplugins.linkage;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;

/** Fails on every event as a plugin built against a library that is missing at run time would. */
@Extension
public class LinkageListener implements SessionEventListener {
    @Override
    public void onEvent(SessionEvent event) {
        throw new NoClassDefFoundError("com/example/MissingAtRunTime");
    }
}
